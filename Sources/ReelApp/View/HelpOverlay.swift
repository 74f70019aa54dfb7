/// The help (`?`): every key the app knows, in a box over the screen; any key closes it.
enum HelpOverlay {
    /// The help's lines: the keys bound to each group of actions (as `keys.toml` left them), and
    /// what they do.
    static func entries(_ keys: KeyBindings) -> [(String, String)] {
        let groups: [([KeyAction], String)] = [
            ([.movies, .series, .search, .saved, .settings], "Movies, Series, Search, Saved, Settings"),
            ([.nextTab, .previousTab], "next tab, previous tab"),
            ([.down, .up], "down, up"),
            ([.first, .last], "first row, last row"),
            ([.halfDown, .halfUp], "half a screen down, up"),
            ([.pageDown, .pageUp], "a screen down, up"),
            ([.list], "Movies, Series: discover, popular, top rated"),
            ([.sort, .reverse], "Movies, Series: next sort key; other direction"),
            ([.genres, .year, .clear], "Movies, Series: genres; year; no filters"),
            ([.reload], "ask again for what failed; reload Saved"),
            ([.help], "this help (any key closes it)"),
            ([.quit], "quit (on a tab)"),
        ]
        let bound = groups.map { actions, meaning in (actions.map { keys.names($0) }.filter { !$0.isEmpty }.joined(separator: "  "), meaning) }
        return bound + fixed + [("ctrl-c", "quit, always")]
    }

    /// Keys `keys.toml` does not bind: the same everywhere, or a screen's own.
    static let fixed: [(String, String)] = [
        ("enter", "open: details, a person, a cast member, a similar title"),
        ("esc  q", "back from details or a person"),
        ("s  space", "save or remove the title (details)"),
        ("/", "Search: type in the field (every key is text)"),
        ("enter ↓ esc", "Search: leave the field for the results"),
        ("← →", "Search: all, movies, series, people"),
    ]

    static func draw(_ keys: KeyBindings, into screen: inout ScreenBuffer) {
        let keys = entries(keys)
        let width = 72
        let height = keys.count + 4
        let left = max(0, (screen.width - width) / 2)
        let top = max(0, (screen.height - height) / 2)
        let border = CellStyle(.bold)
        for y in top..<top + height {
            for x in left..<left + width { screen.write(" ", row: y, column: x) }
        }
        screen.write("┌" + String(repeating: "─", count: width - 2) + "┐", row: top, column: left, style: border)
        screen.write(" Keys ", row: top, column: left + 2, style: border)
        for y in top + 1..<top + height - 1 {
            screen.write("│", row: y, column: left, style: border)
            screen.write("│", row: y, column: left + width - 1, style: border)
        }
        screen.write("└" + String(repeating: "─", count: width - 2) + "┘", row: top + height - 1, column: left, style: border)
        for (offset, (key, meaning)) in keys.enumerated() {
            screen.write(key, row: top + 2 + offset, column: left + 3, limit: 16, style: CellStyle(.bold))
            screen.write(meaning, row: top + 2 + offset, column: left + 20, limit: width - 22)
        }
    }
}
