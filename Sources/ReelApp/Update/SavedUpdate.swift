import Reel

/// The Saved tab's keys and answers: sort (`s` key, OMDb's scores among them when the list has
/// them; `S` direction), genres (`f`, Movies' picker; `c` none), the filter-as-you-type (`/`), `x` to remove, `u` to
/// undo, time travel (`[ ] t esc`, `TimeTravel`), the history pane (`h`), and the list read again
/// when the account changes (live).
enum SavedUpdate {
    /// Rows of the list on screen: the tab has a line under its heading (the point shown, the
    /// field typed into, or the keys, which may take two) and the header row naming the columns;
    /// with thumbnails a row takes three lines (four in pixels).
    static func visibleRows(_ model: AppModel) -> Int { model.rowsFitting(historyRows(model) - 1) }

    /// Lines of the history pane (one event a line).
    static func historyRows(_ model: AppModel) -> Int { max(1, model.visibleRows - SavedView.lineRows(model)) }

    /// What the tab needs when it shows: the list and the history, once.
    static func fill(_ model: inout AppModel) -> [AppEffect] {
        var effects: [AppEffect] = []
        if !model.saved.loaded, !model.saved.loading, model.saved.error == nil { effects += load(&model) }
        if !model.saved.historyLoaded, !model.saved.historyLoading, model.saved.historyError == nil { effects += loadHistory(&model) }
        return effects
    }

    /// The list as the request says, asked for; while one is answered, once more after it.
    static func load(_ model: inout AppModel) -> [AppEffect] {
        guard model.saved.inFlight == nil else {
            model.saved.stale = true
            return []
        }
        model.saved.inFlight = model.saved.request
        model.saved.stale = false
        return [.saved(.load(model.saved.request))]
    }

    static func loadHistory(_ model: inout AppModel) -> [AppEffect] {
        guard !model.saved.historyLoading else {
            model.saved.historyStale = true
            return []
        }
        model.saved.historyLoading = true
        model.saved.historyStale = false
        return [.saved(.loadHistory)]
    }

    // MARK: - Keys

    /// The tab's own keys; `nil` for one it leaves to the app (tabs, `q`, `?`).
    static func key(_ key: Key, _ model: inout AppModel) -> [AppEffect]? {
        if let picker = model.saved.genrePicker { return pick(key, picker, &model) }
        if let typing = model.saved.typing { return typed(key, typing, &model) }
        if model.saved.showsHistory, let effects = historyKey(key, &model) { return effects }
        let visible = visibleRows(model)
        if let moved = model.saved.cursor.navigated(by: key, count: model.saved.shown.count, visible: visible) {
            model.saved.cursor = moved
            return []
        }
        switch key {
        case .character("s"):
            let next = nextOrder(after: model.saved.request.order, withScores: model.saved.hasScores)
            model.saved.request.order = next
            model.saved.request.descending = next.descendsByDefault
            return reordered(&model)
        case .character("S"):
            model.saved.request.descending.toggle()
            return reordered(&model)
        case .character("f"): return openGenres(&model)
        case .character("c"): return clear(&model)
        case .character("/"): model.saved.typing = .filter
        case .character("t"): model.saved.typing = .point(TextField(limit: 40))
        case .character("x"): return remove(&model)
        case .character("u"): return undo(&model)
        case .character("["): return TimeTravel.step(-1, &model)
        case .character("]"): return TimeTravel.step(+1, &model)
        case .character("h"):
            model.saved.showsHistory = true
            return model.saved.historyLoaded ? [] : loadHistory(&model)
        case .character("r"):
            model.saved.error = nil
            model.saved.historyError = nil
            return load(&model) + loadHistory(&model)
        case .escape:
            if model.saved.request.asOf != nil { return TimeTravel.travel(to: nil, &model) }
            if !model.saved.filter.text.isEmpty {
                model.saved.filter = TextField(limit: model.saved.filter.limit)
                model.saved.refilter(visible: visible)
            }
        default:
            return nil
        }
        return []
    }

