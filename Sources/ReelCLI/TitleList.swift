import Foundation
import Presentation
import Reel

/// Lists of titles as people and scripts see them: one row per title with its year, genres and
/// rating, a ★ on titles in the saved list, and a JSON form shared by every list command
/// (`Schemas/cli/title-list.schema.json#/$defs/title`).
struct TitleList {
    struct Row {
        let key: MediaKey
        let lookup: TitleLookup
        let savedAt: Int64?
        /// For saved lists: when the item was added.
        var addedAt: Int64? = nil
        /// For saved lists: OMDb's scores, when known.
        var omdb: OMDbScores? = nil
    }

    var rows: [Row] = []
    /// Show the media type column (lists that mix movies and series).
    var showsType = true
    /// Show the date each item was added (the saved list).
    var showsAdded = false
    /// Number the rows (the saved list).
    var numbered = false

    static let savedMark = "★"

    func render(width: Int) -> String {
        var headers = numbered ? ["#"] : []
        var alignments: [TextTable.Alignment] = numbered ? [.right] : []
        headers += [" "]
        alignments += [.left]
        if showsType { headers.append("TYPE"); alignments.append(.left) }
        headers += ["TMDB ID", "TITLE", "YEAR", "GENRES", "RATING"]
        alignments += [.right, .left, .right, .left, .right]
        let added = showsAdded ? Self.addedDays(rows) : (days: [], zone: "")
        // The IMDb rating, when OMDb gave any row one.
        let showsIMDb = rows.contains { $0.omdb?.imdbRating != nil }
        if showsIMDb { headers.append("IMDB"); alignments.append(.right) }
        if showsAdded { headers.append("ADDED (\(added.zone))"); alignments.append(.left) }
        func column(_ name: String) -> Int? { headers.firstIndex(of: name) }
        var table = TextTable(headers, alignments: alignments)
        table.reserveCapacity(rows: rows.count)
        var cells: [String] = []
        cells.reserveCapacity(headers.count)
        for (i, row) in rows.enumerated() {
            cells.removeAll(keepingCapacity: true)
            if numbered { cells.append(String(i + 1)) }
            cells.append(row.savedAt != nil ? Self.savedMark : " ")
            if showsType { cells.append(row.key.mediaType.rawValue) }
            cells.append(String(row.key.id))
            cells.append(row.lookup.placeholder)
            if case .known(let summary) = row.lookup {
                cells.append(summary.year.map(String.init) ?? "")
                cells.append(summary.genres.map(\.name).joined(separator: ", "))
                cells.append(Self.rating(summary))
            } else {
                cells += ["", "", ""]
            }
            if showsIMDb { cells.append(row.omdb?.imdbRating.map(Self.oneDecimal) ?? "") }
            if showsAdded { cells.append(added.days[i]) }
            table.add(cells)
        }
        // Genres give way first, then the title; at narrow widths whole columns go, least useful first.
        return table.render(
            width: width, flexible: [.init(column("GENRES")!, minimum: 12), .init(column("TITLE")!, minimum: 10)],
            droppable: ["IMDB", "ADDED (\(added.zone))", "GENRES", "RATING", "TYPE", "#"].compactMap(column))
    }

    /// Each row's day added on the shown zone's clock, and the zone for the header (`JST`,
    /// `CET/CEST`). Saved lists run to thousands of rows added on a few days: each day is
    /// written once.
    private static func addedDays(_ rows: [Row]) -> (days: [String], zone: String) {
        var texts: [Int64: String] = [:]
        var zones: [String] = []
        var days: [String] = []
        days.reserveCapacity(rows.count)
        for row in rows {
            guard let micros = row.addedAt else {
                days.append("")
                continue
            }
            let (number, zone) = Timestamp.dayNumber(micros)
            if zones.last != zone.name && !zones.contains(zone.name) { zones.append(zone.name) }
            if let text = texts[number] {
                days.append(text)
            } else {
                let text = Timestamp.day(number: number)
                texts[number] = text
                days.append(text)
            }
        }
        return (days, zones.isEmpty ? DisplayZone.offsetNow.name : zones.joined(separator: "/"))
    }

    /// `7.9 (31,204)`: the average and how many votes it rests on; `–` without votes.
    static func rating(_ summary: TitleSummary) -> String {
        summary.voteCount == 0 ? "–" : oneDecimal(summary.voteAverage) + " (\(grouped(summary.voteCount)))"
    }

    /// `String(format: "%.1f", value)`: the value's exact binary expansion rounded to tenths, ties
    /// to even, as the C library rounds; without Foundation's per-call cost (a saved list has
    /// thousands of rows). Negative, huge and non-finite values go to `String(format:)`.
    static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite, value.sign == .plus, value < 1e15 else { return String(format: "%.1f", value) }
        // n = 10 × value rounded, each comparison made with a fused multiply-add, whose sign is exact.
        var n = (value * 10).rounded(.down)
        if (-n).addingProduct(value, 10) < 0 { n -= 1 }
        if (-(n + 1)).addingProduct(value, 10) >= 0 { n += 1 }
        let overHalf = (-(n + 0.5)).addingProduct(value, 10)
        if overHalf > 0 || (overHalf == 0 && n.truncatingRemainder(dividingBy: 2) != 0) { n += 1 }
        let tenths = Int64(n)
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `n.formatted()`: grouped by thousands as the locale does. When the locale writes whole
    /// numbers as English does (checked once against `formatted()` itself), the groups are made
    /// here: `formatted()` costs microseconds a call.
    static func grouped(_ n: Int) -> String {
        guard groupsLikeEnglish, n >= 0 else { return n.formatted() }
        let digits = String(n)
        guard digits.utf8.count > 3 else { return digits }
        var text = ""
        text.reserveCapacity(digits.utf8.count * 4 / 3)
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.utf8.count - i) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// Loads the locale's number formats (a few milliseconds, once) on another thread, so they
    /// are ready by the time a long list writes its first rating.
    static func prepareNumbers() {
        Task.detached(priority: .userInitiated) { _ = groupsLikeEnglish }
    }

    private static let groupsLikeEnglish: Bool =
        999.formatted() == "999" && 1_000.formatted() == "1,000" && 12_345.formatted() == "12,345"
            && 1_234_567.formatted() == "1,234,567" && 1_234_567_890.formatted() == "1,234,567,890"
}
