import Presentation
import Reel

/// The history pane of the Saved tab (`h`): the account's events in words, one a row, as
/// `reel history` lists them; the version the list is shown as of is marked `●`.
enum HistoryPane {
    static func draw(_ saved: SavedList, model: AppModel, visible: Int, into screen: inout ScreenBuffer) {
        let lines = saved.history
        guard !lines.isEmpty else {
            let text = saved.historyError.map { "the history failed: \($0) \(ScreenBuffer.retries)" } ?? (saved.historyLoaded ? "no events yet" : "loading…")
            screen.writeWrapped(text, row: 2 + SavedView.lineRows(model), column: 4, limit: model.width - 5, lines: 4, style: saved.historyError == nil ? CellStyle(.dim) : CellStyle(color: .error))
            return
        }
        let versionWidth = DisplayWidth.columns("v\(lines.last!.version)")
        let top = 2 + SavedView.lineRows(model)
        for offset in 0..<visible {
            let index = saved.historyCursor.top + offset
            guard index < lines.count else { break }
            let line = lines[index]
            let y = top + offset
            let selected = index == saved.historyCursor.position
            let base = selected ? CellStyle([.reverse]) : CellStyle.plain
            if selected {
                screen.paint(row: y, count: model.width - 1, style: base)
                screen.write("›", row: y, column: 0, style: base)
            }
            if line.version == saved.request.asOf { screen.write("●", row: y, column: 2, style: CellStyle(base.attributes, color: .accent)) }
            let version = "v\(line.version)"
            var x = 4 + versionWidth - DisplayWidth.columns(version)
            x += screen.write(version, row: y, column: x, style: base) + 2
            x += screen.write(line.time, row: y, column: x, style: base) + 2
            screen.write(line.summary, row: y, column: x, limit: model.width - 1 - x, style: base)
        }
    }
}
