/// The help (`?`): every key the app knows, in a box over the screen; any key closes it.
enum HelpOverlay {
    static let keys: [(String, String)] = [
        ("1 – 5", "Movies, Series, Search, Saved, Settings"),
        ("tab  shift-tab", "next tab, previous tab"),
        ("↓ ↑  j k", "down, up"),
        ("g G  home end", "first row, last row"),
        ("ctrl-d ctrl-u", "half a screen down, up"),
        ("pgdn pgup", "a screen down, up"),
        ("r", "ask again for what failed; read Saved again"),
        ("Saved  s S", "sort key (added, title, release, rating); reverse"),
        ("Saved  f F", "next, previous genre (then all)"),
        ("Saved  /", "filter as you type (enter keeps, esc drops)"),
        ("Saved  x u", "remove; undo the last add or remove"),
        ("Saved  [ ] t", "a version back, forward; go to v12 or a date"),
        ("Saved  h esc", "the history (enter: that version); back to now"),
        ("Settings  enter", "change: name, photo, language, account, delete"),
        ("?", "this help (any key closes it)"),
        ("q", "quit"),
        ("ctrl-c", "quit, always"),
    ]

    static func draw(into screen: inout ScreenBuffer) {
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
            screen.write(key, row: top + 2 + offset, column: left + 3, style: CellStyle(.bold))
            screen.write(meaning, row: top + 2 + offset, column: left + 21, limit: width - 23)
        }
    }
}
