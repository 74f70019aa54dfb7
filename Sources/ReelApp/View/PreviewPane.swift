import Presentation
import Reel

/// The preview beside a list on a wide screen (as yazi and ranger have one): the title under the
/// cursor, its poster when the terminal draws pictures, its date and genres, TMDb's rating
/// coloured by score and OMDb's scores, its tagline and the first lines of its overview. It
/// follows the cursor: what the list row knows shows at once; the poster and the rest once the
/// cursor rests on the title (`PreviewUpdate`). Movies, Series,
/// Saved and Search's results have it from `from` columns; the list takes the rest of the width.
enum PreviewPane {
    /// From this width a list has a preview beside it.
    static let from = 120

    /// Whether the screen shows a pane: a tab with a list of titles, wide enough, nothing over it.
    static func shows(_ model: AppModel) -> Bool {
        guard model.screens.isEmpty, model.width >= from, !model.isTooSmall else { return false }
        switch model.tab {
        case .movies, .series: return true
        case .saved: return !model.saved.showsHistory
        case .search: return !model.search.showsDefaultPerson
        case .settings: return false
        }
    }

    /// The pane's columns: three tenths of the screen, from 36 to 72.
    static func width(_ model: AppModel) -> Int { min(72, max(36, model.width * 3 / 10)) }

    /// The columns the list is laid out in: the screen's, less the pane's when it shows.
    static func listWidth(_ model: AppModel) -> Int { shows(model) ? model.width - width(model) : model.width }

    /// The pane's first row: below the tab bar, and on Search below the field.
    static func top(_ model: AppModel) -> Int { model.tab == .search ? 2 : 1 }

    /// The column the pane's text starts at (after its rule and a gap), and the columns it has.
    private static func textColumn(_ model: AppModel) -> Int { model.width - width(model) + 2 }
    private static func textWidth(_ model: AppModel) -> Int { width(model) - 3 }

    /// The title the pane shows: the one under the cursor, where the pane shows.
    static func subject(_ model: AppModel) -> TitleRow? {
        guard shows(model), case .title(let row)? = model.underCursor else { return nil }
        return row
    }

    /// The rows the poster takes at the top of the pane, kept while the cursor moves so the text
    /// below stays put: as many as the pane's width calls for (2:3), at most half its height (a
    /// line below it stays free: a sixel image may run a few pixels past its last row). Nil
    /// where the terminal draws no pictures or the pane is too short for one.
    static func posterRows(_ model: AppModel) -> Int? {
        guard model.pictures.available else { return nil }
        let rows = min(textWidth(model) * 3 / 4, (model.height - 1 - top(model)) / 2 + 2)
        return rows >= 6 ? rows : nil
    }

    /// The poster's picture for the title under the cursor, rested on or not (drawn ahead).
    static func posterKey(_ model: AppModel) -> PictureKey? {
        guard let rows = posterRows(model), let row = subject(model), let path = row.posterPath else { return nil }
        return .poster(path, columns: textWidth(model), rows: rows)
    }

    /// The poster's box, once the cursor rested on a title that has one.
    static func posterBox(_ model: AppModel) -> PictureLayout.Box? {
        guard subject(model)?.key == model.preview.settled, let key = posterKey(model) else { return nil }
        return PictureLayout.Box(key: key, row: top(model), column: textColumn(model), caption: "poster")
    }

    static func draw(_ model: AppModel, into screen: inout ScreenBuffer) {
        guard shows(model) else { return }
        let top = top(model), bottom = model.height - 1
        let rule = model.width - width(model)
        for row in top..<bottom { screen.write("│", row: row, column: rule, style: CellStyle(.dim)) }
        guard let row = subject(model) else {
            // A person among Search's results: their name, and what enter does.
            if case .person(_, let name)? = model.underCursor {
                screen.write(name, row: top, column: textColumn(model), limit: textWidth(model), style: CellStyle(.bold))
                screen.write("enter opens their filmography", row: top + 1, column: textColumn(model), limit: textWidth(model), style: CellStyle(.dim))
            }
            return
        }
        var y = top + (posterRows(model).map { $0 + 1 } ?? 0)
        for (text, style) in lines(row, model.preview[row.key], width: textWidth(model)) {
            guard y < bottom else { break }
            screen.write(text, row: y, column: textColumn(model), limit: textWidth(model), style: style)
            y += 1
        }
    }

    /// The pane's text lines: what the row knows, then what its details add (or why there are
    /// none), the overview last, as many of its lines as there is room for.
    static func lines(_ row: TitleRow, _ entry: PreviewState.Entry?, width: Int) -> [(String, CellStyle)] {
        var lines: [(String, CellStyle)] = []
        func add(_ text: String, _ style: CellStyle = .plain, at most: Int = .max) {
            for line in DisplayWidth.wrap(TerminalText.field(text), width: width, breakingWords: true).prefix(most) {
                lines.append((line, style))
            }
        }
        var details: TitleDetails?
        if case .loaded(let loaded)? = entry { details = loaded }
        add((row.saved ? "★ " : "") + row.title, CellStyle(.bold), at: 3)
        var facts: [String] = [row.date ?? row.year.map(String.init) ?? "no date"]
        if let details {
            if let runtime = details.runtime { facts.append(row.key.mediaType == .movie ? "\(runtime) min" : "\(runtime) min an episode") }
            if let seasons = details.seasons { facts.append("\(seasons) season\(seasons == 1 ? "" : "s")") }
            if let rated = details.omdb?.rated { facts.append(rated) }
        }
        add(facts.joined(separator: " · "))
        let genres = details?.genres ?? row.genres
        if !genres.isEmpty { add(genres.joined(separator: ", "), CellStyle(.dim)) }
        if let rating = row.rating ?? details.flatMap({ $0.voteCount > 0 ? $0.voteAverage : nil }) {
            let votes = details.map { " (\(GroupedDigits.of($0.voteCount)) votes)" } ?? ""
            add("TMDb \(RowColumns.oneDecimal(rating))" + votes, CellStyle(color: RowColumns.color(ofRating: rating)))
        }
        switch entry {
        case .loaded(let details)?:
            // OMDb's scores, a line broken between them rather than within one.
            if let ratings = details.omdb?.ratings {
                var line = ""
                for part in ratings.split(separator: " · ").map(String.init) {
                    let joined = line.isEmpty ? part : line + " · " + part
                    if !line.isEmpty, DisplayWidth.columns(joined) > width {
                        add(line)
                        line = part
                    } else {
                        line = joined
                    }
                }
                if !line.isEmpty { add(line) }
            }
            if let tagline = details.tagline, !tagline.isEmpty {
                lines.append(("", .plain))
                add("“\(tagline)”", CellStyle(.dim))
            }
            if let overview = details.overview, !overview.isEmpty {
                lines.append(("", .plain))
                for paragraph in TerminalText.lines(overview) where !paragraph.isEmpty { add(paragraph) }
            }
        case .failed(let why)?:
            lines.append(("", .plain))
            add("no details: \(why) (r retries)", CellStyle(color: .error))
        case .loading?, nil:
            lines.append(("", .plain))
            add("loading details…", CellStyle(.dim))
        }
        return lines
    }
}