    /// Keys while a field is open: the filter narrows the list with each one; enter keeps it
    /// (or travels to the point typed), esc drops it. Arrows still move the cursor.
    private static func typed(_ key: Key, _ typing: SavedList.Typing, _ model: inout AppModel) -> [AppEffect]? {
        let visible = visibleRows(model)
        switch typing {
        case .filter:
            if key == .enter {
                model.saved.typing = nil
            } else if key == .escape {
                model.saved.typing = nil
                model.saved.filter.text = ""
                model.saved.refilter(visible: visible)
            } else if let field = model.saved.filter.typed(key) {
                model.saved.filter = field
                model.saved.cursor = ListCursor()
                model.saved.refilter(visible: visible)
            } else if let moved = model.saved.cursor.navigated(by: key, count: model.saved.shown.count, visible: visible, letters: false) {
                model.saved.cursor = moved
            } else if key == .tab || key == .backTab {
                return nil
            }
        case .point(let field):
            if key == .enter {
                model.saved.typing = nil
                return TimeTravel.go(field.text, &model)
            } else if key == .escape {
                model.saved.typing = nil
            } else if let next = field.typed(key) {
                model.saved.typing = .point(next)
            } else if key == .tab || key == .backTab {
                return nil
            }
        }
        return []
    }

    /// Keys of the history pane: its cursor, enter to see the list at that version (the pane
    /// closes), `h` or esc to close; the list's own keys wait for it to show (`x` removes only
    /// what is seen); other keys (`[ ]`, `t`, `u`) are the tab's.
    private static func historyKey(_ key: Key, _ model: inout AppModel) -> [AppEffect]? {
        let history = model.saved.history
        if let moved = model.saved.historyCursor.navigated(by: key, count: history.count, visible: historyRows(model)) {
            model.saved.historyCursor = moved
            return []
        }
        switch key {
        case .character("h"), .escape:
            model.saved.showsHistory = false
            return []
        case .character("x"), .character("/"), .character("s"), .character("S"), .character("f"), .character("c"):
            return []
        case .enter:
            guard history.indices.contains(model.saved.historyCursor.position) else { return [] }
            model.saved.showsHistory = false
            return TimeTravel.travel(to: history[model.saved.historyCursor.position].version, &model)
        default:
            return nil
        }
    }

    /// The sort key after `order`: added, title, release, rating, then OMDb's (IMDb, Metascore,
    /// Tomatometer) when the list has scores to sort by, and round again.
    static func nextOrder(after order: SavedListQuery.Order, withScores: Bool) -> SavedListQuery.Order {
        let orders = SavedListQuery.Order.allCases.filter { withScores || !$0.isOMDb || $0 == order }
        let index = orders.firstIndex(of: order) ?? 0
        return orders[(index + 1) % orders.count]
    }

    private static func reordered(_ model: inout AppModel) -> [AppEffect] {
        model.saved.cursor = ListCursor()
        return load(&model)
    }

    /// The genre picker over the list (Movies' own): the genres the list has now, those chosen
    /// marked.
    private static func openGenres(_ model: inout AppModel) -> [AppEffect] {
        let request = model.saved.request
        // Genres chosen before stay offered, so they can be taken off.
        let names = model.saved.genres + request.genres.filter { !model.saved.genres.contains($0) }
        guard !names.isEmpty else {
            model.status.note = model.saved.loaded ? "no genres to filter by: nothing saved has one" : "no genres to filter by yet: the list is loading"
            return []
        }
        model.saved.genrePicker = GenrePicker(names: names.sorted(), chosen: request.genres, anyGenre: request.anyGenre)
        return []
    }

    /// The picker's keys (`GenrePicking`); applied, the list is asked for again if it changed.
    private static func pick(_ key: Key, _ picker: GenrePicker, _ model: inout AppModel) -> [AppEffect] {
        switch GenrePicking.key(key, picker) {
        case .open(let picker):
            model.saved.genrePicker = picker
        case .cancelled:
            model.saved.genrePicker = nil
        case .applied(let genres, let anyGenre):
            model.saved.genrePicker = nil
            guard genres != model.saved.request.genres || anyGenre != model.saved.request.anyGenre else { return [] }
            model.saved.request.genres = genres
            model.saved.request.anyGenre = anyGenre
            return reordered(&model)
        }
        return []
    }

    /// `c`: no genres and no filter (Movies' `c` clears its filters too).
    private static func clear(_ model: inout AppModel) -> [AppEffect] {
        let hadGenres = !model.saved.request.genres.isEmpty
        guard hadGenres || !model.saved.filter.text.isEmpty else {
            model.status.note = "no filters to clear"
            return []
        }
        model.saved.filter = TextField(limit: model.saved.filter.limit)
        guard hadGenres else {
            model.saved.refilter(visible: visibleRows(model))
            return []
        }
        model.saved.request.genres = []
        model.saved.request.anyGenre = false
        return reordered(&model)
    }

