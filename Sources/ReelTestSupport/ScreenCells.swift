import Foundation
public import Pictures

/// A terminal screen as `tmux capture-pane -p -e` prints it, read back into cells with the
/// colours each was drawn in, so a test can say where a picture is and what colour a person sees.
///
/// The app draws its own text in the terminal's palette colours, so a cell in 24-bit colour is a
/// picture's (`isPicture`); a picture drawn in 256 colours is measured through xterm's palette
/// (`seen`).
public struct ScreenCells: Sendable {
    /// A colour as the terminal was told it: a palette index (`30`–`37`, `90`–`97`, `38;5;n`) or
    /// 24 bits (`38;2;r;g;b`).
    public enum Colour: Sendable, Hashable {
        case palette(Int)
        case trueColour(RGB)

        /// What the colour looks like (a palette index through xterm's palette).
        public var rgb: RGB {
            switch self {
            case .palette(let index): ScreenCells.palette(index)
            case .trueColour(let colour): colour
            }
        }

        /// The 24-bit colour, or nil for a palette one.
        public var twentyFourBit: RGB? {
            if case .trueColour(let colour) = self { colour } else { nil }
        }
    }

    public struct Cell: Sendable {
        public var character: Unicode.Scalar
        public var foreground: Colour?
        public var background: Colour?
        public var reverse: Bool

        /// Drawn in 24-bit colour, glyph or background: a picture's cell.
        public var isPicture: Bool { foreground?.twentyFourBit != nil || background?.twentyFourBit != nil }

        /// Whether the cell has a colour of its own (not the terminal's default).
        public var isColoured: Bool { foreground != nil || background != nil }

        /// The colour a person sees: the glyph's colour over the cell's, by how much of the cell
        /// the glyph covers (the terminal's defaults where the cell has none).
        public var seen: (red: Double, green: Double, blue: Double) {
            let defaultForeground = RGB(229, 229, 229), defaultBackground = RGB(0, 0, 0)
            var ink = foreground?.rgb ?? defaultForeground, paper = background?.rgb ?? defaultBackground
            if reverse { swap(&ink, &paper) }
            return ScreenCells.mix(ink, over: paper, covering: ScreenCells.coverage(character))
        }
    }

    public private(set) var rows: [[Cell]] = []

