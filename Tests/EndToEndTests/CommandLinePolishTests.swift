import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Parts of issue 19 ("The command line a newcomer enjoys") through the built binary: points
/// past the end refused, times as `history` prints them accepted, names that hide or reorder
/// text refused, counts in words that agree, help that names commands that exist.
@Suite struct CommandLinePolishTests {
    typealias Ledger = LedgerHome

    static func ledger() async throws -> Ledger {
        let ledger = Ledger()
        for command in [["fav", "add", "movie", "550"], ["fav", "add", "movie", "603"], ["settings", "name", "Ann"]] {
            #expect(try await ledger.reel(command, user: "ann").status == 0)
        }
        return ledger
    }

    @Test func aPointPastTheEndIsRefusedNotShownAsToday() async throws {
        let ledger = try await Self.ledger()
        for command in ["saved", "history", "settings"] {
            try await ledger.fails([command, "--as-of", "v999"], user: "ann", status: 66, "the account 'ann' has reached stream version 4; stream version 999 is past its end")
            try await ledger.fails([command, "--as-of", "999999"], user: "ann", status: 66, "the ledger ends at position 4; position 999999 is past its end")
        }
        let last = try await ledger.reel(["saved", "--as-of", "v4"], user: "ann")
        #expect(last.status == 0 && last.stdout.contains("The Matrix") || last.stdout.contains("Matrix"), "\(last.stdout)\(last.stderr)")
    }

    /// A time without a zone is on the clock text output shows: UTC here (`TZ=UTC`, or `--utc`),
    /// and in Tokyo nine hours ahead, when the same words are before any event.
    @Test func aTimeAsHistoryPrintsItIsTakenInTheZoneTextIsShownIn() async throws {
        let ledger = try await Self.ledger()
        let history = try await ledger.json(["history"], user: "ann", schema: "history.schema.json")
        let events = history["events"] as? [[String: Any]] ?? []
        let second = try #require(events.count > 1 ? events[1]["recordedAt"] as? String : nil)  // 2026-11-24T07:56:01.123456Z
        let minuteLater = try #require(ISO8601DateFormatter().date(from: String(second.prefix(19)) + "Z")).addingTimeInterval(60)
        let printed = ISO8601DateFormatter().string(from: minuteLater)  // 2026-11-24T07:57:01Z
        let asHistoryPrints = String(printed.prefix(10)) + " " + String(printed.dropFirst(11).prefix(5))
        for point in [asHistoryPrints, String(printed.prefix(19)), printed] {
            let out = try await ledger.reel(["saved", "--as-of", point, "--json"], user: "ann", environment: ["TZ": "UTC"])
            #expect(out.status == 0, "--as-of \(point): \(out.stderr)")
        }
        let tokyo = ["TZ": "Asia/Tokyo"]
        for point in [asHistoryPrints, String(printed.prefix(19))] {
            let inTokyo = try await ledger.reel(["saved", "--as-of", point, "--json"], user: "ann", environment: tokyo)
            #expect(inTokyo.status == 66 && inTokyo.stderr.contains("had no events at"), "--as-of \(point) in Tokyo: \(inTokyo.stderr)")
            let utc = try await ledger.reel(["saved", "--as-of", point, "--json", "--utc"], user: "ann", environment: tokyo)
            #expect(utc.status == 0, "--as-of \(point) --utc in Tokyo: \(utc.stderr)")
        }
        let zoned = try await ledger.reel(["saved", "--as-of", printed, "--json"], user: "ann", environment: tokyo)
        #expect(zoned.status == 0, "--as-of \(printed) in Tokyo: \(zoned.stderr)")
        let bad = try await ledger.reel(["saved", "--as-of", "2026-11-24 25:00"], user: "ann")
        #expect(bad.status == 64, "\(bad.stderr)")
        // What is not a point says what one is.
        for (point, message) in [
            ("2026-11-24 25:00", "expected a log position (1234), a stream version (v12), a date (2026-11-24) or a time (2026-11-24 07:56"),
            ("yesterday", "expected a log position (1234)"), ("0", "log positions count from 1"), ("v0", "stream versions count from v1"),
        ] {
            try await ledger.fails(["saved", "--as-of", point], user: "ann", status: 64, message)
        }
    }

    @Test func namesThatHideOrReorderTextAreRefused() async throws {
        let ledger = try await Self.ledger()
        try await ledger.fails(["settings", "name", "Ann\u{202E}nnA"], user: "ann", status: 64, "invisible formatting characters (U+202E)")
        try await ledger.fails(["settings", "name", "\u{200B}\u{200B}"], user: "ann", status: 64, "invisible formatting characters (U+200B)")
        try await ledger.fails(["settings", "name", "\u{0301}\u{0301}"], user: "ann", status: 64, "a name needs at least one visible character")
        for blank in ["\u{3164}", "\u{115F}\u{1160}", "\u{2800}\u{2800}", "\u{FFA0}"] {
            try await ledger.fails(["settings", "name", blank], user: "ann", status: 64, "a name needs at least one visible character")
        }
        // Emoji sequences keep their joiners; accents on letters are letters.
        for name in ["👩‍👩‍👧 Family", "Renée", "می‌خواهم"] {
            let out = try await ledger.reel(["settings", "name", name], user: "ann")
            #expect(out.status == 0, "\(name): \(out.stderr)")
        }
    }

    @Test func countsReadInWordsThatAgree() async throws {
        let ledger = Ledger()
        #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: "ann").status == 0)
        let rebuilt = try await ledger.reel(["projections", "rebuild", "--check"])
        #expect(rebuilt.status == 0 && rebuilt.stdout.contains("2 events, 1 account,"), "\(rebuilt.stdout)")
    }

    @Test func importHelpNamesCommandsThatExist() async throws {
        let help = try await Harness.reel(["account", "import", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // as wrapped to any width
        #expect(!words.contains("export-letterboxd") && words.contains("reel account export --format letterboxd"), "\(help.stdout)")
    }
}
