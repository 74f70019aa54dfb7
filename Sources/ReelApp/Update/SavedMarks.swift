import Reel

extension AppModel {
    /// `key` marked saved or not wherever the app shows it (lists, search results, filmographies,
    /// details and their similar titles), once the application core confirmed the change; the
    /// saved list loads again the next time it shows.
    mutating func mark(_ key: MediaKey, saved: Bool) {
        remark { $0 == key ? saved : nil }
        if !self.saved.loading { self.saved.loaded = false }
    }

    /// Every title shown marked by the whole saved list as it is now (`saved`): what `x`, `u`
    /// and other processes changed shows as ★ on every tab, not only on Saved.
    mutating func markAll(saved keys: Set<MediaKey>) {
        remark { keys.contains($0) }
    }

    /// Each title shown marked as `isSaved` says (`nil`: left as it is).
    private mutating func remark(_ isSaved: (MediaKey) -> Bool?) {
        func marked(_ rows: inout [TitleRow]) {
            for index in rows.indices { if let saved = isSaved(rows[index].key) { rows[index].saved = saved } }
        }
        func marked(_ page: inout PersonPage) {
            for index in page.credits.indices {
                if let saved = isSaved(page.credits[index].row.key) { page.credits[index].row.saved = saved }
            }
        }
        marked(&movies.loaded)
        marked(&series.loaded)
        for index in search.results.indices {
            if case .title(var row) = search.results[index], let saved = isSaved(row.key) {
                row.saved = saved
                search.results[index] = .title(row)
            }
        }
        if var page = search.defaultPerson {
            marked(&page)
            search.defaultPerson = page
        }
        for index in screens.indices {
            switch screens[index] {
            case .details(var screen):
                if var details = screen.details {
                    if let saved = isSaved(details.key) { details.saved = saved }
                    marked(&details.similar)
                    screen.details = details
                }
                screens[index] = .details(screen)
            case .person(var screen):
                if var page = screen.page {
                    marked(&page)
                    screen.page = page
                }
                screens[index] = .person(screen)
            }
        }
    }
}
