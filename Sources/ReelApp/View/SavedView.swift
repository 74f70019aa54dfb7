import Presentation
import Reel

/// The Saved tab: a heading with the order, the genre and the filter; a line with the point the
/// list is shown as of (time travel), the field being typed into, or the keys; then the list
/// (with OMDb's score column when it has scores) or the history pane (`HistoryPane`).
enum SavedView {
    /// The tab's keys as bound (`keys.toml`) in `width` columns: `s sort  S reverse  f genre  …`;
    /// where they do not all fit, as many as fit whole and `? all keys` (never a hint cut).
    static func keys(_ bindings: KeyBindings, width: Int) -> String {
        let all = keys(bindings)
        guard DisplayWidth.columns(all) > width else { return all }
        let more = bindings.names(.help).isEmpty ? "" : "  " + bindings.names(.help) + " all keys"
        var shown = ""
        for hint in all.split(separator: "  ").map(String.init) {
            let next = shown.isEmpty ? hint : shown + "  " + hint
            guard DisplayWidth.columns(next + more) <= width else { break }
            shown = next
        }
        return shown + more
    }

    /// The tab's keys as bound (`keys.toml`): `s sort  S reverse  f genre  …`.
    static func keys(_ bindings: KeyBindings) -> String {
        let hints: [([KeyAction], String)] = [
            ([.savedSort], "sort"), ([.savedReverse], "reverse"), ([.savedNextGenre], "genre"), ([.savedFilter], "filter"), ([.remove], "remove"),
            ([.undo], "undo"), ([.versionBack, .versionForward], "time travel"), ([.goTo], "go to"), ([.history], "history"),
        ]
        return hints.compactMap { actions, word -> String? in
            let names = actions.map(bindings.names).filter { !$0.isEmpty }
            return names.isEmpty ? nil : names.joined(separator: " ") + " " + word
        }.joined(separator: "  ")
    }

    static func draw(_ model: AppModel, into screen: inout ScreenBuffer) {
        let saved = model.saved
        var heading = "Saved · " + saved.request.orderName
        if let genre = saved.request.genre { heading += " · " + genre }
        if !saved.filter.text.isEmpty { heading += " · “" + saved.filter.text + "”" }
        var count = ""
        if saved.showsHistory {
            count = "\(saved.history.count) events"
        } else if saved.loaded {
            count = saved.shown.count == saved.total ? "\(saved.total) saved" : "\(saved.shown.count) of \(saved.total) saved"
        }
        ListView.drawHeading(heading, count: count, model: model, into: &screen)
        drawLine(saved, model: model, into: &screen)
        if saved.showsHistory {
            HistoryPane.draw(saved, model: model, visible: SavedUpdate.historyRows(model), into: &screen)
        } else {
            let columns = RowColumns(model, rows: saved.shown, showsType: true, score: score(saved))
            if !saved.shown.isEmpty { columns.drawHeader(row: 3, into: &screen) }
            ListView.drawRows(
                saved.shown, columns: columns, cursor: saved.cursor, tail: tail(saved), model: model, into: &screen, firstRow: 4,
                visible: SavedUpdate.visibleRows(model))
        }
    }

    /// OMDb's score the rows show: the one the list is sorted by, else the IMDb rating; none
    /// when no row has any.
    static func score(_ saved: SavedList) -> RowColumns.Score? {
        guard saved.hasScores else { return nil }
        switch saved.request.order {
        case .metascore: return .metascore
        case .tomatometer: return .tomatometer
        default: return .imdb
        }
    }

    /// The line under the heading.
    private static func drawLine(_ saved: SavedList, model: AppModel, into screen: inout ScreenBuffer) {
        let field = CellStyle(.bold)
        switch saved.typing {
        case .filter:
            screen.write("/ " + saved.filter.text + "▏", row: 2, column: 1, style: field)
        case .point(let typed):
            screen.write("go to (v12, a position, 2026-11-24 07:24): " + typed.text + "▏", row: 2, column: 1, style: field)
        case nil:
            if let version = saved.request.asOf {
                let line = saved.asOfLine?.asOfLine ?? "as of v\(version)"
                let back = "  esc: now"
                let room = PreviewPane.listWidth(model) - 2 - DisplayWidth.columns(back)
                let used = screen.write(line, row: 2, column: 1, limit: room, style: CellStyle(.bold, color: .accent))
                screen.write(back, row: 2, column: 1 + used, style: CellStyle(.dim))
            } else {
                let width = PreviewPane.listWidth(model) - 2
                screen.write(keys(model.keys, width: width), row: 2, column: 1, limit: width, style: CellStyle(.dim))
            }
        }
    }

    /// The row below the list: loading (how far: `loading… OMDb's scores 120 of 900`), a
    /// failure, or why it is empty.
    static func tail(_ saved: SavedList) -> (String, CellStyle)? {
        if saved.loading && !saved.loaded { return ("loading…" + (saved.progress.map { " " + $0.text } ?? ""), CellStyle(.dim)) }
        if let error = saved.error { return ("the saved list failed: \(error) (r retries)", CellStyle(color: .error)) }
        guard saved.loaded, saved.shown.isEmpty else { return nil }
        if !saved.rows.isEmpty { return ("nothing saved matches “\(saved.filter.text)” (esc clears the filter)", CellStyle(.dim)) }
        if saved.total > 0 { return ("nothing saved has the genre \(saved.request.genre ?? "")", CellStyle(.dim)) }
        return (saved.request.asOf == nil ? "nothing saved yet" : "nothing was saved at that point", CellStyle(.dim))
    }
}
