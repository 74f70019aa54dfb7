/// Aligned columns for human output: every cell padded to its column's widest, by character
/// count. Given a width, the table fits itself to it: flexible columns (titles, genres) shrink
/// to their minimum in the order given, cells that no longer fit end in an ellipsis, and when
/// even that is too wide, droppable columns are left out in the order given.
struct TextTable {
    enum Alignment { case left, right }

    /// A column that may shrink, down to `minimum` characters.
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
    private(set) var rows: [[String]] = []

    init(_ headers: [String], alignments: [Alignment]? = nil) {
        self.headers = headers
        self.alignments = alignments ?? headers.map { _ in .left }
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    static let gap = 2

    func render(width: Int? = nil, flexible: [Flexible] = [], droppable: [Int] = []) -> String {
        var kept = Array(headers.indices)
        var widths = headers.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        if let width {
            func total(_ w: [Int]) -> Int { kept.map { w[$0] }.reduce(Self.gap * (kept.count - 1), +) }
            var fitted = widths
            var toDrop = droppable[...]
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
            widths = fitted
        }
        func line(_ cells: [String], header: Bool) -> String {
            let padded = kept.enumerated().map { position, i -> String in
                let cell = Self.truncate(i < cells.count ? cells[i] : "", to: widths[i])
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                let isLast = position == kept.count - 1
                switch alignments[i] {
                case .left: return isLast ? cell : cell + pad
                case .right: return pad + cell
                }
            }
            var text = padded.joined(separator: String(repeating: " ", count: Self.gap))
            while text.last == " " { text.removeLast() }
            return header ? Terminal.bold(text) : text
        }
        return ([line(headers, header: true)] + rows.map { line($0, header: false) }).joined(separator: "\n")
    }

    /// `text` cut to `width` characters, the last one an ellipsis when anything was cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        var kept = String(text.prefix(width - 1))
        while kept.last == " " { kept.removeLast() }
        return kept + "…"
    }
}
