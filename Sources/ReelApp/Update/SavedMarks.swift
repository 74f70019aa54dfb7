import Reel

extension AppModel {
    /// `key` marked saved or not wherever the app shows it (lists, search results, filmographies,
    /// details and their similar titles), once the application core confirmed the change; the
    /// saved list loads again the next time it shows.
    mutating func mark(_ key: MediaKey, saved: Bool) {
        func marked(_ rows: inout [TitleRow]) {
            for index in rows.indices where rows[index].key == key { rows[index].saved = saved }
        }
        func marked(_ page: inout PersonPage) {
            for index in page.credits.indices where page.credits[index].row.key == key { page.credits[index].row.saved = saved }
        }
        marked(&movies.rows)
        marked(&series.rows)
        for index in search.results.indices {
            if case .title(var row) = search.results[index], row.key == key {
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
                    if details.key == key { details.saved = saved }
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
        if !self.saved.loading { self.saved.loaded = false }
    }
}
