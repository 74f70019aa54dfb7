import Presentation

/// The help (`?`): the keys that work where it was asked for — everywhere, then on this tab or
/// screen — in a box over the screen, as `keys.toml` left them; any key closes it.
enum HelpOverlay {
    /// The help's lines where `model` is: the keys bound to each group of actions, the keys of
    /// the tab or screen shown, and what they do.
    static func entries(_ model: AppModel) -> [(String, String)] {
        let keys = model.keys
        func bound(_ groups: [([KeyAction], String)]) -> [(String, String)] {
            groups.map { actions, meaning in (actions.map { keys.names($0) }.filter { !$0.isEmpty }.joined(separator: "  "), meaning) }
        }
        let everywhere = bound([
            ([.movies, .series, .search, .saved, .settings], "Movies, Series, Search, Saved, Settings"),
            ([.nextTab, .previousTab], "next tab, previous tab"),
            ([.down, .up], "down, up"),
            ([.first, .last], "first row, last row"),
            ([.halfDown, .halfUp], "half a screen down, up"),
            ([.pageDown, .pageUp], "a screen down, up"),
            ([.reload], "ask again for what failed; read the list again"),
            ([.thumbnails], "thumbnails (small posters) on list rows, on or off"),
            ([.undo], "undo the last save or remove (a new event)"),
        ]) + [("enter", "open: details, a person, a cast member, a similar title")]
        let here: [(String, String)]
        if !model.screens.isEmpty {
            here = bound([([.toggleSaved], "save or remove the title (or the similar title under the cursor)")])
                + [("esc  q", "back from details or a person")]
        } else {
            switch model.tab {
            case .movies, .series:
                here = bound([
                    ([.list], "discover, popular, top rated"),
                    ([.sort, .reverse], "next sort key; other direction"),
                    ([.genres, .year, .clear], "genres; year; no filters"),
                    ([.filter], "filter the titles loaded as you type (esc drops)"),
                    ([.toggleSaved], "save or remove the title under the cursor"),
                ])
            case .search:
                here = bound([([.searchField], "type in the field (every key is text)")]) + [("enter ↓ esc", "leave the field for the results")]
                    + bound([([.searchPreviousType, .searchNextType], "all, movies, series, people")])
                    + bound([([.toggleSaved], "save or remove the title under the cursor")])
            case .saved:
                here = bound([
                    ([.savedSort, .savedReverse], "sort key: added, title, release, rating,"),
                    ([], "IMDb, Metascore, Tomatometer (OMDb's); reverse"),
                    ([.savedGenres], "genres (space chooses, a all or any)"), ([.savedClear], "no genres, no filter"),
                    ([.savedFilter], "filter as you type (enter keeps, esc drops)"),
                    ([.remove], "remove the title under the cursor"),
                    ([.versionBack, .versionForward, .goTo], "a version back, forward; go to v12 or a date"),
                    ([.history], "history (enter: that version); esc: back to now"),
                ])
            case .settings:
                here = [("enter", "change: name, photo, language, account, delete")]
            }
        }
        return everywhere + here + bound([([.help], "this help (any key closes it)"), ([.quit], "quit (on a tab)")]) + [("ctrl-c", "quit, always")]
    }

    /// The box over the screen: as wide as the screen allows (72 to 96 columns), each meaning
    /// wrapped at a word (never cut), with a blank line inside the border when the screen has
    /// room for it.
    static func draw(_ model: AppModel, into screen: inout ScreenBuffer) {
        let width = min(96, max(72, screen.width - 4))
        let room = width - 22
        let lines: [(key: String, meaning: String)] = entries(model).flatMap { key, meaning in
            DisplayWidth.wrap(meaning, width: room).enumerated().map { index, part in (index == 0 ? key : "", part) }
        }
        let padding = lines.count + 4 <= screen.height ? 1 : 0
        let height = lines.count + 2 + 2 * padding
        let left = max(0, (screen.width - width) / 2)
        let top = max(0, (screen.height - height) / 2)
        let border = CellStyle(.bold)
        for y in top..<top + height {
            screen.write(String(repeating: " ", count: width), row: y, column: left)
        }
        screen.write("┌" + String(repeating: "─", count: width - 2) + "┐", row: top, column: left, style: border)
        screen.write(" Keys ", row: top, column: left + 2, style: border)
        for y in top + 1..<top + height - 1 {
            screen.write("│", row: y, column: left, style: border)
            screen.write("│", row: y, column: left + width - 1, style: border)
        }
        screen.write("└" + String(repeating: "─", count: width - 2) + "┘", row: top + height - 1, column: left, style: border)
        for (offset, line) in lines.enumerated() {
            screen.write(line.key, row: top + 1 + padding + offset, column: left + 3, limit: 16, style: CellStyle(.bold))
            screen.write(line.meaning, row: top + 1 + padding + offset, column: left + 20, limit: room)
        }
    }
}
