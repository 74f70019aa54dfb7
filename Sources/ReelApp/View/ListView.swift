import Presentation
import Reel

/// A list of titles on screen: a heading with the count, a header row naming the columns, one
/// row per title (cursor `›`, `★` for saved, title, release date,
/// genres, rating; the saved list adds the kind, `SavedView`; `RowColumns` sizes them), and a
/// last row saying what comes next: a page loading, a page that failed, or the end of the list.
/// With thumbnails (`p`) each row is three lines tall (four in pixels), room at its left for a small poster
/// (`PictureLayout` places it).
enum ListView {
    static func draw(_ list: BrowseList, heading: String, model: AppModel, into screen: inout ScreenBuffer) {
        var count = "\(list.rows.count)"
        var heading = heading
        if list.filtering || !list.filter.text.isEmpty {
            // Filtered: of the titles loaded, not of TMDb's.
            heading += list.filtering ? " · / " + list.filter.text + "▏" : " · “" + list.filter.text + "”"
            count += list.filter.text.isEmpty ? " loaded" : " of \(list.loaded.count) loaded"
        } else if let total = list.totalResults {
            count += " of \(total)"
        }
        let tail = tail(list)
        drawHeading(heading, count: list.rows.isEmpty && list.totalResults == nil ? "" : count + (list.filter.text.isEmpty ? " titles" : ""), model: model, into: &screen)
        let columns = RowColumns(model, rows: list.rows, showsType: false)
        if !list.rows.isEmpty { columns.drawHeader(row: 2, into: &screen) }
        drawRows(list.rows, columns: columns, cursor: list.cursor, tail: tail, model: model, into: &screen)
    }

    /// The row below a browsed list: a page loading, a page that failed, the end of the list.
    static func tail(_ list: BrowseList) -> (String, CellStyle)? {
        if !list.filter.text.isEmpty, !list.loaded.isEmpty {
            let what = list.rows.isEmpty ? "nothing loaded matches “\(list.filter.text)”" : "the \(list.loaded.count) titles loaded, filtered"
            return (what + " (esc clears the filter; then the list loads on)", CellStyle(.dim))
        }
        if let page = list.loadingPage {
            return (page == 1 ? "loading…" : "loading page \(page)…", CellStyle(.dim))
        } else if let error = list.error {
            return ("page \(list.pagesLoaded + 1) failed: \(error) \(ScreenBuffer.retries)", CellStyle(color: .error))
        } else if list.isComplete {
            return (list.rows.isEmpty ? "no titles" : "end of the list: TMDb's last page", CellStyle(.dim))
        }
        return nil
    }

    /// The first row shown: the cursor's top, except at the last row, where the row below it
    /// (loading, the end) shows too.
    static func top(count: Int, cursor: ListCursor, hasTail: Bool, visible: Int) -> Int {
        guard hasTail, count > 0, cursor.position == count - 1 else { return cursor.top }
        return max(cursor.top, count + 1 - visible)
    }

    /// The list's heading on row 1 (bold, cut at a word) and its count at the right of the
    /// list's width (the preview pane's columns left alone).
    static func drawHeading(_ heading: String, count: String, model: AppModel, into screen: inout ScreenBuffer) {
        let width = PreviewPane.listWidth(model)
        let countColumn = width - DisplayWidth.columns(count) - 1
        screen.write(DisplayWidth.truncateAtWord(heading, to: countColumn - 2), row: 1, column: 1, limit: countColumn - 2, style: CellStyle(.bold))
        screen.write(count, row: 1, column: countColumn, style: CellStyle(.dim))
    }

    /// The rows from screen row `firstRow`, `visible` of them (the rows that fit the screen
    /// without), each `model.rowHeight` lines tall, in `columns`.
    static func drawRows(
        _ rows: [TitleRow], columns: RowColumns, cursor: ListCursor, tail: (String, CellStyle)?, model: AppModel, into screen: inout ScreenBuffer,
        firstRow: Int = 3, visible: Int? = nil
    ) {
        let visible = visible ?? model.visibleListRows
        let top = top(count: rows.count, cursor: cursor, hasTail: tail != nil, visible: visible)
        for offset in 0..<visible {
            let index = top + offset
            let y = firstRow + offset * model.rowHeight
            if index < rows.count {
                columns.draw(rows[index], selected: index == cursor.position, row: y, into: &screen)
            } else if index == rows.count, let (text, style) = tail {
                // Wrapped over the rows left below the list: a failure says all of itself.
                screen.writeWrapped(text, row: y, column: 4, limit: columns.width - 5, lines: (visible - offset) * model.rowHeight, style: style)
            }
        }
    }
}
