import Presentation
import Reel

/// Where a title row's columns go at a screen width: `› ★ ` then the title (what is left), the
/// kind (saved list), year, genres and rating, and on the saved list one of OMDb's scores
/// (`IMDb 8.8`, `MC 66`, `RT 79%`) when the width leaves the title 20 columns with it: the
/// first column given up on a narrow screen. With thumbnails the row is `height` lines tall and
/// its columns start `indent` further right, past the thumbnail's cells, which are left alone
/// (not even reversed under the cursor: the picture covers them).
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
    }

    let width: Int
    let showsType: Bool
    let genres: Int
    let title: Int
    let indent: Int
    let height: Int
    /// The score column, when asked for and the width allows it.
    let score: Score?

    /// The score column's width, right-aligned (`IMDb 8.8`), after a gap of 2.
    static let scoreColumns = 8
    /// The least a title keeps beside the score column: narrower, the column is left out.
    static let titleBesideScore = 20

    init(width: Int, showsType: Bool, indent: Int = 0, height: Int = 1, score: Score? = nil) {
        self.width = width
        self.showsType = showsType
        self.indent = indent
        self.height = max(1, height)
        genres = width >= 120 ? 32 : width >= 100 ? 26 : 22
        // `› ★ ` (4), title, [2 + kind 6], 2 + year 4, 2 + genres, 2 + rating 3, [2 + score 8], a margin of 1.
        let rest = width - 4 - indent - (showsType ? 8 : 0) - 6 - (2 + genres) - 5 - 1
        self.score = rest - 2 - Self.scoreColumns >= Self.titleBesideScore ? score : nil
        title = max(10, rest - (self.score == nil ? 0 : 2 + Self.scoreColumns))
    }

    /// The row's lines from `y` reversed (the cursor's row), `›` on the first, the thumbnail's
    /// cells kept as they are.
    func paintSelected(row y: Int, into screen: inout ScreenBuffer) {
        let style = CellStyle([.reverse])
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
        let base = selected ? CellStyle([.reverse]) : CellStyle.plain
        if selected { paintSelected(row: y, into: &screen) }
        if item.saved {
            var star = base
            star.color = .saved
            screen.write("★", row: y, column: 2 + indent, style: star)
        }
        var x = 4 + indent
        screen.write(item.title, row: y, column: x, limit: title, style: base)
        x += title
        if showsType {
            screen.write(item.key.mediaType == .movie ? "movie" : "series", row: y, column: x + 2, style: base)
            x += 8
        }
        screen.write(item.year.map(String.init) ?? "", row: y, column: x + 2, style: base)
        x += 6
        screen.write(item.genres.joined(separator: ", "), row: y, column: x + 2, limit: genres, style: base)
        x += 2 + genres
        let rating = item.rating.map(Self.oneDecimal) ?? "–"
        screen.write(rating, row: y, column: x + 2 + 3 - DisplayWidth.columns(rating), style: base)
        x += 5
        if let score {
            let text = score.text(item.scores)
            screen.write(text, row: y, column: x + 2 + Self.scoreColumns - DisplayWidth.columns(text), style: base)
        }
    }

    /// `7.25` as `7.3` (no Foundation in the view).
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
