import Reel

/// The screens over the tabs: opening a title's details or a person (`enter` on any list), the
/// back stack (`esc` or `q` goes back one), moving on a screen, opening what a line links to (one
/// of the cast, a similar title, a title of a filmography), and saving or removing (`s` or
/// space, `SaveToggle`).
enum DetailsUpdate {
    /// Pushes `key`'s details and asks for them.
    static func open(_ key: MediaKey, title: String, _ model: inout AppModel) -> [AppEffect] {
        model.screens.append(.details(DetailsScreen(key: key, title: title)))
        return [.details(.loadTitle(key))]
    }

    /// Pushes a person and asks for their filmography.
    static func openPerson(id: Int, name: String, _ model: inout AppModel) -> [AppEffect] {
        model.screens.append(.person(PersonScreen(id: id, name: name)))
        return [.details(.loadPerson(id: id))]
    }

    /// `enter` on any list or screen: the title or person under the cursor (`underCursor`).
    static func openUnderCursor(_ model: inout AppModel) -> [AppEffect] {
        switch model.underCursor {
        case .title(let row)?: open(row.key, title: row.title, &model)
        case .person(let id, let name)?: openPerson(id: id, name: name, &model)
        case nil: []
        }
    }

    /// A key while a screen is open; `nil` leaves it to the app's keys (tabs, help).
    static func key(_ key: Key, _ model: inout AppModel) -> [AppEffect]? {
        guard let top = model.screens.last else { return nil }
        switch key {
        case .escape, .character("q"):
            model.screens.removeLast()
            return []
        case .enter:
            if let url = linkUnderCursor(model) { return [.details(.openLink(url))] }
            return openUnderCursor(&model)
        case .character("s"):
            return SaveToggle.key(&model)
        case .character("r"):
            return retry(&model)
        default:
            switch top {
            case .details(var screen):
                if let step = Self.step(key), let details = screen.details {
                    // Down and up go from one line that acts to the next (one of the cast, a
                    // similar title, a trailer); up from the first goes back to the top.
                    let lines = DetailsLayout.lines(details, width: PictureLayout.detailsWidth(screen, model))
                    let acting = lines.indices.filter { lines[$0].target != nil || lines[$0].link != nil }
                    let position = screen.cursor.position
                    let next = step > 0 ? acting.first { $0 > position } : acting.last { $0 < position } ?? (position > 0 ? 0 : nil)
                    guard let next else { return [] }
                    screen.cursor = ListCursor(position: next, top: screen.cursor.top).scrolled(count: lines.count, visible: model.visibleRows)
                    model.screens[model.screens.count - 1] = .details(screen)
                    return []
                }
                guard let moved = screen.cursor.moved(for: key, count: lineCount(top, model), visible: model.visibleRows) else { return nil }
                screen.cursor = moved
                model.screens[model.screens.count - 1] = .details(screen)
            case .person(var screen):
                guard let moved = screen.cursor.moved(for: key, count: lineCount(top, model), visible: model.visibleRows) else { return nil }
                screen.cursor = moved
                model.screens[model.screens.count - 1] = .person(screen)
            }
            return []
        }
    }

    /// +1 for a key that moves down a line, -1 for one that moves up.
    private static func step(_ key: Key) -> Int? {
        switch key {
        case .character("j"), .down: 1
        case .character("k"), .up: -1
        default: nil
        }
    }

    /// The URL of the details' line under the cursor, when it links to one (a trailer, the
    /// poster, the backdrop).
    static func linkUnderCursor(_ model: AppModel) -> String? {
        guard case .details(let screen)? = model.screens.last, let details = screen.details else { return nil }
        let lines = DetailsLayout.lines(details, width: PictureLayout.detailsWidth(screen, model))
        guard lines.indices.contains(screen.cursor.position) else { return nil }
        return lines[screen.cursor.position].link
    }

    /// The lines a screen's cursor moves over: the details' lines at the width they have beside
    /// the poster, a filmography's titles.
    static func lineCount(_ screen: Screen, _ model: AppModel) -> Int {
        switch screen {
        case .details(let screen): screen.details.map { DetailsLayout.lines($0, width: PictureLayout.detailsWidth(screen, model)).count } ?? 0
        case .person(let screen): screen.page?.credits.count ?? 0
        }
    }

    /// `r`: the screen's details or filmography asked for again after a failure.
    private static func retry(_ model: inout AppModel) -> [AppEffect] {
        switch model.screens.last {
        case .details(var screen)? where screen.error != nil:
            (screen.error, screen.loading) = (nil, true)
            model.screens[model.screens.count - 1] = .details(screen)
            return [.details(.loadTitle(screen.key))]
        case .person(var screen)? where screen.error != nil:
            (screen.error, screen.loading) = (nil, true)
            model.screens[model.screens.count - 1] = .person(screen)
            return [.details(.loadPerson(id: screen.id))]
        default:
            return []
        }
    }

    static func message(_ message: DetailsMessage, _ model: inout AppModel) -> [AppEffect] {
        switch message {
        case .titleLoaded(let details):
            updateDetails(details.key, &model) { screen in
                (screen.details, screen.loading, screen.error) = (details, false, nil)
            }
            model.status.lastError = nil
        case .titleFailed(let key, let message):
            updateDetails(key, &model) { screen in (screen.loading, screen.error) = (false, message) }
            model.status.lastError = message
        case .personLoaded(let page):
            updatePeople(page.id, &model) { screen in (screen.page, screen.loading, screen.error) = (page, false, nil) }
            model.status.lastError = nil
        case .personFailed(let id, let message):
            updatePeople(id, &model) { screen in (screen.loading, screen.error) = (false, message) }
            model.status.lastError = message
        case .linkOpened(let url, let browser):
            model.status.note = "opened in \(browser): \(url)"
        case .linkNotOpened(let url, let why):
            // The URL first and whole, so a short status line keeps it: the person copies it
            // (where the terminal links it, a click opens it).
            model.status.note = "the link: \(url) (\(why))"
        }
        return []
    }

    /// Every details screen of `key` (that waits for its details, unless `loadingOnly` is off).
    private static func updateDetails(_ key: MediaKey, _ model: inout AppModel, _ change: (inout DetailsScreen) -> Void) {
        for index in model.screens.indices {
            guard case .details(var screen) = model.screens[index], screen.key == key, screen.loading else { continue }
            change(&screen)
            model.screens[index] = .details(screen)
        }
    }

    private static func updatePeople(_ id: Int, _ model: inout AppModel, _ change: (inout PersonScreen) -> Void) {
        for index in model.screens.indices {
            guard case .person(var screen) = model.screens[index], screen.id == id, screen.loading else { continue }
            change(&screen)
            model.screens[index] = .person(screen)
        }
    }
}
