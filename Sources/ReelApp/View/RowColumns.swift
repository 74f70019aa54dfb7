import Presentation
import Reel

/// Where a title row's columns go at a screen width, sized by what the rows hold: `› ★ ` then
/// the title, the kind (saved list, search), the release date, the genres, the rating coloured
/// by score, and on the saved list one of OMDb's scores (`IMDb 8.8`, `MC 66`, `RT 79%`). The
/// title and the genres take the width their longest row needs; when the screen has less, they
/// share it (the title at least `titleAtLeast` columns), and on a narrow screen the genres and
/// then the score are given up, so 80 columns still show title, date and rating. The header
/// row names the columns above them (`drawHeader`). With thumbnails the row is `height` lines
/// tall and its columns start `indent` further right, past the thumbnail's cells, which are left
/// alone (not even reversed under the cursor: the picture covers them).
struct RowColumns {
    /// Which of OMDb's scores the score column shows.
    enum Score: Equatable {
        case imdb, metascore, tomatometer

        /// `IMDb 8.8`, `MC 66`, `RT 79%`; `IMDb –` without the score.
        func text(_ scores: TitleRow.Scores?) -> String {
            switch self {
            case .imdb: "IMDb " + (scores?.imdbRating.map(RowColumns.oneDecimal) ?? "–")
            case .metascore: "MC " + (scores?.metascore.map(String.init) ?? "–")
            case .tomatometer: "RT " + (scores?.tomatometer.map { "\($0)%" } ?? "–")
            }
        }

        var label: String {
            switch self {
            case .imdb: "IMDb"
            case .metascore: "Metacritic"
            case .tomatometer: "Tomatoes"
            }
        }
    }

    /// The widest title and genres of a list's rows, in columns: what its columns are sized by.
    struct Content: Equatable {
        var title = 0
        var genres = 0

        init(title: Int = 0, genres: Int = 0) {
            self.title = title
            self.genres = genres
        }

        /// Of `rows` (all a list has loaded, so the columns stay put while the cursor moves):
        /// measured each frame, so without joining the genres into a string per row.
        init(_ rows: some Sequence<TitleRow>) {
            for row in rows {
                title = max(title, DisplayWidth.columns(row.title))
                genres = max(genres, Self.columns(ofGenres: row.genres))
            }
        }

        /// The columns `genres` take joined by `, `.
        static func columns(ofGenres genres: [String]) -> Int {
            genres.reduce(0) { $0 + DisplayWidth.columns($1) } + max(0, genres.count - 1) * 2
        }
    }

    let width: Int
    let showsType: Bool
    /// The genres' width, 0 when the screen leaves them no room.
    let genres: Int
    let title: Int
    let indent: Int
    let height: Int
    /// The score column, when asked for and the width allows it.
    let score: Score?

    /// The cursor's row: reversed and bold, plain to see without colour.
    static let selectedStyle = CellStyle([.reverse, .bold])
    /// The kind column (`movie`, `series`, `person`).
    static let kindColumns = 6
    /// `1999-10-15`.
    static let dateColumns = 10
    /// `Rating` above `7.3`.
    static let ratingColumns = 6
    /// The score column's width, right-aligned (`IMDb 8.8`, `Metacritic`), after a gap of 2.
    static let scoreColumns = 10
    /// The least a title keeps before a column is given up (the genres first, then the score).
    static let titleAtLeast = 24
    /// The most a title column takes when the screen has width to spare.
    static let titleAtMost = 60
    /// The fewest columns the genres are shown in: narrower, they are left out.
    static let genresAtLeast = 12

    init(width: Int, content: Content, showsType: Bool, indent: Int = 0, height: Int = 1, score: Score? = nil) {
        self.width = width
        self.showsType = showsType
        self.indent = indent
        self.height = max(1, height)
        // `› ★ ` (4), title, [2 + kind], 2 + date, [2 + genres], 2 + rating, [2 + score], a margin of 1.
        let fixed = 4 + indent + (showsType ? 2 + Self.kindColumns : 0) + 2 + Self.dateColumns + 2 + Self.ratingColumns + 1
        let wantedTitle = max(content.title, 5)
        var room = width - fixed
        let titleAtLeast = min(Self.titleAtLeast, wantedTitle)
        // The score stays while the title keeps its least beside it; the genres go before it.
        self.score = score != nil && room - 2 - Self.scoreColumns >= titleAtLeast ? score : nil
        if self.score != nil { room -= 2 + Self.scoreColumns }
        if content.genres == 0 || room - titleAtLeast - 2 < Self.genresAtLeast {
            genres = 0
            title = max(5, room)
        } else if wantedTitle + 2 + content.genres <= room {
            // Everything fits: the title takes what is spare up to `titleAtMost` (past it the
            // other columns would be far from the titles they belong to).
            genres = content.genres
            title = min(room - 2 - content.genres, max(wantedTitle, Self.titleAtMost))
        } else {
            // They share: the genres keep at least two fifths of the room (as far as they need it).
            let genres = max(Self.genresAtLeast, min(content.genres, max(room - 2 - wantedTitle, room * 2 / 5)))
            self.genres = genres
            title = room - 2 - genres
        }
    }

