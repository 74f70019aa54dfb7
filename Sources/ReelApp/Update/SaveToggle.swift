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

    /// The title `s` saves where the person is: the one under the cursor; on details, the title
    /// shown unless the cursor is on one of its similar titles.
    static func titleUnderCursor(_ model: AppModel) -> TitleRow? {
        if case .title(let row)? = model.underCursor { return row }
        guard case .details(let screen)? = model.screens.last, let details = screen.details else { return nil }
        return TitleRow(key: details.key, title: details.title, year: details.year, saved: details.saved)
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
