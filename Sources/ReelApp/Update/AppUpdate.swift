import Reel

/// The app's logic as a pure function: a model and a message in, the next model and the effects
/// to run out. Nothing here does I/O, so every key's meaning is tested without a terminal.
///
/// ```swift
/// var (model, effects) = AppUpdate.start(AppModel(width: 100, height: 30, account: "ann"))
/// (model, effects) = AppUpdate.update(model, .key(.character("2")))  // Series, page 1 asked for
/// ```
public enum AppUpdate {
    /// The first model and effects: the status (language, catalog), the account followed for
    /// changes (live), and the first tab's first page.
    public static func start(_ model: AppModel) -> (AppModel, [AppEffect]) {
        var next = model
        var effects = filled(&next)
        effects += PictureUpdate.fill(&next) + PreviewUpdate.fill(&next)
        return (next, [.loadStatus, .saved(.watch)] + effects)
    }

    public static func update(_ model: AppModel, _ message: AppMessage) -> (AppModel, [AppEffect]) {
        update(model, [message])
    }

    /// `messages` in order, as many calls of `update` would take them, with the model copied once:
    /// each message then changes it in place. A paste of thousands of keys comes as one batch, and
    /// a copy of the model a key (the search text with it) made a paste take time quadratic in its
    /// length. A search's wait that a later key of the batch made moot (an older generation's,
    /// whose `.due` would be ignored) is not asked for.
    public static func update(_ model: AppModel, _ messages: [AppMessage]) -> (AppModel, [AppEffect]) {
        var next = model
        var effects: [AppEffect] = []
        for message in messages { effects += apply(message, to: &next) }
        effects.removeAll { effect in
            switch effect {
            case .search(.debounce(let generation)): generation != next.search.generation
            case .preview(.settle(let generation)), .preview(.prepare(let generation)): generation != next.preview.generation
            default: false
            }
        }
        return (next, effects)
    }

    /// One message applied to `next`: its effects, then what the tab now needs loaded.
    private static func apply(_ message: AppMessage, to next: inout AppModel) -> [AppEffect] {
        let tab = next.tab
        var effects: [AppEffect] = []
        switch message {
        case .key(let typed):
            let (screens, said) = (next.screens.count, (next.status.note, next.status.lastError))
            if let key = next.keys.translate(typed, context: next.keyContext, typing: next.isTyping) { effects = handle(key, &next) }
            // What the status line said about the screen that was is stale on another one (unless
            // this key said it).
            if next.tab != tab || next.screens.count != screens {
                if next.status.note == said.0 { next.status.note = nil }
                if next.status.lastError == said.1 { next.status.lastError = nil }
            }
            if next.tab != tab {
                // A tab switch closes the screens opened over the tabs; the Search tab opens typing.
                next.screens = []
                if next.tab == .search { next.search.editing = true }
            }
        case .search(let message):
            effects = SearchUpdate.message(message, &next)
        case .details(let message):
            effects = DetailsUpdate.message(message, &next)
            // Details opened are the preview's too, when the list is back.
            if case .titleLoaded(let details) = message { next.preview.answer(details.key, .loaded(details)) }
        case .preview(let message):
            effects = PreviewUpdate.message(message, &next)
        case .resized(let width, let height):
            next.width = max(1, width)
            next.height = max(1, height)
            PictureUpdate.rescrolled(&next)
        case .pageLoaded(let mediaType, let page):
            guard next[list: mediaType].loadingPage == page.page, next[list: mediaType].query == page.query else { break }
            next[list: mediaType] = loaded(page, into: next[list: mediaType])
            next.status.language = page.language
            // A page loaded in the background (another tab's) leaves the error shown as it is:
            // it may be the settings' or a deletion's, which the person has not read yet.
            if next.tab == (mediaType == .movie ? .movies : .series) { next.status.lastError = nil }
        case .pageFailed(let mediaType, let page, let message, let query):
            guard next[list: mediaType].loadingPage == page, next[list: mediaType].query == query else { break }
            next[list: mediaType].loadingPage = nil
            next[list: mediaType].error = message
            next.status.lastError = message
        case .saved(let message):
            effects = SavedUpdate.message(message, &next)
        case .settings(let message):
            effects = SettingsUpdate.message(message, &next)
        case .statusLoaded(let language, let catalog):
            next.status.language = language
            next.status.catalog = catalog
        case .pictureLoaded(let key, let picture):
            PictureUpdate.loaded(key, picture, &next)
        case .pictureFailed(let key, let reason):
            PictureUpdate.failed(key, reason: reason, &next)
        case .pictureNotCached(let key):
            next.pictures.forget(key)
        case .notice(let text):
            next.status.note = text
        case .interrupted:
            next.quitting = true
        }
        effects += filled(&next)
        if !next.quitting { effects += PictureUpdate.fill(&next) + PreviewUpdate.fill(&next) }
        return effects
    }

    // MARK: - Keys

