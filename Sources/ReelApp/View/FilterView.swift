/// A list's filters while open over it: the genre picker (a box of the genres, `[x]` for the
/// chosen ones, all or any: Movies', Series' and Saved's) and a browsed tab's year field (one line
/// under the heading).
enum FilterView {
    static func draw(_ list: BrowseList, into screen: inout ScreenBuffer) {
        if let picker = list.genrePicker { drawPicker(picker, into: &screen) }
        if let field = list.yearField {
            screen.write(String(repeating: " ", count: screen.width), row: 2, column: 0)
            screen.paint(row: 2, style: CellStyle(.reverse))
            let text = " Year: \(field.text)▏ enter applies (empty: any year) · esc cancels"
            screen.write(text, row: 2, column: 0, style: CellStyle(.reverse))
        }
    }

    static func drawPicker(_ picker: GenrePicker, into screen: inout ScreenBuffer) {
        let width = 44
        // The box fits the screen: the genres scroll within it, the cursor always shown.
        let shown = max(1, min(picker.names.count, screen.height - 8))
        let height = shown + 5
        let left = max(0, (screen.width - width) / 2)
        let top = max(1, (screen.height - height) / 2)
        let border = CellStyle(.bold)
        for y in top..<top + height { screen.write(String(repeating: " ", count: width), row: y, column: left) }
        screen.write("┌" + String(repeating: "─", count: width - 2) + "┐", row: top, column: left, style: border)
        screen.write(" Genres ", row: top, column: left + 2, style: border)
        for y in top + 1..<top + height - 1 {
            screen.write("│", row: y, column: left, style: border)
            screen.write("│", row: y, column: left + width - 1, style: border)
        }
        screen.write("└" + String(repeating: "─", count: width - 2) + "┘", row: top + height - 1, column: left, style: border)
        let first = max(0, min(picker.cursor - shown / 2, picker.names.count - shown))
        for offset in 0..<shown where first + offset < picker.names.count {
            let index = first + offset
            let name = picker.names[index]
            let mark = picker.chosen.contains(name) ? "[x] " : "[ ] "
            let selected = index == picker.cursor
            let style = selected ? CellStyle(.reverse) : .plain
            if selected { screen.paint(row: top + 1 + offset, column: left + 1, count: width - 2, style: style) }
            screen.write((selected ? "›" : " ") + mark + name, row: top + 1 + offset, column: left + 2, limit: width - 4, style: style)
        }
        let match = picker.chosen.count > 1 ? (picker.anyGenre ? "any of them" : "all of them") : (picker.anyGenre ? "any" : "all")
        screen.write("a: titles with \(match)", row: top + height - 3, column: left + 2, limit: width - 4, style: CellStyle(.dim))
        screen.write("space chooses · enter applies · esc", row: top + height - 2, column: left + 2, limit: width - 4, style: CellStyle(.dim))
    }
}
