/// The Search tab's logic: typing into the field (while it has focus every printable key is
/// text, so `q`, `j` and digits neither quit, move nor switch tabs), the debounce by generation,
/// the type filter (`←` `→`), moving among and opening results, and the default person.
enum SearchUpdate {
    /// Lines of the list under the field (the field and the list's heading take two): the
    /// default person's filmography has one title a line.
    static func visibleRows(_ model: AppModel) -> Int { max(1, model.visibleRows - 1) }

    /// Results that fit under the field, the heading and the header row naming the columns: with
    /// thumbnails a result takes three lines (four in pixels).
    static func resultRows(_ model: AppModel) -> Int { model.rowsFitting(visibleRows(model) - 1) }

    /// A key on the Search tab (no screen open); `nil` when the tab leaves it to the app's keys
    /// (tabs, help, quit).
    static func key(_ key: Key, _ model: inout AppModel) -> [AppEffect]? {
        model.search.editing ? typing(key, &model) : browsing(key, &model)
    }

    /// While the field has focus: text in, `enter` `↓` `esc` out to the results.
    private static func typing(_ key: Key, _ model: inout AppModel) -> [AppEffect]? {
        // The text is changed in place: a pasted run of characters costs one append each, not a
        // copy of all typed so far (which made a paste of 10,000 characters take half a minute).
        switch key {
        case .character(let c):
            model.search.text.append(c)
            return changed(&model)
        case .backspace:
            guard !model.search.text.isEmpty else { return [] }
            model.search.text.removeLast()
            return changed(&model)
        case .control("u"):
            guard !model.search.text.isEmpty else { return [] }
            model.search.text = ""
            return changed(&model)
        case .left: return filtered(model.search.filter.previous, &model)
        case .right: return filtered(model.search.filter.next, &model)
        case .enter:
            model.search.editing = false
            return searchNow(&model)
        case .down, .escape:
            model.search.editing = false
            return []
        case .tab, .backTab: return nil
        default: return []
        }
    }

    /// While the results have focus: `/` (or `↑` on the first row) back to the field, `enter`
    /// opens, `r` asks again for what failed, navigation keys move.
    private static func browsing(_ key: Key, _ model: inout AppModel) -> [AppEffect]? {
        let search = model.search
        switch key {
        case .character("/"):
            model.search.editing = true
            return []
        case .up where search.showsDefaultPerson ? search.defaultCursor.position == 0 : search.cursor.position == 0:
            model.search.editing = true
            return []
        case .left: return filtered(search.filter.previous, &model)
        case .right: return filtered(search.filter.next, &model)
        case .enter: return DetailsUpdate.openUnderCursor(&model)
        case .character("s"): return SaveToggle.key(&model)
        case .character("r"): return retry(&model)
        default:
            if search.showsDefaultPerson {
                guard let moved = search.defaultCursor.moved(for: key, count: search.rowCount, visible: visibleRows(model)) else { return nil }
                model.search.defaultCursor = moved
            } else {
                guard let moved = search.cursor.moved(for: key, count: search.rowCount, visible: resultRows(model)) else { return nil }
                model.search.cursor = moved
            }
            return []
        }
    }

    // MARK: - Generations

    private static func filtered(_ filter: SearchFilter, _ model: inout AppModel) -> [AppEffect] {
        model.search.filter = filter
        return changed(&model)
    }

    /// A new generation: what is under way for an older one no longer counts.
    private static func changed(_ model: inout AppModel) -> [AppEffect] {
        model.search.generation += 1
        model.search.searching = nil
        model.search.error = nil
        guard !model.search.showsDefaultPerson else { return [] }
        return [.search(.debounce(generation: model.search.generation))]
    }

    /// The newest generation's search, at once, unless it is asked for or answered already.
    private static func searchNow(_ model: inout AppModel) -> [AppEffect] {
        let search = model.search
        let generation = search.generation
        guard !search.showsDefaultPerson, search.searching != generation, search.resultsGeneration != generation, search.error == nil
        else { return [] }
        model.search.searching = generation
        return [.search(.find(text: search.query, filter: search.filter, generation: generation))]
    }

    static func message(_ message: SearchMessage, _ model: inout AppModel) -> [AppEffect] {
        switch message {
        case .due(let generation):
            guard generation == model.search.generation else { return [] }
            return searchNow(&model)
        case .found(let generation, let results, let page, let totalPages) where page > 1:
            // A further page of the answer shown: added below it, the cursor where it was.
            guard generation == model.search.generation, model.search.resultsGeneration == generation, page == model.search.resultsPages + 1
            else { return [] }
            model.search.results += results
            model.search.resultsPages = page
            model.search.totalPages = totalPages
            model.search.loadingPage = nil
            model.status.lastError = nil
        case .found(let generation, let results, let page, let totalPages):
            guard generation == model.search.generation else { return [] }
            model.search.results = results
            model.search.resultsPages = page
            model.search.totalPages = totalPages
            model.search.loadingPage = nil
            model.search.resultsGeneration = generation
            model.search.resultsText = model.search.query
            model.search.resultsFilter = model.search.filter
            model.search.searching = nil
            model.search.cursor = ListCursor()
            model.status.lastError = nil
        case .failed(let generation, let message):
            guard generation == model.search.generation else { return [] }
            model.search.searching = nil
            model.search.loadingPage = nil
            model.search.error = message
            model.status.lastError = message
        case .defaultPersonLoaded(let page):
            model.search.defaultPerson = page
            model.search.defaultPersonLoading = false
            model.search.defaultPersonError = nil
        case .defaultPersonFailed(let message):
            model.search.defaultPersonLoading = false
            model.search.defaultPersonError = message
            model.status.lastError = message
        }
        return []
    }

    // MARK: - Opening, retrying, loading

    /// `r`: the search that failed, or the default person that failed, asked for again.
    private static func retry(_ model: inout AppModel) -> [AppEffect] {
        if model.search.showsDefaultPerson {
            model.search.defaultPersonError = nil  // `filled` asks again
            return []
        }
        model.search.error = nil
        model.search.resultsGeneration = nil
        return searchNow(&model)
    }

    /// The default person, the first time the tab shows with the field empty (and after `r`).
    /// The account or its language changed: the results and the default person are read again
    /// (titles in the new language, ★ for the account's own), the text and filter kept.
    static func accountChanged(_ model: inout AppModel) -> [AppEffect] {
        model.search.results = []
        model.search.resultsGeneration = nil
        model.search.defaultPerson = nil
        model.search.defaultPersonLoading = false
        model.search.defaultPersonError = nil
        return changed(&model)
    }

    static func filled(_ model: inout AppModel) -> [AppEffect] {
        let search = model.search
        if !search.showsDefaultPerson {
            // The next page of the answer once the cursor is within a screen of its end.
            guard let generation = search.resultsGeneration, generation == search.generation, search.loadingPage == nil, search.error == nil,
                search.resultsPages < (search.totalPages ?? 0), search.cursor.position + resultRows(model) >= search.results.count
            else { return [] }
            model.search.loadingPage = search.resultsPages + 1
            return [.search(.find(text: search.resultsText, filter: search.resultsFilter, generation: generation, page: search.resultsPages + 1))]
        }
        guard search.showsDefaultPerson, search.defaultPerson == nil, !search.defaultPersonLoading, search.defaultPersonError == nil
        else { return [] }
        model.search.defaultPersonLoading = true
        return [.search(.loadDefaultPerson)]
    }
}