    private static func handle(_ key: Key, _ model: inout AppModel) -> [AppEffect] {
        if key == .control("c") {
            model.quitting = true
            return []
        }
        if model.isTooSmall {
            // Nothing shows but the size it needs: no key acts unseen, but quitting.
            if key == .character("q") { model.quitting = true }
            return []
        }
        if model.showsHelp {
            model.showsHelp = false  // any key closes the help
            return []
        }
        if !model.screens.isEmpty, let effects = DetailsUpdate.key(key, &model) { return effects }
        if model.screens.isEmpty, model.tab == .search, let effects = SearchUpdate.key(key, &model) { return effects }
        // The Saved and Settings tabs' own keys first: their fields take what is typed.
        if model.screens.isEmpty, model.tab == .saved, let effects = SavedUpdate.key(key, &model) { return effects }
        if model.screens.isEmpty, model.tab == .settings, let effects = SettingsUpdate.key(key, &model) { return effects }
        if model.keyContext == .browse, !model.isTyping, key == .character("s") { return SaveToggle.key(&model) }
        if model.screens.isEmpty, let mediaType = model.tab.mediaType {
            let outcome = BrowseUpdate.handle(key, &model[list: mediaType])
            if let note = outcome.note { model.status.note = note }
            if outcome.handled { return [] }
        }
        switch key {
        case .character("q"): model.quitting = true
        case .character("?"): model.showsHelp = true
        case .character(let c) where ("1"..."5").contains(c): model.tab = Tab(rawValue: Int(String(c))! - 1)!
        case .tab: model.tab = model.tab.next
        case .backTab: model.tab = model.tab.previous
        case .character("r"): return reload(&model)
        case .character("p"): PictureUpdate.toggleThumbnails(&model)
        case .character("u"): return SavedUpdate.undo(&model)
        case .enter: return DetailsUpdate.openUnderCursor(&model)
        default:
            if ListCursor().moved(for: key, count: 1, visible: 1) != nil {
                move(key, &model)
            } else if let actions = model.keys.elsewhere(key, context: model.keyContext) {
                model.status.note = KeyName.name(key) + " does nothing here (" + Self.whereItWorks(actions) + ")"
            }
        }
        return []
    }

    /// `Search: search-field; Saved: saved-filter`: each place a key works, and what it does there.
    private static func whereItWorks(_ actions: [KeyAction]) -> String {
        func order(_ place: KeyAction.Context) -> Int { KeyAction.Context.allCases.firstIndex(of: place) ?? 0 }
        return actions.flatMap { action in
            (action.contexts.map { Array($0) } ?? []).map { (place: $0, action: action) }
        }.sorted { (order($0.place), $0.action.rawValue) < (order($1.place), $1.action.rawValue) }
            .map { "\($0.place.place): \($0.action.rawValue)" }.joined(separator: "; ")
    }

    /// The cursor moved by a navigation key on the current tab's list; other keys do nothing.
    private static func move(_ key: Key, _ model: inout AppModel) {
        let visible = model.visibleListRows
        func moved(_ cursor: ListCursor, count: Int) -> ListCursor {
            cursor.moved(for: key, count: count, visible: visible) ?? cursor
        }
        switch model.tab {
        case .movies: model.movies.cursor = moved(model.movies.cursor, count: model.movies.rows.count)
        case .series: model.series.cursor = moved(model.series.cursor, count: model.series.rows.count)
        case .search, .saved, .settings: break  // the Saved tab moves its own (SavedUpdate)
        }
    }

    /// `r`: asks again for what failed (a browsed list's next page); Saved and Settings read
    /// theirs again (`SavedUpdate`, `SettingsUpdate`).
    private static func reload(_ model: inout AppModel) -> [AppEffect] {
        switch model.tab {
        case .movies: model.movies.error = nil
        case .series: model.series.error = nil
        case .search, .saved, .settings: break
        }
        // And the preview's details, when they failed.
        return PreviewUpdate.retry(&model)
    }

    // MARK: - Paging

    /// A page added to the list that waits for it (a late answer to another page is dropped).
    private static func loaded(_ page: TitlePage, into list: BrowseList) -> BrowseList {
        var list = list
        list.loaded += page.rows
        list.pagesLoaded = page.page
        list.totalPages = min(page.totalPages, Paging.lastPage)
        list.totalResults = page.totalResults
        list.loadingPage = nil
        list.error = nil
        return list
    }

    /// What the current tab needs loaded: a browsed list's next page when the cursor is within a
    /// screen of its end (its first page when it has none), the saved list and its history once,
    /// the settings once.
    private static func filled(_ model: inout AppModel) -> [AppEffect] {
        guard !model.quitting else { return [] }
        switch model.tab {
        case .movies, .series:
            let mediaType: MediaType = model.tab == .movies ? .movie : .tv
            guard model[list: mediaType].genrePicker == nil && model[list: mediaType].yearField == nil else { return [] }
            let list = model[list: mediaType]
            let remaining = list.rows.count - 1 - list.cursor.position
            guard let page = list.nextPage, remaining < model.visibleListRows else { return [] }
            model[list: mediaType].loadingPage = page
            return [.loadPage(mediaType, page: page, query: list.query)]
        case .saved: return SavedUpdate.fill(&model)
        case .settings: return SettingsUpdate.fill(&model)
        case .search: return SearchUpdate.filled(&model)
        }
    }
}
