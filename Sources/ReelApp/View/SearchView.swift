import Presentation
import Reel

/// The Search tab: the field on the first row (a block cursor while it has focus) with the type
/// filter on the right, then what the field asks for: the results of the newest search, or the
/// default person's filmography while the field is empty.
enum SearchView {
    static func draw(_ model: AppModel, into buffer: inout ScreenBuffer) {
        let search = model.search
        let filters = drawFilters(search.filter, model: model, into: &buffer)
        let label = "Search: "
        buffer.write(label, row: 1, column: 1, style: CellStyle(.bold))
        let fieldColumn = 1 + DisplayWidth.columns(label)
        let room = max(1, filters - fieldColumn - 2)
        let used = buffer.write(tail(of: search.text, columns: room - 1), row: 1, column: fieldColumn, limit: room)
        if search.editing {
            buffer.write(" ", row: 1, column: fieldColumn + used, style: CellStyle(.reverse))
        } else if search.text.isEmpty {
            buffer.write("/ to type", row: 1, column: fieldColumn, style: CellStyle(.dim))
        }
        if search.showsDefaultPerson {
            PersonView.draw(
                search.defaultPerson, name: "Benedict Cumberbatch", loading: search.defaultPersonLoading, error: search.defaultPersonError,
                cursor: search.defaultCursor, row: 2, visible: SearchUpdate.visibleRows(model), model: model, into: &buffer)
        } else {
            drawResults(search, visible: SearchUpdate.resultRows(model), model: model, into: &buffer)
        }
    }

    /// The end of `text` that fits in `columns`: the end of a long text shows, as that is where
    /// typing goes. Read from the end, a character at a time, and no further than fits: a pasted
    /// 10,000 characters draw as fast as ten (taking characters off the front until the rest fit
    /// measured the rest again each time, and took seconds).
    static func tail(of text: String, columns: Int) -> String {
        var start = text.endIndex
        var width = 0
        while start > text.startIndex {
            let before = text.index(before: start)
            width += DisplayWidth.columns(text[before])
            if width > columns { break }
            start = before
        }
        return String(text[start...])
    }

    /// `[All]  Movies  Series  People` at the right of the field's row, the chosen one in
    /// brackets and bold; returns the column it starts at.
    private static func drawFilters(_ chosen: SearchFilter, model: AppModel, into buffer: inout ScreenBuffer) -> Int {
        let labels = SearchFilter.allCases.map { $0 == chosen ? "[\($0.title)]" : " \($0.title) " }
        let width = labels.map(DisplayWidth.columns).reduce(0, +) + labels.count - 1
        var x = model.width - width - 1
        let start = x
        for (filter, label) in zip(SearchFilter.allCases, labels) {
            x += buffer.write(label, row: 1, column: x, style: filter == chosen ? CellStyle(.bold, color: .accent) : CellStyle(.dim)) + 1
        }
        return start
    }

    private static func drawResults(_ search: SearchState, visible: Int, model: AppModel, into buffer: inout ScreenBuffer) {
        let heading: String
        var style = CellStyle(.dim)
        if let error = search.error {
            // The key first: over results the heading has one line, and the reason is on the
            // status line too.
            heading = "the search failed \(ScreenBuffer.retries): \(error)"
            style = CellStyle(color: .error)
        } else if search.resultsGeneration != search.generation {
            heading = "searching…"
        } else if search.results.isEmpty {
            heading = "nothing found for “\(search.resultsText)”"
        } else {
            let count = search.results.count
            let more = search.loadingPage != nil ? " · loading more…" : search.resultsPages < (search.totalPages ?? 0) ? " · more below" : ""
            heading = "\(count) result\(count == 1 ? "" : "s") for “\(search.resultsText)”" + more + (search.editing ? " · enter or ↓ to choose" : "")
        }
        let columns = RowColumns(
            width: PreviewPane.listWidth(model), content: content(search.results), showsType: true, indent: PictureLayout.thumbnailIndent(model), height: model.rowHeight)
        // A failure with no results under it wraps (it says all of itself, "r retries" too).
        let headingLines = search.error != nil && search.results.isEmpty ? 4 : 1
        buffer.writeWrapped(heading, row: 2, column: 1, limit: PreviewPane.listWidth(model) - 2, lines: headingLines, style: style)
        if !search.results.isEmpty { columns.drawHeader(title: "Title or name", row: 3, into: &buffer) }
        let cursor = search.cursor.scrolled(count: search.results.count, visible: visible)
        for offset in 0..<visible {
            let index = cursor.top + offset
            guard index < search.results.count else { break }
            let selected = index == cursor.position && !search.editing
            let y = 4 + offset * model.rowHeight
            switch search.results[index] {
            case .title(let row): columns.draw(row, selected: selected, row: y, into: &buffer)
            case .person(let person): columns.draw(person: person.name, department: person.department, selected: selected, row: y, into: &buffer)
            }
        }
    }

    /// The widest name and genres (a person's department) of the results.
    private static func content(_ results: [SearchResult]) -> RowColumns.Content {
        var content = RowColumns.Content()
        for result in results {
            switch result {
            case .title(let row):
                content.title = max(content.title, DisplayWidth.columns(row.title))
                content.genres = max(content.genres, RowColumns.Content.columns(ofGenres: row.genres))
            case .person(let person):
                content.title = max(content.title, DisplayWidth.columns(person.name))
                content.genres = max(content.genres, DisplayWidth.columns(person.department ?? ""))
            }
        }
        return content
    }
}
