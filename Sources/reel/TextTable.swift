/// Aligned columns for human output: every cell padded to its column's widest, by character count.
struct TextTable {
    enum Alignment { case left, right }

    let headers: [String]
    let alignments: [Alignment]
    private(set) var rows: [[String]] = []

    init(_ headers: [String], alignments: [Alignment]? = nil) {
        self.headers = headers
        self.alignments = alignments ?? headers.map { _ in .left }
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render() -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String], header: Bool) -> String {
            let padded = cells.enumerated().map { i, cell -> String in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                let isLast = i == cells.count - 1
                switch alignments[i] {
                case .left: return isLast ? cell : cell + pad
                case .right: return pad + cell
                }
            }
            let text = padded.joined(separator: "  ")
            return header ? Terminal.bold(text) : text
        }
        return ([line(headers, header: true)] + rows.map { line($0, header: false) }).joined(separator: "\n")
    }
}
