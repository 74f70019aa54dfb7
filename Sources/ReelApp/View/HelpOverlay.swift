/// The help (`?`): every key the app knows, in a box over the screen; any key closes it.
enum HelpOverlay {
    static let keys: [(String, String)] = [
        ("1 – 5", "Movies, Series, Search, Saved, Settings"),
        ("tab  shift-tab", "next tab, previous tab"),
        ("↓ ↑  j k", "down, up"),
        ("g G  home end", "first row, last row"),
        ("ctrl-d ctrl-u", "half a screen down, up"),
        ("pgdn pgup", "a screen down, up"),
        ("enter", "open: details, a person, a cast member, a similar title"),
        ("esc  q", "back from details or a person"),
        ("s  space", "save or remove the title (details)"),
        ("/", "Search: type in the field (every key is text)"),
        ("enter ↓ esc", "Search: leave the field for the results"),
        ("← →", "Search: all, movies, series, people"),
        ("r", "ask again for what failed; reload Saved"),
        ("?", "this help (any key closes it)"),
        ("q", "quit (on a tab)"),
        ("ctrl-c", "quit, always"),
    ]

    static func draw(into screen: inout ScreenBuffer) {
        let width = 70
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
            screen.write(key, row: top + 2 + offset, column: left + 3, style: CellStyle(.bold))
            screen.write(meaning, row: top + 2 + offset, column: left + 20, limit: width - 22)
        }
    }
}