    /// The columns for the rows of a list of titles in `model`: thumbnails as `p` has them, in the
    /// width the preview pane leaves.
    init(_ model: AppModel, rows: some Sequence<TitleRow>, showsType: Bool, score: Score? = nil, width: Int? = nil) {
        self.init(
            width: width ?? PreviewPane.listWidth(model), content: Content(rows), showsType: showsType, indent: PictureLayout.thumbnailIndent(model),
            height: model.rowHeight, score: score)
    }

    /// Where the columns after the title start.
    private var kindColumn: Int { 4 + indent + title + 2 }
    private var dateColumn: Int { kindColumn + (showsType ? Self.kindColumns + 2 : 0) }
    private var genresColumn: Int { dateColumn + Self.dateColumns + 2 }
    private var ratingColumn: Int { genresColumn + (genres > 0 ? genres + 2 : 0) }
    private var scoreColumn: Int { ratingColumn + Self.ratingColumns + 2 }

    /// The header row: each column's name over it, dimmed and underlined (`title` over the titles).
    func drawHeader(title: String = "Title", row y: Int, into screen: inout ScreenBuffer) {
        let label = CellStyle([.dim, .underline])
        screen.write(title, row: y, column: 4 + indent, limit: self.title, style: label)
        if showsType { screen.write("Kind", row: y, column: kindColumn, style: label) }
        screen.write("Released", row: y, column: dateColumn, style: label)
        if genres > 0 { screen.write("Genres", row: y, column: genresColumn, style: label) }
        screen.write("Rating", row: y, column: ratingColumn, style: label)
        if let score {
            screen.write(score.label, row: y, column: scoreColumn + Self.scoreColumns - DisplayWidth.columns(score.label), style: label)
        }
    }

    /// The row's lines from `y` reversed (the cursor's row), `›` on the first, the thumbnail's
    /// cells kept as they are.
    func paintSelected(row y: Int, into screen: inout ScreenBuffer) {
        let style = Self.selectedStyle
        for line in y..<y + height {
            if indent == 0 {
                screen.paint(row: line, count: width - 1, style: style)
            } else {
                screen.paint(row: line, count: 2, style: style)
                screen.paint(row: line, column: 2 + indent, count: width - 3 - indent, style: style)
            }
        }
        screen.write("›", row: y, column: 0, style: style)
    }

    func draw(_ item: TitleRow, selected: Bool, row y: Int, into screen: inout ScreenBuffer) {
        let base = selected ? Self.selectedStyle : CellStyle.plain
        if selected { paintSelected(row: y, into: &screen) }
        if item.saved {
            var star = base
            star.color = .saved
            screen.write("★", row: y, column: 2 + indent, style: star)
        }
        screen.write(item.title, row: y, column: 4 + indent, limit: title, style: base)
        if showsType {
            screen.write(item.key.mediaType == .movie ? "movie" : "series", row: y, column: kindColumn, style: base)
        }
        screen.write(item.date ?? item.year.map(String.init) ?? "", row: y, column: dateColumn, style: base)
        if genres > 0 {
            screen.write(Self.fitted(item.genres, width: genres), row: y, column: genresColumn, limit: genres, style: base)
        }
        let rating = item.rating.map(Self.oneDecimal) ?? "–"
        var ratingStyle = base
        ratingStyle.color = Self.color(ofRating: item.rating)
        screen.write(rating, row: y, column: ratingColumn + Self.ratingColumns - DisplayWidth.columns(rating), style: ratingStyle)
        if let score {
            let text = score.text(item.scores)
            screen.write(text, row: y, column: scoreColumn + Self.scoreColumns - DisplayWidth.columns(text), style: base)
        }
    }

    /// A person in the title rows' columns (Search): the name, `person` where the kind goes, the
    /// department where the genres go (or the date when the genres are left out).
    func draw(person name: String, department: String?, selected: Bool, row y: Int, into screen: inout ScreenBuffer) {
        let style = selected ? Self.selectedStyle : CellStyle.plain
        if selected { paintSelected(row: y, into: &screen) }
        screen.write(name, row: y, column: 4 + indent, limit: title, style: style)
        if showsType { screen.write("person", row: y, column: kindColumn, style: style) }
        let column = genres > 0 ? genresColumn : dateColumn
        screen.write(department ?? "", row: y, column: column, limit: genres > 0 ? genres : Self.dateColumns, style: style)
    }

    /// As many whole genres as fit in `width`, and how many more (`Action, Adventure +2`); the
    /// first one cut with `…` when even it does not fit.
    static func fitted(_ genres: [String], width: Int) -> String {
        var shown = ""
        for (index, genre) in genres.enumerated() {
            let joined = shown.isEmpty ? genre : shown + ", " + genre
            let rest = genres.count - index - 1
            let more = rest > 0 ? " +\(rest)" : ""
            if DisplayWidth.columns(joined + more) <= width {
                shown = joined
                continue
            }
            if shown.isEmpty { return genre }
            return shown + " +\(genres.count - index)"
        }
        return shown
    }

    /// TMDb's vote average coloured as sites colour scores: 7 and up good, 5 and up fair, below poor.
    static func color(ofRating rating: Double?) -> CellStyle.Color {
        guard let rating else { return .none }
        return rating >= 7 ? .good : rating >= 5 ? .fair : .poor
    }

    /// `7.25` as `7.3` (no Foundation in the view).
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
