import Foundation
import Reel

/// A pane as `tmux capture-pane -p -e` prints it, read back into cells with the 24-bit colours
/// each was drawn in. The app draws its own text in the terminal's 16 colours, so a cell in 24-bit
/// colour is a picture's (symbols: block characters in the picture's colours).
struct PaneCells {
    struct Cell {
        var character: Unicode.Scalar
        var foreground: RGB?
        var background: RGB?

        var isPicture: Bool { foreground != nil || background != nil }
    }

    private(set) var rows: [[Cell]] = []

    init(capture: String) {
        var foreground: RGB?, background: RGB?
        var row: [Cell] = []
        let scalars = Array(capture.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
                var end = index + 2
                while end < scalars.count, !(0x40...0x7E).contains(scalars[end].value) { end += 1 }
                guard end < scalars.count else { break }
                if scalars[end] == "m" { Self.apply(String(String.UnicodeScalarView(scalars[(index + 2)..<end])), &foreground, &background) }
                index = end + 1
                continue
            }
            if scalar == "\n" {
                rows.append(row)
                row = []
            } else {
                row.append(Cell(character: scalar, foreground: foreground, background: background))
                // A wide character takes two cells.
                if Self.isWide(scalar) { row.append(Cell(character: " ", foreground: foreground, background: background)) }
            }
            index += 1
        }
        if !row.isEmpty { rows.append(row) }
    }

    /// Where the picture cells are, as (row, column).
    var pictureCells: [(row: Int, column: Int)] {
        rows.enumerated().flatMap { y, row in row.indices.filter { row[$0].isPicture }.map { (y, $0) } }
    }

    /// Whether any cell of `rows`×`columns` is a picture's.
    func hasPicture(rows lines: Range<Int>, columns: Range<Int>) -> Bool {
        pictureCells.contains { lines.contains($0.row) && columns.contains($0.column) }
    }

    /// The text of `row` (cells `columns`), spaces trimmed.
    func text(row: Int, columns: Range<Int>) -> String {
        guard rows.indices.contains(row) else { return "" }
        let cells = rows[row]
        let characters = columns.compactMap { cells.indices.contains($0) ? Character(cells[$0].character) : nil }
        return String(characters).trimmingCharacters(in: .whitespaces)
    }

    /// The mean colour a person sees in the picture cells of `rows`×`columns`: each cell's glyph
    /// colour over its background by how much of the cell the glyph covers (a space shows only
    /// its background, a full block only its glyph).
    func meanColour(rows lines: Range<Int>, columns: Range<Int>) -> (red: Double, green: Double, blue: Double)? {
        var sums = (0.0, 0.0, 0.0), count = 0.0
        for (y, x) in pictureCells where lines.contains(y) && columns.contains(x) {
            let cell = rows[y][x]
            let cover = Self.coverage(cell.character)
            let ink = cell.foreground ?? cell.background!, paper = cell.background ?? cell.foreground!
            func mix(_ a: UInt8, _ b: UInt8) -> Double { Double(a) * cover + Double(b) * (1 - cover) }
            sums = (sums.0 + mix(ink.red, paper.red), sums.1 + mix(ink.green, paper.green), sums.2 + mix(ink.blue, paper.blue))
            count += 1
        }
        return count == 0 ? nil : (sums.0 / count, sums.1 / count, sums.2 / count)
    }

    /// How much of a cell a symbol's ink covers: block elements exactly, box drawing roughly.
    static func coverage(_ character: Unicode.Scalar) -> Double {
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

    /// Only 24-bit colours are kept: `38;2;r;g;b` and `48;2;r;g;b`; any other colour or a reset
    /// clears them.
    private static func apply(_ text: String, _ foreground: inout RGB?, _ background: inout RGB?) {
        let parameters = text.isEmpty ? [0] : text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        var index = 0
        while index < parameters.count {
            let parameter = parameters[index]
            switch parameter {
            case 0:
                (foreground, background) = (nil, nil)
            case 30...39, 90...97: foreground = nil
            case 40...49, 100...107: background = nil
            default: break
            }
            if parameter == 38 || parameter == 48 {
                var colour: RGB?
                if index + 4 < parameters.count, parameters[index + 1] == 2 {
                    colour = RGB(UInt8(clamping: parameters[index + 2]), UInt8(clamping: parameters[index + 3]), UInt8(clamping: parameters[index + 4]))
                    index += 4
                } else if index + 2 < parameters.count, parameters[index + 1] == 5 {
                    index += 2
                }
                if parameter == 38 { foreground = colour } else { background = colour }
            }
            index += 1
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
