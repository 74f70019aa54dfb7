import Reel

/// What the cursor is on where the person is: a title (a row of any list, a similar title on
/// details) or a person (a search result, one of a title's cast). `enter` opens it (`DetailsUpdate`)
/// and `s` saves a title (`SaveToggle`): both ask here.
enum CursorTarget: Equatable {
    case title(TitleRow)
    case person(id: Int, name: String)
}

extension AppModel {
    /// What the cursor is on, on the screen shown (the top one over the tabs, else the tab's list);
    /// `nil` on a line that leads nowhere, an empty list, or Settings.
    var underCursor: CursorTarget? {
        switch screens.last {
        case .details(let screen)?:
            guard let details = screen.details else { return nil }
            let lines = DetailsLayout.lines(details, width: PictureLayout.detailsWidth(screen, self))
            guard lines.indices.contains(screen.cursor.position) else { return nil }
            switch lines[screen.cursor.position].target {
            case .person(let id, let name)?: return .person(id: id, name: name)
            case .title(let key, let title)?: return .title(details.similar.first { $0.key == key } ?? TitleRow(key: key, title: title))
            case nil: return nil
            }
        case .person(let screen)?:
            return Self.title(screen.page?.credits.map(\.row), screen.cursor)
        case nil:
            break
        }
        switch tab {
        case .movies: return Self.title(movies.rows, movies.cursor)
        case .series: return Self.title(series.rows, series.cursor)
        case .saved: return saved.showsHistory ? nil : Self.title(saved.shown, saved.cursor)
        case .search:
            if search.showsDefaultPerson { return Self.title(search.defaultPerson?.credits.map(\.row), search.defaultCursor) }
            guard search.results.indices.contains(search.cursor.position) else { return nil }
            switch search.results[search.cursor.position] {
            case .title(let row): return .title(row)
            case .person(let person): return .person(id: person.id, name: person.name)
            }
        case .settings:
            return nil
        }
    }

    private static func title(_ rows: [TitleRow]?, _ cursor: ListCursor) -> CursorTarget? {
        guard let rows, rows.indices.contains(cursor.position) else { return nil }
        return .title(rows[cursor.position])
    }
}
