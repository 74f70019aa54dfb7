import Presentation
import Reel

/// The screen as rows of cells, drawn by `AppView` and copied to the terminal by the driver. A
/// wide character (CJK, most emoji) takes two cells: its own, and a continuation cell with no
/// text after it. Text is cleaned (`TerminalText.field`) on its way in: catalog text never
/// reaches the terminal as control sequences. `links` are the cells that link to a URL (a
/// trailer on the details screen): the driver makes them OSC 8 hyperlinks where the terminal
/// shows them; they count in equality, so a changed link is drawn again. `pictures` are the
/// boxes of blank cells a picture is drawn over (a poster, a thumbnail, a photo): the driver
/// writes them after curses drew the text, and takes each away when it is no longer there.
public struct ScreenBuffer: Sendable, Equatable {
    public struct Cell: Sendable, Equatable, Hashable {
        /// One character (with what combines with it); `""` for the right half of a wide one.
        public var text: String
        public var style: CellStyle

        public static let blank = Cell(text: " ", style: .plain)
    }

    /// `width` cells of `row` from `column` that link to `url` (a safe one, `Hyperlinks.safe`).
    public struct Link: Sendable, Equatable, Hashable {
        public var row: Int
        public var column: Int
        public var width: Int
        public var url: String
    }

    /// `picture` over its cells from `row`, `column` (they stay blank in `rows`).
    public struct Placement: Sendable, Equatable {
        public var row: Int
        public var column: Int
        public var key: PictureKey
        public var picture: DrawnPicture

        public init(row: Int, column: Int, key: PictureKey, picture: DrawnPicture) {
            self.row = row
            self.column = column
            self.key = key
            self.picture = picture
        }

        public var columns: Int { picture.columns }
        /// The screen rows it covers.
        public var lines: Range<Int> { row..<row + picture.rows }

        /// Whether it covers a cell of `row` in `columns`.
        func overlaps(row: Int, columns: Range<Int>) -> Bool {
            lines.contains(row) && columns.overlaps(column..<column + self.columns)
        }
    }

    public let width: Int
    public let height: Int
    public private(set) var rows: [[Cell]]
    public private(set) var links: [Link] = []
    public private(set) var pictures: [Placement] = []

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        rows = Array(repeating: Array(repeating: .blank, count: self.width), count: self.height)
    }

    /// Writes `text` on `row` from `column`, within `limit` columns (to the right edge without
    /// one), cut with `…` when it does not fit; returns the columns written. A wide character
    /// that would straddle the limit is left out (the cell stays blank). A link or a picture
    /// whose cells it writes over (the help over the details) is a link or a picture no more.
    @discardableResult
    public mutating func write(_ text: String, row: Int, column: Int, limit: Int? = nil, style: CellStyle = .plain) -> Int {
        guard row >= 0, row < height, column >= 0, column < width else { return 0 }
        let room = min(limit ?? width - column, width - column)
        guard room > 0 else { return 0 }
        let fitted = DisplayWidth.truncate(TerminalText.field(text), to: room)
        var x = column
        for character in fitted {
            let w = DisplayWidth.columns(character)
            guard w > 0 else { continue }
            guard x + w <= column + room else { break }
            rows[row][x] = Cell(text: String(character), style: style)
            if w == 2 { rows[row][x + 1] = Cell(text: "", style: style) }
            x += w
        }
        if x > column {
            links.removeAll { $0.row == row && $0.column < x && column < $0.column + $0.width }
            pictures.removeAll { $0.overlaps(row: row, columns: column..<x) }
        }
        return x - column
    }

    /// `(r retries)`, kept on one line by `writeWrapped` (a no-break space, written as a space).
    public static let retries = "(r\u{00A0}retries)"

    /// Writes `text` from `row` on, wrapped at spaces to `limit` columns (to the right edge
    /// without one) over at most `lines` lines (to the bottom without), the last cut at a word
    /// with `…` when it needs more: a message says all it can and is never cut mid-word (an
    /// error's "r retries" stays). Returns the lines written.
    @discardableResult
    public mutating func writeWrapped(
        _ text: String, row: Int, column: Int, limit: Int? = nil, lines: Int? = nil, style: CellStyle = .plain
    ) -> Int {
        guard row >= 0, row < height, column >= 0, column < width else { return 0 }
        let room = min(limit ?? width - column, width - column)
        let available = min(lines ?? height - row, height - row)
        guard room > 0, available > 0 else { return 0 }
        var wrapped = DisplayWidth.wrap(TerminalText.field(text), width: room, breakingWords: true)
        if wrapped.count > available {
            let rest = wrapped[(available - 1)...].joined(separator: " ")
            wrapped = Array(wrapped.prefix(available - 1)) + [DisplayWidth.truncateAtWord(rest, to: room)]
        }
        for (offset, line) in wrapped.enumerated() {
            write(String(line.map { $0 == "\u{00A0}" ? " " : $0 }), row: row + offset, column: column, limit: room, style: style)
        }
        return wrapped.count
    }

    /// Places `picture` (drawn for `key`) with its top-left at `row`, `column`, over cells left
    /// blank. Placed only whole within the screen, clear of its last column (a terminal's cursor
    /// stays there after the last cell of a line, one short), and once per screen: the same key
    /// again (a title listed twice) is not placed twice, as a kitty image is one per id.
    public mutating func place(_ picture: DrawnPicture, key: PictureKey, row: Int, column: Int) {
        guard row >= 0, column >= 0, picture.rows > 0, picture.columns > 0, row + picture.rows <= height,
            column + picture.columns <= width - 1, !pictures.contains(where: { $0.key == key })
        else { return }
        pictures.append(Placement(row: row, column: column, key: key, picture: picture))
    }

    /// Makes `width` cells of `row` from `column` (text written already) a link to `url`, kept
    /// within the screen; an unsafe URL (`Hyperlinks.safe`) or no cells makes none.
    public mutating func link(row: Int, column: Int, width: Int, url: String) {
        guard row >= 0, row < height, column >= 0, column < self.width, let url = Hyperlinks.safe(url) else { return }
        let width = min(width, self.width - column)
        guard width > 0 else { return }
        links.append(Link(row: row, column: column, width: width, url: url))
    }

    /// Sets the style of `count` cells of `row` from `column` (a highlighted row, a bar).
    public mutating func paint(row: Int, column: Int = 0, count: Int? = nil, style: CellStyle) {
        guard row >= 0, row < height else { return }
        let end = min(width, column + (count ?? width - column))
        guard column < end else { return }
        for x in column..<end { rows[row][x].style = style }
    }

    /// The screen as text, one string per row with trailing spaces dropped: what a test compares.
    public func lines() -> [String] {
        rows.map { cells in
            var line = cells.map(\.text).joined()
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
