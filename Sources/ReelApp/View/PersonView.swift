import Presentation
import Reel

/// A person's filmography, newest first: one row per title as the lists show titles, with the
/// kind and the person's role where a list has genres. Drawn over the tabs (a person opened from
/// a search or a cast) and on the Search tab while the field is empty (the default person).
enum PersonView {
    /// The heading (name, facts, the count) on `row`, the titles below it in `visible` rows.
    static func draw(
        _ page: PersonPage?, name: String, loading: Bool, error: String?, cursor: ListCursor, row: Int, visible: Int, model: AppModel,
        into buffer: inout ScreenBuffer
    ) {
        let count = page.map { "\($0.credits.count) title\($0.credits.count == 1 ? "" : "s"), newest first" } ?? ""
        let countColumn = model.width - DisplayWidth.columns(count) - 1
        let used = buffer.write(page?.name ?? name, row: row, column: 1, limit: countColumn - 2, style: CellStyle(.bold))
        if let facts = page?.facts, !facts.isEmpty {
            buffer.write(" · " + facts, row: row, column: 1 + used, limit: max(0, countColumn - used - 3), style: CellStyle(.dim))
        }
        buffer.write(count, row: row, column: countColumn, style: CellStyle(.dim))
        guard let page else {
            let text = error.map { "the filmography failed: \($0) \(ScreenBuffer.retries)" } ?? (loading ? "loading…" : "")
            buffer.writeWrapped(text, row: row + 1, column: 4, limit: model.width - 5, lines: 4, style: error == nil ? CellStyle(.dim) : CellStyle(color: .error))
            return
        }
        if page.credits.isEmpty {
            buffer.write("no credits", row: row + 1, column: 4, style: CellStyle(.dim))
            return
        }
        // The role goes where a list shows genres.
        let shown = page.credits.map { credit in
            var row = credit.row
            row.genres = credit.role.map { [$0] } ?? []
            return row
        }
        let columns = RowColumns(width: model.width, content: RowColumns.Content(shown), showsType: true)
        let cursor = cursor.scrolled(count: shown.count, visible: visible)
        for offset in 0..<visible {
            let index = cursor.top + offset
            guard index < shown.count else { break }
            columns.draw(shown[index], selected: index == cursor.position, row: row + 1 + offset, into: &buffer)
        }
    }

    static func draw(_ screen: PersonScreen, model: AppModel, into buffer: inout ScreenBuffer) {
        draw(
            screen.page, name: screen.name, loading: screen.loading, error: screen.error, cursor: screen.cursor, row: 1,
            visible: model.visibleRows, model: model, into: &buffer)
    }
}
