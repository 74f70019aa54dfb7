import Presentation
import Reel

/// A title's details over the tabs: the title, year and key on the heading with ★ saved (or how
/// to save), then `DetailsLayout`'s lines from where the cursor keeps them; the line under the
/// cursor reversed with `›`, one that links (cast, a similar title) indented; a trailer's,
/// poster's or backdrop's line recorded as a link to its URL (the cells written). With a poster
/// (`PictureLayout`) the lines take the width left of it.
enum DetailsView {
    static func draw(_ screen: DetailsScreen, model: AppModel, into buffer: inout ScreenBuffer) {
        let year = (screen.details?.year).map { " (\($0))" } ?? ""
        let title = (screen.details?.title ?? screen.title) + year
        let right: (String, CellStyle)
        if screen.details == nil {
            right = ("", .plain)
        } else if model.saved.pending.contains(screen.key) {
            // ★ flipped at once; the event is still being written.
            right = screen.saved ? ("★ saving…", CellStyle(color: .saved)) : ("removing…", CellStyle(.dim))
        } else {
            right = screen.saved ? ("★ saved · s removes", CellStyle(color: .saved)) : ("s saves", CellStyle(.dim))
        }
        let rightColumn = model.width - DisplayWidth.columns(right.0) - 1
        let used = buffer.write(title, row: 1, column: 1, limit: rightColumn - 16, style: CellStyle(.bold))
        buffer.write(screen.key.description, row: 1, column: 1 + used + 2, limit: max(0, rightColumn - used - 4), style: CellStyle(.dim))
        buffer.write(right.0, row: 1, column: rightColumn, style: right.1)
        guard let details = screen.details else {
            let text = screen.error.map { "the details failed: \($0) \(ScreenBuffer.retries)" } ?? "loading…"
            buffer.writeWrapped(text, row: 2, column: 4, limit: model.width - 5, lines: model.height - 4, style: screen.error == nil ? CellStyle(.dim) : CellStyle(color: .error))
            return
        }
        let width = PictureLayout.detailsWidth(screen, model)
        let lines = DetailsLayout.lines(details, width: width)
        let cursor = screen.cursor.scrolled(count: lines.count, visible: model.visibleRows)
        for offset in 0..<model.visibleRows {
            let index = cursor.top + offset
            guard index < lines.count else { break }
            draw(lines[index], selected: index == cursor.position, row: 2 + offset, width: width, into: &buffer)
        }
    }

    private static func draw(_ line: DetailsLayout.Line, selected: Bool, row y: Int, width: Int, into buffer: inout ScreenBuffer) {
        var style = line.style
        if selected {
            style.attributes.insert(.reverse)
            buffer.paint(row: y, count: width - 1, style: CellStyle(.reverse))
            buffer.write("›", row: y, column: 0, style: CellStyle(.reverse))
        }
        guard line.target != nil else {
            let used = buffer.write(line.text, row: y, column: 2, limit: width - 3, style: style)
            if let url = line.link { buffer.link(row: y, column: 2, width: used, url: url) }
            return
        }
        if line.saved {
            var star = style
            star.color = .saved
            buffer.write("★", row: y, column: 2, style: star)
        }
        buffer.write(line.text, row: y, column: 4, limit: width - 5, style: style)
    }
}
