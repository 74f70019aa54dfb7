import Reel

/// Where a title row's columns go at a screen width: `› ★ ` then the title (what is left), the
/// kind (saved list), year, genres and rating.
struct RowColumns {
    let width: Int
    let showsType: Bool
    let genres: Int
    let title: Int

    init(width: Int, showsType: Bool) {
        self.width = width
        self.showsType = showsType
        genres = width >= 120 ? 32 : width >= 100 ? 26 : 22
        // `› ★ ` (4), title, [2 + kind 6], 2 + year 4, 2 + genres, 2 + rating 3, a margin of 1.
        title = max(10, width - 4 - (showsType ? 8 : 0) - 6 - (2 + genres) - 5 - 1)
    }

    func draw(_ item: TitleRow, selected: Bool, row y: Int, into screen: inout ScreenBuffer) {
        let base = selected ? CellStyle([.reverse]) : CellStyle.plain
        if selected {
            screen.paint(row: y, count: width - 1, style: base)
            screen.write("›", row: y, column: 0, style: base)
        }
        if item.saved {
            var star = base
            star.color = .saved
            screen.write("★", row: y, column: 2, style: star)
        }
        var x = 4
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
    }

    /// `7.25` as `7.3` (no Foundation in the view).
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
