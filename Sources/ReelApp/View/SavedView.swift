import Presentation
import Reel

/// The Saved tab: a heading with the order, the genres and the filter; a line with the point the
/// list is shown as of (time travel), the field being typed into, or the keys (two lines when
/// they need them); then the list
/// (with OMDb's score column when it has scores) or the history pane (`HistoryPane`).
enum SavedView {
    /// The most lines the keys take under the heading.
    static let keyLinesAtMost = 2

    /// The tab's keys as bound (`keys.toml`), wrapped to `width` columns: whole hints on each line,
    /// never one cut. Past `keyLinesAtMost` lines, the last ends with `? all keys`.
    static func keyLines(_ bindings: KeyBindings, width: Int) -> [String] {
        let hints = keys(bindings).split(separator: "  ").map(String.init)
        var lines: [String] = []
        var line = ""
        for hint in hints {
            let next = line.isEmpty ? hint : line + "  " + hint
            if line.isEmpty || DisplayWidth.columns(next) <= width {
                line = next
            } else {
                lines.append(line)
                line = hint
            }
        }
        if !line.isEmpty { lines.append(line) }
        guard lines.count > keyLinesAtMost else { return lines }
        // The last line shown: its hints that fit beside `? all keys`.
        let more = bindings.names(.help).isEmpty ? "" : bindings.names(.help) + " all keys"
        var last = ""
        for hint in lines[keyLinesAtMost - 1].split(separator: "  ").map(String.init) {
            let next = last.isEmpty ? hint : last + "  " + hint
            guard DisplayWidth.columns(next + "  " + more) <= width else { break }
            last = next
        }
        return Array(lines.prefix(keyLinesAtMost - 1)) + [last.isEmpty ? more : last + (more.isEmpty ? "" : "  " + more)]
    }

    /// The lines under the heading: as many as the keys take at this width (a field typed into or
    /// the point shown takes the first; the list stays where it is).
    static func lineRows(_ model: AppModel) -> Int {
        max(1, keyLines(model.keys, width: PreviewPane.listWidth(model) - 2).count)
    }

    /// The tab's keys as bound (`keys.toml`): `s sort  S reverse  f genre  …`.
    static func keys(_ bindings: KeyBindings) -> String {
        let hints: [([KeyAction], String)] = [
            ([.savedSort], "sort"), ([.savedReverse], "reverse"), ([.savedGenres], "genres"), ([.savedFilter], "filter"), ([.remove], "remove"),
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
        if let genres = saved.request.genresName { heading += " · " + genres }
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
            let header = 2 + lineRows(model)
            if !saved.shown.isEmpty { columns.drawHeader(row: header, into: &screen) }
            ListView.drawRows(
                saved.shown, columns: columns, cursor: saved.cursor, tail: tail(saved), model: model, into: &screen, firstRow: header + 1,
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
                for (offset, line) in keyLines(model.keys, width: width).enumerated() {
                    screen.write(line, row: 2 + offset, column: 1, limit: width, style: CellStyle(.dim))
                }
            }
        }
    }

    /// The row below the list: loading (how far: `loading… OMDb's scores 120 of 900`), a
    /// failure, or why it is empty.
    static func tail(_ saved: SavedList) -> (String, CellStyle)? {
        if saved.loading && !saved.loaded { return ("loading…" + (saved.progress.map { " " + $0.text } ?? ""), CellStyle(.dim)) }
        if let error = saved.error { return ("the saved list failed: \(error) \(ScreenBuffer.retries)", CellStyle(color: .error)) }
        guard saved.loaded, saved.shown.isEmpty else { return nil }
        if !saved.rows.isEmpty { return ("nothing saved matches “\(saved.filter.text)” (esc clears the filter)", CellStyle(.dim)) }
        if saved.total > 0, !saved.request.genres.isEmpty {
            let genres = saved.request.genres
            let which = genres.count == 1 ? "the genre" : saved.request.anyGenre ? "any of" : "all of"
            return ("nothing saved has \(which) \(genres.joined(separator: ", ")) (c clears)", CellStyle(.dim))
        }
        return (saved.request.asOf == nil ? "nothing saved yet" : "nothing was saved at that point", CellStyle(.dim))
    }
}
