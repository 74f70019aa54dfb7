import Reel

/// The screen as rows of cells, drawn by `AppView` and copied to the terminal by the driver. A
/// wide character (CJK, most emoji) takes two cells: its own, and a continuation cell with no
/// text after it. Text is cleaned (`TerminalText.field`) on its way in: catalog text never
/// reaches the terminal as control sequences. `links` are the cells that link to a URL (a
/// trailer on the details screen): the driver makes them OSC 8 hyperlinks where the terminal
/// shows them; they count in equality, so a changed link is drawn again.
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

    public let width: Int
    public let height: Int
    public private(set) var rows: [[Cell]]
    public private(set) var links: [Link] = []

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        rows = Array(repeating: Array(repeating: .blank, count: self.width), count: self.height)
    }

    /// Writes `text` on `row` from `column`, within `limit` columns (to the right edge without
    /// one), cut with `…` when it does not fit; returns the columns written. A wide character
    /// that would straddle the limit is left out (the cell stays blank). A link whose cells it
    /// writes over (the help over the details) is a link no more.
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
        if x > column { links.removeAll { $0.row == row && $0.column < x && column < $0.column + $0.width } }
        return x - column
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
