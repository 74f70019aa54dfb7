import Foundation

/// The side-by-side result table.
struct Table {
    private var rows: [[String]]

    init(columns: [String] = ["benchmark", "Reel", "raw LMDB (C)", "SQLite", "target", "met"]) {
        rows = [columns]
    }

    /// A row of cells already formatted.
    mutating func row(_ cells: [String]) { rows.append(cells) }

    mutating func row(_ name: String, reel: Double, lmdb: Double?, sqlite: Double?, target: String, met: Bool?, decimals: Int = 0) {
        func format(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "–" }
            if decimals > 0 { return String(format: "%.\(decimals)f", value) }
            return Int(value.rounded()).formatted(.number.grouping(.automatic))
        }
        rows.append([name, format(reel), format(lmdb), format(sqlite), target, met.map { $0 ? "yes" : "NO" } ?? ""])
    }

    func print() {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for (index, row) in rows.enumerated() {
            let cells = row.enumerated().map { column, cell in
                column == 0 || column >= 4 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }
            Swift.print(cells.joined(separator: "  "))
            if index == 0 { Swift.print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
    }
}
