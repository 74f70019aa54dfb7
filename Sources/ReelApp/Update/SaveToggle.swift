import Reel

/// `s` or space on any list of titles (Movies, Series, Search, a person's filmography, a title's
/// similar titles) and on a title's details: the title saved, or removed when it is saved. ★
/// flips at once; the application core appends the event (`SavedEffect.change`, the one way the
/// app changes the saved list), its answer says on the status line what was appended, a failure
/// puts ★ back and says why, and `u` takes it back from any tab.
enum SaveToggle {
    /// Saves or removes `row`'s title; nothing while a change of it is under way.
    static func toggle(_ row: TitleRow, _ model: inout AppModel) -> [AppEffect] {
        guard !model.saved.pending.contains(row.key) else {
            model.status.note = "\(row.title): the last change is still being written"
            return []
        }
        let change = FavoriteChange(row.saved ? .remove : .add, row.key, title: row.title)
        model.saved.pending.insert(row.key)
        model.mark(row.key, saved: change.action == .add)
        model.status.lastError = nil
        return [.saved(.change(change, undoing: false))]
    }

    /// The title under the cursor where the person is, if that place lists titles (or shows one).
    static func titleUnderCursor(_ model: AppModel) -> TitleRow? {
        if let top = model.screens.last {
            switch top {
            case .details(let screen):
                guard let details = screen.details else { return nil }
                let lines = DetailsLayout.lines(details, width: PictureLayout.detailsWidth(screen, model))
                // On a similar title: that one; elsewhere on the screen: the title it shows.
                if lines.indices.contains(screen.cursor.position), case .title(let key, _)? = lines[screen.cursor.position].target,
                    let row = details.similar.first(where: { $0.key == key })
                {
                    return row
                }
                return TitleRow(key: details.key, title: details.title, year: details.year, saved: details.saved)
            case .person(let screen):
                guard let credits = screen.page?.credits, credits.indices.contains(screen.cursor.position) else { return nil }
                return credits[screen.cursor.position].row
            }
        }
        switch model.tab {
        case .movies, .series:
            let list = model[list: model.tab.mediaType!]
            return list.rows.indices.contains(list.cursor.position) ? list.rows[list.cursor.position] : nil
        case .search:
            let search = model.search
            if search.showsDefaultPerson {
                guard let credits = search.defaultPerson?.credits, credits.indices.contains(search.defaultCursor.position) else { return nil }
                return credits[search.defaultCursor.position].row
            }
            guard search.results.indices.contains(search.cursor.position), case .title(let row) = search.results[search.cursor.position] else {
                return nil
            }
            return row
        case .saved, .settings:
            return nil
        }
    }

    /// `s` or space where the person is: the title under the cursor, or a word on why nothing.
    static func key(_ model: inout AppModel) -> [AppEffect] {
        guard let row = titleUnderCursor(model) else {
            if case .details(let screen)? = model.screens.last, screen.details == nil { return [] }  // still loading
            model.status.note = "s saves the title under the cursor: move onto a title first"
            return []
        }
        return toggle(row, &model)
    }
}
