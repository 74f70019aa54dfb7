import Reel

/// The keys of a browsed tab (Movies, Series) that change what it lists, and of its filters while
/// one is open (they take every key but ctrl-c): `l` the next list (discover, popular, top rated),
/// `o` the next sort key, `O` the other direction, `f` the genres, `y` the year, `c` no filters
/// (each a change that starts the list again from page 1: `AppUpdate` asks for it), and `/` the
/// filter typed over the titles loaded (enter keeps it, esc drops it; asks TMDb nothing).
enum BrowseUpdate {
    /// What a key did: whether it was the tab's own, and a note for the status line.
    struct Outcome: Equatable {
        var handled: Bool
        var note: String?

        static let ignored = Outcome(handled: false)
        static let done = Outcome(handled: true)
    }

    static let chartsNote = "sorting and filters apply to Discover (l switches lists)"

    static func handle(_ key: Key, _ list: inout BrowseList) -> Outcome {
        if list.genrePicker != nil { return pick(key, &list) }
        if list.yearField != nil { return typeYear(key, &list) }
        if list.filtering { return typeFilter(key, &list) }
        var query = list.query
        switch key {
        case .character("/"):
            list.filtering = true
            return .done
        case .escape where !list.filter.text.isEmpty:
            list.filter = TextField(limit: list.filter.limit)
            return .done
        case .character("l"):
            let all = TitleListQuery.List.allCases
            query.list = all[(all.firstIndex(of: query.list)! + 1) % all.count]
        case .character("o"), .character("O"), .character("f"), .character("y"), .character("c"):
            guard query.isDiscover else { return Outcome(handled: true, note: chartsNote) }
            return filter(key, &list)
        default:
            return .ignored
        }
        list.restart(query)
        return .done
    }

    /// `o`, `O`, `f`, `y`, `c` on the discover list.
    private static func filter(_ key: Key, _ list: inout BrowseList) -> Outcome {
        var query = list.query
        switch key {
        case .character("o"):
            let all = TitleListQuery.Order.allCases
            query.order = all[(all.firstIndex(of: query.order)! + 1) % all.count]
            query.descending = query.order.descendsByDefault
        case .character("O"):
            query.descending.toggle()
        case .character("f"):
            list.genrePicker = GenrePicker(names: Application.englishGenreNames(list.mediaType), chosen: query.genres, anyGenre: query.anyGenre)
            return .done
        case .character("y"):
            list.yearField = YearField(text: query.year.map(String.init) ?? "")
            return .done
        default:  // c
            guard !query.genres.isEmpty || query.year != nil else { return Outcome(handled: true, note: "no filters to clear") }
            query.genres = []
            query.anyGenre = false
            query.year = nil
        }
        list.restart(query)
        return .done
    }

    /// The genre picker (`GenrePicking`): applied, the list starts again if it changed.
    private static func pick(_ key: Key, _ list: inout BrowseList) -> Outcome {
        guard let picker = list.genrePicker else { return .ignored }
        switch GenrePicking.key(key, picker) {
        case .open(let picker):
            list.genrePicker = picker
        case .cancelled:
            list.genrePicker = nil
        case .applied(let genres, let anyGenre):
            var query = list.query
            query.genres = genres
            query.anyGenre = anyGenre
            list.genrePicker = nil
            if query != list.query { list.restart(query) }
        }
        return .done
    }

    /// The filter as typed: each key narrows the rows loaded at once; enter keeps it, esc drops
    /// it; the arrows (not letters, which are text) still move the cursor (`AppUpdate`).
    private static func typeFilter(_ key: Key, _ list: inout BrowseList) -> Outcome {
        switch key {
        case .enter:
            list.filtering = false
        case .escape:
            list.filtering = false
            list.filter = TextField(limit: list.filter.limit)
        default:
            guard let field = list.filter.typed(key) else { return .ignored }
            list.filter = field
            list.cursor = ListCursor()
        }
        return .done
    }

    /// The year field: digits, `backspace`, `enter` applies (empty: any year), `esc` drops it.
    private static func typeYear(_ key: Key, _ list: inout BrowseList) -> Outcome {
        guard var field = list.yearField else { return .ignored }
        switch key {
        case .escape:
            list.yearField = nil
        case .enter:
            switch field.year {
            case .failure(let error):
                return Outcome(handled: true, note: error.message)
            case .success(let year):
                var query = list.query
                query.year = year
                list.yearField = nil
                if query != list.query { list.restart(query) }
            }
        default:
            field.type(key)
            list.yearField = field
        }
        return .done
    }
}
