import Catalog
import Foundation
import Ledger
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
        if showsAdded { headers.append("ADDED"); alignments.append(.left) }
        func column(_ name: String) -> Int? { headers.firstIndex(of: name) }
        var table = TextTable(headers, alignments: alignments)
        for (i, row) in rows.enumerated() {
            var cells = numbered ? [String(i + 1)] : []
            cells.append(row.savedAt != nil ? Self.savedMark : " ")
            if showsType { cells.append(row.key.mediaType.rawValue) }
            let summary = row.lookup.summary
            cells += [
                String(row.key.id), row.lookup.placeholder, summary?.year.map(String.init) ?? "",
                summary.map { $0.genres.map(\.name).joined(separator: ", ") } ?? "",
                summary.map(Self.rating) ?? "",
            ]
            if showsAdded { cells.append(row.addedAt.map(Timestamp.day) ?? "") }
            table.add(cells)
        }
        // Genres give way first, then the title; at narrow widths whole columns go, least useful first.
        return table.render(
            width: width, flexible: [.init(column("GENRES")!, minimum: 12), .init(column("TITLE")!, minimum: 10)],
            droppable: ["ADDED", "GENRES", "RATING", "TYPE", "#"].compactMap(column))
    }

    /// `7.9 (31,204)`: the average and how many votes it rests on; `–` without votes.
    static func rating(_ summary: TitleSummary) -> String {
        summary.voteCount == 0 ? "–" : String(format: "%.1f", summary.voteAverage) + " (\(summary.voteCount.formatted()))"
    }

    static func json(_ row: Row) -> JSONValue {
        let s = row.lookup.summary
        var problem: JSONValue = .null
        if case .failed(let reason) = row.lookup { problem = .string(reason) }
        return [
            "mediaType": .string(row.key.mediaType.rawValue), "id": .integer(row.key.id), "details": .string(row.lookup.status),
            "title": .init(s.map { .string($0.title) }), "originalTitle": .init(s?.originalTitle.map(JSONValue.string)),
            "date": .init(s?.date.map { .string($0.description) }), "year": .init(s?.year.map { .integer(Int64($0)) }),
            "genres": .init(s.map { .array($0.genres.map { ["id": .integer(Int64($0.id)), "name": .string($0.name)] }) }),
            "voteAverage": .init(s.map { .double($0.voteAverage) }), "voteCount": .init(s.map { .integer(Int64($0.voteCount)) }),
            "popularity": .init(s.map { .double($0.popularity) }), "posterPath": .init(s?.posterPath.map(JSONValue.string)),
            "saved": .bool(row.savedAt != nil), "savedAt": JSONForm.time(row.savedAt), "problem": problem,
        ]
    }

    /// A title's catalog details for documents that keep them (the export).
    static func detailsJSON(_ s: TitleSummary) -> JSONValue {
        [
            "title": .string(s.title), "originalTitle": .init(s.originalTitle.map(JSONValue.string)),
            "date": .init(s.date.map { .string($0.description) }), "year": .init(s.year.map { .integer(Int64($0)) }),
            "genres": .array(s.genres.map { ["id": .integer(Int64($0.id)), "name": .string($0.name)] }),
            "voteAverage": .double(s.voteAverage), "voteCount": .integer(Int64(s.voteCount)),
            "posterPath": .init(s.posterPath.map(JSONValue.string)),
        ]
    }

    /// One line per kind of missing detail, for stderr or the JSON `notices`.
    static func notices(for lookups: [TitleLookup], sample: Bool) -> [String] {
        var notices: [String] = []
        let notCached = lookups.filter { $0 == .notCached }.count
        if notCached > 0 { notices.append("offline: \(notCached) title\(notCached == 1 ? "'s" : "s'") details are not cached") }
        let notFound = lookups.filter { $0 == .notFound }.count
        if notFound > 0 {
            let titles = "\(notFound) of these titles"
            notices.append(sample ? "the sample catalog does not know \(titles) (TMDb credentials show every title)" : "TMDb does not have \(titles) (any more)")
        }
        let failed = lookups.compactMap { if case .failed(let reason) = $0 { reason } else { nil } }
        if let first = failed.first {
            notices.append("details of \(failed.count) title\(failed.count == 1 ? "" : "s") could not be fetched: \(first)")
        }
        return notices
    }
}