    /// Reads a capture: SGR sequences set the colours, other sequences are skipped, and a wide
    /// character takes two cells (the second a space in its colours).
    public init(capture: String) {
        var foreground: Colour?, background: Colour?, reverse = false
        var row: [Cell] = []
        let scalars = Array(capture.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
                var end = index + 2
                while end < scalars.count, !(0x40...0x7E).contains(scalars[end].value) { end += 1 }
                guard end < scalars.count else { break }
                if scalars[end] == "m" {
                    let parameters = String(String.UnicodeScalarView(scalars[(index + 2)..<end]))
                    Self.apply(parameters, &foreground, &background, &reverse)
                }
                index = end + 1
                continue
            }
            if scalar == "\n" {
                rows.append(row)
                row = []
            } else {
                row.append(Cell(character: scalar, foreground: foreground, background: background, reverse: reverse))
                if Self.isWide(scalar) { row.append(Cell(character: " ", foreground: foreground, background: background, reverse: reverse)) }
            }
            index += 1
        }
        if !row.isEmpty { rows.append(row) }
    }

    // MARK: Pictures among text (24-bit cells)

    /// Where the picture cells are, as (row, column).
    public var pictureCells: [(row: Int, column: Int)] {
        rows.enumerated().flatMap { y, row in row.indices.filter { row[$0].isPicture }.map { (y, $0) } }
    }

    /// Whether any cell of `rows`×`columns` is a picture's.
    public func hasPicture(rows lines: Range<Int>, columns: Range<Int>) -> Bool {
        pictureCells.contains { lines.contains($0.row) && columns.contains($0.column) }
    }

    /// The text of `row` (cells `columns`), spaces trimmed.
    public func text(row: Int, columns: Range<Int>) -> String {
        guard rows.indices.contains(row) else { return "" }
        let cells = rows[row]
        var characters = String.UnicodeScalarView()
        for column in columns where cells.indices.contains(column) { characters.append(cells[column].character) }
        return String(characters).trimmingCharacters(in: .whitespaces)
    }

    /// The mean colour a person sees in the picture cells of `rows`×`columns`, from their 24-bit
    /// colours alone (a cell with one shows it as glyph and background both).
    public func meanColour(rows lines: Range<Int>, columns: Range<Int>) -> (red: Double, green: Double, blue: Double)? {
        var sums = (0.0, 0.0, 0.0), count = 0.0
        for (y, x) in pictureCells where lines.contains(y) && columns.contains(x) {
            let cell = rows[y][x]
            guard let ink = cell.foreground?.twentyFourBit ?? cell.background?.twentyFourBit,
                let paper = cell.background?.twentyFourBit ?? cell.foreground?.twentyFourBit
            else { continue }
            let seen = Self.mix(ink, over: paper, covering: Self.coverage(cell.character))
            sums = (sums.0 + seen.red, sums.1 + seen.green, sums.2 + seen.blue)
            count += 1
        }
        return count == 0 ? nil : (sums.0 / count, sums.1 / count, sums.2 / count)
    }

    // MARK: A picture alone on a screen (any colour)

    /// The smallest box holding every coloured cell: (columns, rows) from the top-left.
    public var colouredBox: (firstColumn: Int, columns: Int, firstRow: Int, rows: Int)? {
        var columns: [Int] = [], lines: [Int] = []
        for (y, row) in rows.enumerated() {
            for (x, cell) in row.enumerated() where cell.isColoured {
                columns.append(x)
                lines.append(y)
            }
        }
        guard let left = columns.min(), let right = columns.max(), let top = lines.min(), let bottom = lines.max() else { return nil }
        return (left, right - left + 1, top, bottom - top + 1)
    }

    /// The mean seen colour of the cells in a part of a box of `columns`×`rows` cells at the
    /// top-left, given as fractions.
    public func mean(columns: Int, rows: Int, x: Range<Double> = 0..<1, y: Range<Double> = 0..<1) -> (red: Double, green: Double, blue: Double) {
        var sums = (0.0, 0.0, 0.0), count = 0.0
        for line in Int(y.lowerBound * Double(rows))..<Int((y.upperBound * Double(rows)).rounded(.up)) where line < self.rows.count {
            for column in Int(x.lowerBound * Double(columns))..<Int((x.upperBound * Double(columns)).rounded(.up)) {
                guard column < self.rows[line].count else { continue }
                let seen = self.rows[line][column].seen
                sums.0 += seen.red
                sums.1 += seen.green
                sums.2 += seen.blue
                count += 1
            }
        }
        return (sums.0 / max(count, 1), sums.1 / max(count, 1), sums.2 / max(count, 1))
    }

    // MARK: Reading

    private static func mix(_ ink: RGB, over paper: RGB, covering cover: Double) -> (red: Double, green: Double, blue: Double) {
        func mix(_ a: UInt8, _ b: UInt8) -> Double { Double(a) * cover + Double(b) * (1 - cover) }
        return (mix(ink.red, paper.red), mix(ink.green, paper.green), mix(ink.blue, paper.blue))
    }

    private static func apply(_ text: String, _ foreground: inout Colour?, _ background: inout Colour?, _ reverse: inout Bool) {
        let parameters = text.isEmpty ? [0] : text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        var index = 0
        while index < parameters.count {
            let parameter = parameters[index]
            switch parameter {
            case 0:
                foreground = nil
                background = nil
                reverse = false
            case 7: reverse = true
            case 27: reverse = false
            case 39: foreground = nil
            case 49: background = nil
            case 30...37: foreground = .palette(parameter - 30)
            case 90...97: foreground = .palette(parameter - 90 + 8)
            case 40...47: background = .palette(parameter - 40)
            case 100...107: background = .palette(parameter - 100 + 8)
            case 38, 48:
                var colour: Colour?
                if index + 4 < parameters.count, parameters[index + 1] == 2 {
                    colour = .trueColour(
                        RGB(UInt8(clamping: parameters[index + 2]), UInt8(clamping: parameters[index + 3]), UInt8(clamping: parameters[index + 4])))
                    index += 4
                } else if index + 2 < parameters.count, parameters[index + 1] == 5 {
                    colour = .palette(parameters[index + 2])
                    index += 2
                }
                if parameter == 38 { foreground = colour } else { background = colour }
            default: break
            }
            index += 1
        }
    }

    /// xterm's 256 colours.
    public static func palette(_ index: Int) -> RGB {
        let sixteen: [RGB] = [
            RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0), RGB(0, 0, 238), RGB(205, 0, 205), RGB(0, 205, 205),
            RGB(229, 229, 229), RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0), RGB(255, 255, 0), RGB(92, 92, 255),
            RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
        ]
        switch index {
        case 0..<16: return sixteen[index]
        case 16..<232:
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let cube = index - 16
            return RGB(levels[cube / 36], levels[cube / 6 % 6], levels[cube % 6])
        default:
            let grey = UInt8(clamping: 8 + 10 * (index - 232))
            return RGB(grey, grey, grey)
        }
    }

    /// How much of a cell a symbol's ink covers: block elements exactly, box drawing roughly.
    public static func coverage(_ character: Unicode.Scalar) -> Double {
        switch character.value {
        case 0x20: 0
        case 0x2580, 0x2590, 0x2592, 0x259A, 0x259E: 0.5
        case 0x2581...0x2588: Double(character.value - 0x2580) / 8
        case 0x2589...0x258F: Double(0x2590 - character.value) / 8
        case 0x2591: 0.25
        case 0x2593: 0.75
        case 0x2594, 0x2595: 0.125
        case 0x2596, 0x2597, 0x2598, 0x259D: 0.25
        case 0x2599, 0x259B, 0x259C, 0x259F: 0.75
        case 0x2500...0x257F: 0.2
        default: 0.5
        }
    }

    /// East Asian wide characters and emoji, roughly: enough for the titles the tests show.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(scalar.value) }
    }
}
