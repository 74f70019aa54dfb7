import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// The saved list writes each rating as `String(format: "%.1f", average)` and the vote count as
/// `Int.formatted()` would (`8.4 (27,917)`, `–` without votes), without calling them per row:
/// every sample title, and synthetic titles from `fake-tmdb`, checked against Foundation itself.
@Suite struct SavedListRatingTests {
    typealias Viewer = ViewerCommandTests

    static func expected(average: Double, votes: Int) -> String {
        votes == 0 ? "–" : String(format: "%.1f", average) + " (\(votes.formatted()))"
    }

    /// Each table row's RATING cell: `8.4 (27,917)` (the average and its votes) or `–`, the last
    /// cell of that shape (the IMDB column after it, when OMDb gave scores, is a bare `8.6`; the
    /// ADDED date ends the row).
    static func ratings(_ text: String) -> [Int: String] {
        var found: [Int: String] = [:]
        let shape = try! Regex(#"^([0-9]+\.[0-9] \([0-9,]+\)|–)$"#)
        for (id, line) in Viewer.tableRows(text, skip: 1) {
            let cells = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard let rating = cells.dropFirst(2).last(where: { $0.wholeMatch(of: shape) != nil }) else { continue }
            found[id] = rating
        }
        return found
    }

    @Test func everySampleTitlesRatingReadsAsFoundationWritesIt() async throws {
        let home = Viewer.home(nil, columns: 250)
        for (type, file) in [("movie", "movies"), ("tv", "series")] {
            let entries = try Viewer.sampleData(file)
            let ids = Viewer.ids(entries).map(String.init)
            #expect(try await home.reel(["fav", "add", type] + ids).status == 0)
            let shown = await Self.ratings(try Viewer.text(home, ["saved", "--type", type], sample: true))
            #expect(shown.count == entries.count, "\(type): \(shown.count) rows")
            for entry in entries {
                guard let id = entry["id"] as? Int, let average = (entry["vote_average"] as? NSNumber)?.doubleValue,
                      let votes = entry["vote_count"] as? Int else { continue }
                #expect(shown[id] == Self.expected(average: average, votes: votes), "\(type) \(id)")
            }
        }
    }

    @Test func syntheticTitlesRatingsReadAsFoundationWritesThem() async throws {
        let server = try FakeTMDbProcess(["--synthetic-movies", "2100"])
        var home = Viewer.home(server, columns: 250)
        home.environment["REEL_TMDB_RATE"] = "10000"
        // Synthetic title n: average (n % 100) / 10, (n % 1000) votes: no votes for n = 1000 and 2000.
        let numbers = Array(1...40) + [99, 100, 101, 555, 999, 1000, 1001, 1999, 2000, 2001, 2099]
        #expect(try await home.reel(["fav", "add", "movie"] + numbers.map { String(90_000_000 + $0) }).status == 0)
        let shown = await Self.ratings(try Viewer.text(home, ["saved"], sample: false))
        for n in numbers {
            #expect(shown[90_000_000 + n] == Self.expected(average: Double(n % 100) / 10, votes: n % 1000), "synthetic \(n)")
        }
    }
}
