import Presentation
import Reel

/// Aligned columns for human output: every cell padded to its column's widest, in terminal
/// columns (`DisplayWidth`: a CJK character or an emoji takes two, a combining accent none).
/// Given a width, the table fits itself to it: flexible columns (titles, genres) shrink to their
/// minimum in the order given, cells that no longer fit end in an ellipsis (never half a wide
/// character: the cell is padded instead), and when even that is too wide, droppable columns are
/// left out in the order given. The last column may wrap instead: its long cells go on
/// continuation lines, indented to where the column starts.
struct TextTable {
    enum Alignment { case left, right }

    /// A column that may shrink, down to `minimum` columns.
    struct Flexible {
        let column: Int
        let minimum: Int

        init(_ column: Int, minimum: Int = 6) {
            self.column = column
            self.minimum = minimum
        }
    }

    let headers: [String]
    let alignments: [Alignment]
    /// The rows' cells, one row after another, `headers.count` to a row (lists run to thousands
    /// of rows: one array, not one per row), with each cell's width in columns, counted once.
    private var cells: [String] = []
    private var lengths: [Int] = []

    init(_ headers: [String], alignments: [Alignment]? = nil) {
        self.headers = headers
        self.alignments = alignments ?? headers.map { _ in .left }
    }

    var rowCount: Int { headers.isEmpty ? 0 : cells.count / headers.count }

    /// Room for `rows` rows, for a list that knows its length.
    mutating func reserveCapacity(rows: Int) {
        cells.reserveCapacity(rows * headers.count)
        lengths.reserveCapacity(rows * headers.count)
    }

    /// Adds a row: cells past the last column are left out, missing ones are empty. Cells hold
    /// titles, names and handles from elsewhere: each is made one terminal-safe line here, before
    /// its width is counted.
    mutating func add(_ row: [String]) {
        for i in headers.indices {
            let cell = i < row.count ? TerminalText.field(row[i]) : ""
            cells.append(cell)
            lengths.append(Self.length(cell))
        }
    }

    static let gap = 2

    /// The table, fitted to `width` columns when given. `wrapping` names the column (the last
    /// one, left-aligned) whose cells wider than it continue on the next lines instead of being
    /// cut. Flexible columns give way before any is dropped unless `droppingFirst`, when every
    /// droppable column goes before a flexible one is cut.
    func render(width: Int? = nil, flexible: [Flexible] = [], droppable: [Int] = [], wrapping: Int? = nil, droppingFirst: Bool = false) -> String {
        var kept = Array(headers.indices)
        let headerLengths = headers.map(Self.length)
        var widths = headerLengths
        for (i, n) in lengths.enumerated() { widths[i % widths.count] = max(widths[i % widths.count], n) }
        if let width {
            func total(_ w: [Int]) -> Int { kept.map { w[$0] }.reduce(Self.gap * (kept.count - 1), +) }
            var fitted = widths
            var toDrop = droppable[...]
            while droppingFirst, total(widths) > width, let next = toDrop.popFirst() { kept.removeAll { $0 == next } }
            while true {
                fitted = widths
                var excess = total(fitted) - width
                for flex in flexible where kept.contains(flex.column) && excess > 0 {
                    let cut = min(excess, max(0, fitted[flex.column] - flex.minimum))
                    fitted[flex.column] -= cut
                    excess -= cut
                }
                guard excess > 0, let next = toDrop.popFirst() else { break }
                kept.removeAll { $0 == next }
            }
            // A wrapping column loses nothing by narrowing: with nothing left to drop, it gives the
            // rest, down to a few columns.
            if let wrapping, kept.contains(wrapping), total(fitted) > width {
                fitted[wrapping] = max(min(fitted[wrapping], 8), fitted[wrapping] - (total(fitted) - width))
            }
            widths = fitted
        }
        // Lines are written as UTF-8 bytes into one buffer: tables run to thousands of rows.
        let lineCapacity = kept.map { widths[$0] * 2 }.reduce(Self.gap * kept.count, +)
        // Where the wrapping column starts, when it is the last one shown and left-aligned.
        let wrapped = wrapping.flatMap { column -> (column: Int, indent: Int)? in
            guard column == kept.last, alignments[column] == .left else { return nil }
            return (column, kept.dropLast().map { widths[$0] + Self.gap }.reduce(0, +))
        }
        /// The line of the cells at `first...` (`headers.count` of them) in `cells`.
        func line(_ cells: [String], _ lengths: [Int], from first: Int, into out: inout [UInt8]) {
            let start = out.count
            for (position, i) in kept.enumerated() {
                if position > 0 { Self.pad(&out, Self.gap) }
                var cell = cells[first + i]
                var length = lengths[first + i]
                if length > widths[i], let wrapped, wrapped.column == i {
                    Self.wrap(cell, width: widths[i], indent: wrapped.indent, into: &out)
                    continue
                }
                if length > widths[i] {
                    cell = Self.truncate(cell, to: widths[i])
                    length = Self.length(cell)
                }
                let pad = max(0, widths[i] - length)
                switch alignments[i] {
                case .left:
                    out.append(contentsOf: cell.utf8)
                    if position < kept.count - 1 { Self.pad(&out, pad) }
                case .right:
                    Self.pad(&out, pad)
                    out.append(contentsOf: cell.utf8)
                }
            }
            Self.trimSpaces(&out, lineFrom: start)
        }
        var header: [UInt8] = []
        header.reserveCapacity(lineCapacity)
        line(headers, headerLengths, from: 0, into: &header)
        var out = Array(Terminal.bold(String(decoding: header, as: UTF8.self)).utf8)
        out.reserveCapacity(out.count + rowCount * (lineCapacity + 1))
        for first in stride(from: 0, to: cells.count, by: max(1, headers.count)) {
            out.append(0x0A)
            line(cells, lengths, from: first, into: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `cell` on as many lines as it takes at `width` columns, each after the first indented by
    /// `indent` spaces.
    private static func wrap(_ cell: String, width: Int, indent: Int, into out: inout [UInt8]) {
        for (n, piece) in DisplayWidth.wrap(cell, width: width, breakingWords: true).enumerated() {
            if n > 0 {
                out.append(0x0A)
                pad(&out, indent)
            }
            out.append(contentsOf: piece.utf8)
        }
    }

    private static func pad(_ out: inout [UInt8], _ n: Int) {
        if n > 0 { out.append(contentsOf: repeatElement(0x20, count: n)) }
    }

    /// Removes the spaces that end the line starting at `start`: trailing space characters. A space
    /// after an ASCII byte is a character of its own; after anything else, Unicode decides whether it
    /// belongs to the character before it, so the line is trimmed as a `String`.
    private static func trimSpaces(_ out: inout [UInt8], lineFrom start: Int) {
        while out.count > start, out[out.count - 1] == 0x20 {
            if out.count - 1 == start || out[out.count - 2] < 0x80 {
                out.removeLast()
                continue
            }
            var line = String(decoding: out[start...], as: UTF8.self)
            while line.last == " " { line.removeLast() }
            out.removeSubrange(start...)
            out.append(contentsOf: line.utf8)
            return
        }
    }

    /// A cell's width in columns (`DisplayWidth`, which counts plain ASCII by its bytes).
    static func length(_ text: String) -> Int { DisplayWidth.columns(text) }

    /// `text` cut to `width` columns, the last one an ellipsis when anything was cut.
    static func truncate(_ text: String, to width: Int) -> String { DisplayWidth.truncate(text, to: width) }
}
