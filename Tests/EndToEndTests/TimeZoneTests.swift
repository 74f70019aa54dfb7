import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Issue 19: every time in text output is on the local clock (`TZ`) with its zone named once, or
/// in UTC with `--utc` or `REEL_UTC=1`; `--json` stays UTC. The expected texts are worked out here
/// from the `--json` times with Foundation's calendar, not with Reel's code.
@Suite struct TimeZoneTests {
    typealias Ledger = LedgerHome

    static let tokyo = ["TZ": "Asia/Tokyo"]

    /// Ann saves Fight Club, then, in a later second, The Matrix, and names herself.
    static func ledger() async throws -> Ledger {
        let ledger = Ledger()
        #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: "ann").status == 0)
        // A fixed delay is what this needs: the next save is recorded in a later second.
        try await Task.sleep(for: .milliseconds(1100))
        for command in [["fav", "add", "movie", "603"], ["settings", "name", "Ann"]] {
            #expect(try await ledger.reel(command, user: "ann").status == 0)
        }
        return ledger
    }

    /// `2026-11-24T19:34:15.807963Z` as `yyyy-MM-dd HH:mm:ss` (or another pattern) on `zone`'s clock.
    static func wall(_ iso: String, in zone: String, _ pattern: String = "yyyy-MM-dd HH:mm:ss") throws -> String {
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(parser.date(from: iso), "\(iso)")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    /// The `--json` times (always UTC) of Ann's events, saved titles, account and Fight Club.
    struct Times {
        let events: [String]
        let added: [String]
        let opened: String
        let fightClubSaved: String

        init(_ ledger: Ledger) async throws {
            let history = try await ledger.json(["history"], user: "ann", schema: "history.schema.json")
            events = (history["events"] as? [[String: Any]] ?? []).compactMap { $0["recordedAt"] as? String }
            let saved = try await ledger.json(["saved"], user: "ann", schema: "saved.schema.json")
            added = (saved["items"] as? [[String: Any]] ?? []).compactMap { $0["addedAt"] as? String }
            let accounts = try await ledger.json(["accounts"], schema: "accounts.schema.json")
            opened = try #require((accounts["accounts"] as? [[String: Any]])?.first?["openedAt"] as? String)
            let show = try await ledger.json(["show", "movie", "550"], user: "ann", schema: "show.schema.json")
            fightClubSaved = try #require(show["savedAt"] as? String)
            #expect(events.count == 4 && added.count == 2 && events.allSatisfy { $0.hasSuffix("Z") })
        }
    }

    /// What `saved`, `show`, `history` and `accounts` print, run with `arguments` in front and
    /// `environment`, matches the JSON times on `zone`'s clock, labelled `label`.
    static func expectTimes(_ ledger: Ledger, _ times: Times, arguments: [String], environment: [String: String], zone: String, label: String) async throws {
        func text(_ command: [String], user: String? = "ann") async throws -> [String] {
            let out = try await ledger.reel(arguments + command, user: user, environment: environment)
            #expect(out.status == 0, "\(arguments + command): \(out.stderr)")
            return lines(out.stdout)
        }
        let saved = try await text(["saved"])
        #expect(saved.count == times.added.count + 2, "\(saved)")
        #expect(saved.first?.hasSuffix("ADDED (\(label))") == true, "\(saved)")
        for (row, addedAt) in zip(saved.dropFirst(), times.added) {
            #expect(row.hasSuffix("  " + (try wall(addedAt, in: zone, "yyyy-MM-dd"))), "\(row) added \(addedAt)")
        }
        let show = try await text(["show", "movie", "550"])
        #expect(show.contains("Saved since \(try wall(times.fightClubSaved, in: zone)) \(label)"), "\(show)")
        let history = try await text(["history"])
        #expect(history.first?.contains("  TIME (\(label))  ") == true, "\(history)")
        #expect(history.count == times.events.count + 1, "\(history)")
        for (row, recordedAt) in zip(history.dropFirst(), times.events) {
            #expect(row.contains("  \(try wall(recordedAt, in: zone))  "), "\(row) recorded \(recordedAt)")
        }
        let accounts = try await text(["accounts"], user: nil)
        #expect(accounts.first?.contains("  OPENED (\(label))  ") == true, "\(accounts)")
        #expect(accounts.dropFirst().first?.contains("  \(try wall(times.opened, in: zone))  ") == true, "\(accounts)")
    }

    @Test func textShowsTimesOnTheLocalClockWithTheZoneNamed() async throws {
        let ledger = try await Self.ledger()
        let times = try await Times(ledger)
        try await Self.expectTimes(ledger, times, arguments: [], environment: Self.tokyo, zone: "Asia/Tokyo", label: "JST")
        try await Self.expectTimes(ledger, times, arguments: [], environment: ["TZ": "Europe/Berlin"], zone: "Europe/Berlin", label: Self.berlinName(times.opened))
        // --json is UTC whatever the zone.
        let out = try await ledger.reel(["history", "--json"], user: "ann", environment: Self.tokyo)
        let events = (try Harness.json(out.stdout)["events"] as? [[String: Any]] ?? []).compactMap { $0["recordedAt"] as? String }
        #expect(events == times.events)
    }

    /// Berlin's zone name at an instant: `CET` in winter, `CEST` in summer (the test may run in either).
    static func berlinName(_ iso: String) throws -> String {
        try wall(iso, in: "Europe/Berlin", "xxx") == "+01:00" ? "CET" : "CEST"
    }

    @Test func utcFromTheFlagBeforeOrAfterTheCommandOrTheEnvironment() async throws {
        let ledger = try await Self.ledger()
        let times = try await Times(ledger)
        for (arguments, environment) in [(["--utc"], Self.tokyo), ([], Self.tokyo.merging(["REEL_UTC": "1"]) { $1 })] {
            try await Self.expectTimes(ledger, times, arguments: arguments, environment: environment, zone: "UTC", label: "UTC")
        }
        let after = try await ledger.reel(["history", "--utc"], user: "ann", environment: Self.tokyo)
        #expect(Self.lines(after.stdout).first?.contains("TIME (UTC)") == true, "\(after.stdout)")
        // --utc is in the help of the commands that print times, and only there.
        for command in [["history"], ["saved"], ["show"], ["accounts"], ["settings", "show"], ["cache", "stats"], ["account", "verify-export"]] {
            #expect(try await ledger.reel(command + ["--help"]).stdout.contains("--utc"), "\(command)")
        }
        await #expect(try !ledger.reel(["fav", "add", "--help"]).stdout.contains("--utc"))
    }

    /// The time `history` prints on Tokyo's clock, pasted into `--as-of` in Tokyo, is that
    /// second, to its end: The Matrix's row says 04:34:16 when it was saved at 04:34:16.5, so the
    /// list as of then holds Fight Club, saved a second before, and The Matrix; a fraction names
    /// the instant exactly (04:34:16.000000 is before The Matrix).
    @Test func aTimeHistoryPrintsInTokyoIsTheSameInstantInAsOf() async throws {
        let ledger = try await Self.ledger()
        let times = try await Times(ledger)
        let history = Self.lines(try await ledger.reel(["history"], user: "ann", environment: Self.tokyo).stdout)
        let matrixRow = try #require(history.first { $0.contains("added movie 603") }, "\(history)")
        let found = try #require(matrixRow.range(of: #"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"#, options: .regularExpression), "\(matrixRow)")
        let printed = String(matrixRow[found])
        #expect(printed == (try Self.wall(times.events[2], in: "Asia/Tokyo")))
        let instant = String(times.events[2].prefix(19)) + ".999999Z"

        for point in [printed, printed + " JST", printed.replacingOccurrences(of: " ", with: "T") + "+09:00"] {
            let out = try await ledger.reel(["saved", "--as-of", point, "--json"], user: "ann", environment: Self.tokyo)
            #expect(out.status == 0, "--as-of \(point): \(out.stderr)")
            let saved = try Harness.json(out.stdout)
            #expect((saved["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [550, 603], "--as-of \(point): \(out.stdout)")
            #expect((saved["asOf"] as? [String: Any])?["value"] as? String == instant, "--as-of \(point): \(out.stdout)")
            let text = try await ledger.reel(["saved", "--as-of", point], user: "ann", environment: Self.tokyo)
            #expect(Self.lines(text.stdout).first == "as of \(printed) JST", "\(text.stdout)")
        }
        let exact = try await ledger.reel(["saved", "--as-of", printed + ".000000", "--json"], user: "ann", environment: Self.tokyo)
        #expect((try Harness.json(exact.stdout)["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [550], "\(exact.stdout)\(exact.stderr)")
        // With --utc, the time history prints then is UTC's, and Tokyo's words are nine hours
        // later; without it, UTC's words are Tokyo's, nine hours before Ann existed.
        let utcPrinted = try Self.wall(times.events[2], in: "UTC")
        #expect(utcPrinted != printed)
        let asUTC = try await ledger.reel(["saved", "--as-of", utcPrinted, "--utc", "--json"], user: "ann", environment: Self.tokyo)
        #expect((try Harness.json(asUTC.stdout)["asOf"] as? [String: Any])?["value"] as? String == instant, "\(asUTC.stdout)\(asUTC.stderr)")
        let later = try await ledger.reel(["saved", "--as-of", printed, "--utc", "--json"], user: "ann", environment: Self.tokyo)
        #expect((try Harness.json(later.stdout)["items"] as? [[String: Any]])?.count == 2, "\(later.stdout)\(later.stderr)")
        let earlier = try await ledger.reel(["saved", "--as-of", utcPrinted], user: "ann", environment: Self.tokyo)
        #expect(earlier.status == 66 && earlier.stderr.contains("had no events at"), "\(earlier.stderr)")
        // A zone Tokyo does not have is refused.
        let wrongZone = try await ledger.reel(["saved", "--as-of", printed + " CEST"], user: "ann", environment: Self.tokyo)
        #expect(wrongZone.status == 64, "\(wrongZone.stderr)")
    }
}