    private static func remove(_ model: inout AppModel) -> [AppEffect] {
        guard model.saved.request.asOf == nil else {
            model.status.lastError = "x removes from the list as it is now; esc comes back to now"
            return []
        }
        guard let row = model.saved.current else { return [] }
        return [.saved(.change(FavoriteChange(.remove, row.key, title: row.title), undoing: false))]
    }

    /// The last change made since the app opened, taken back by its inverse (a new event).
    static func undo(_ model: inout AppModel) -> [AppEffect] {
        guard let last = model.saved.undo.popLast() else {
            model.status.note = "nothing left to undo since the app opened"
            return []
        }
        return [.saved(.change(last.inverse, undoing: true))]
    }

    // MARK: - Answers

    static func message(_ message: SavedMessage, _ model: inout AppModel) -> [AppEffect] {
        let account = model.status.account
        switch message {
        case .loaded(let request, let rows, let total, let language, let from):
            guard from == account, model.saved.inFlight == request else { return [] }
            model.saved.inFlight = nil
            model.saved.progress = nil
            if request == model.saved.request {
                model.saved.rows = rows
                model.saved.total = total
                model.saved.loaded = true
                model.saved.error = nil
                if request.genres.isEmpty, request.asOf == nil {
                    model.saved.genres = Array(Set(rows.flatMap(\.genres))).sorted()
                    // The whole list as it is now: ★ everywhere follows it.
                    if rows.count == total { model.markAll(saved: Set(rows.map(\.key))) }
                }
                model.saved.refilter(visible: visibleRows(model))
                model.status.language = language
                // (Only while the saved list is shown: see `AppUpdate`'s pages.)
                if model.tab == .saved { model.status.lastError = nil }
            }
            return model.saved.stale || request != model.saved.request ? load(&model) : []
        case .failed(let request, let why, let from):
            guard from == account, model.saved.inFlight == request else { return [] }
            model.saved.inFlight = nil
            model.saved.progress = nil
            if request == model.saved.request {
                model.saved.error = why
                model.status.lastError = why
            }
            return request != model.saved.request ? load(&model) : []
        case .progress(let request, let progress, let from):
            if from == account, model.saved.inFlight == request { model.saved.progress = progress }
            return []
        case .historyLoaded(let lines, let from):
            guard from == account else { return [] }
            model.saved.historyLoading = false
            model.saved.history = lines
            model.saved.historyLoaded = true
            model.saved.historyError = nil
            model.saved.historyCursor = model.saved.historyCursor.scrolled(count: lines.count, visible: historyRows(model))
            return model.saved.historyStale ? loadHistory(&model) : []
        case .historyFailed(let why, let from):
            guard from == account else { return [] }
            model.saved.historyLoading = false
            model.saved.historyError = why
            model.status.lastError = why
            return []
        case .changed(let change, let undoing, let said, let from):
            model.saved.pending.remove(change.key)
            guard from == account else { return [] }
            model.mark(change.key, saved: change.action == .add)
            if !undoing { model.saved.undo.append(change) }
            model.status.lastError = nil
            model.status.note = undoing ? "undo made a new event: " + said : said + " · u undoes"
            return changed(&model)
        case .changeFailed(let change, let undoing, let why):
            // ★ back as it was (a save from a list flipped it at once).
            if model.saved.pending.remove(change.key) != nil { model.mark(change.key, saved: change.action == .remove) }
            if undoing { model.saved.undo.append(change.inverse) }
            model.status.lastError = why
            return []
        case .accountChanged(let from):
            guard from == account else { return [] }
            // Settings (name, language, whether the account is still there) are read again too.
            if !model.settings.loading { (model.settings.info, model.settings.error) = (nil, nil) }
            return changed(&model)
        }
    }

    /// The account changed: what the tab has shown is read again (a list in the past stays).
    static func changed(_ model: inout AppModel) -> [AppEffect] {
        var effects: [AppEffect] = []
        if model.saved.historyLoaded || model.saved.historyLoading { effects += loadHistory(&model) }
        // Read even when Saved was never shown: ★ on every tab follows the list (`markAll`).
        if model.saved.request.asOf == nil { effects += load(&model) }
        return effects
    }
}
