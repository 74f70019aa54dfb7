import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// `reel store copy` through the built binary: an LMDB ledger into PostgreSQL and back, the same
/// chain (head hash), the same answers (saved lists, settings with the photo, accounts, a deleted
/// account's refusal) on every copy; a copy killed midway is continued by running it again; a
/// target holding another ledger, or a source that does not verify, is refused with nothing copied.
@Suite struct StoreCopyTests {
    typealias Ledger = LedgerHome

    static let started = Task { try await PostgresServer.started("StoreCopyTests") }

    /// A migrated database of the suite's server; its URL.
    static func store(_ name: String = #function) async throws -> String {
        let server = try await started.value
        let database = try await server.createDatabase(
            "s_" + name.filter { $0.isLetter || $0.isNumber }.prefix(40).lowercased() + "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
        let url = server.url(database: database)
        let migrated = try await Harness.reel(["store", "migrate", "--store", url])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        return url
    }

    static func reel(_ arguments: [String], environment: [String: String] = [:]) async throws -> Harness.Output {
        var env = ["TMDB_API_TOKEN": "", "TMDB_API_KEY": "", "REEL_OFFLINE": "", "XDG_CONFIG_HOME": temporaryDirectory("config")]
        env.merge(environment) { _, new in new }
        let fixed = env
        let out = try await Harness.reel(arguments, environment: fixed)
        #expect(!out.stdout.contains(PostgresServer.password) && !out.stderr.contains(PostgresServer.password), "the password was printed")
        return out
    }

    /// What a person asks of a ledger, answered by `reel` over `store` (a data directory or a URL).
    static func answers(_ store: String) async throws -> [String] {
        let place = store.hasPrefix("postgres://") ? ["--store", store, "--data-dir", temporaryDirectory("cache")] : ["--data-dir", store]
        var out: [String] = []
        for (command, user) in [
            (["saved", "--json"], DeletionFixture.handle), (["saved", "--json"], "ann"), (["settings", "--json"], DeletionFixture.handle),
            (["accounts", "--json"], "ann"), (["saved"], "gone"), (["history", "--json"], "ann"),
        ] {
            let answer = try await reel(command + place, environment: ["REEL_USER": user])
            // The saved lists' and history's times are the events' own, the same in every copy. The
            // once-a-day notes are left out: each data directory shows them once.
            let errors = answer.stderr.split(separator: "\n").filter { !$0.hasPrefix("reel: note:") }.joined(separator: "\n")
            out.append("\(answer.status) \(answer.stdout) \(errors)")
        }
        // The photo's bytes, which live beside the log (the events only name them).
        let export = try await reel(["account", "export", "--no-details"] + place, environment: ["REEL_USER": DeletionFixture.handle])
        let settings = try Harness.json(export.stdout)["settings"] as? [String: Any]
        let photo = settings?["photo"] as? [String: Any]
        #expect(photo?["data"] as? String == Data(Images.png).base64EncodedString(), "\(export.stderr)")
        out.append(photo?["data"] as? String ?? "no photo")
        return out
    }

    static func head(_ store: String) async throws -> String {
        let place = store.hasPrefix("postgres://") ? ["--store", store, "--data-dir", temporaryDirectory("cache")] : ["--data-dir", store]
        let out = try await reel(["audit", "verify", "--json"] + place)
        #expect(out.status == 0, "\(out.stderr)")
        return try Harness.json(out.stdout)["headHash"] as? String ?? "?"
    }

    @Test func aLedgerGoesToPostgresAndBackWithTheSameChainAndAnswers() async throws {
        let ledger = try await DeletionFixture.makeLedger()
        for command in [["fav", "add", "movie", "13"], ["account", "delete", "--yes"]] {
            #expect(try await ledger.reel(command, user: "gone").status == 0)
        }
        let original = try await Self.answers(ledger.dir)
        let head = try await Self.head(ledger.dir)
        #expect(original[4].hasPrefix("66 ") && original[4].contains("the account 'gone' was deleted on"), "\(original[4])")

        let url = try await Self.store()
        let there = try await Self.reel(["store", "copy", "--from", ledger.dir, "--to", url, "--json"])
        #expect(there.status == 0, "\(there.stderr)")
        #expect(try Harness.validate(there.stdout, against: "cli/store-copy.schema.json").status == 0)
        let report = try Harness.json(there.stdout)
        #expect(report["copied"] as? Int == 12 && report["events"] as? Int == 12 && report["resumedAt"] as? Int == 0, "\(report)")
        #expect(report["headHash"] as? String == head && (report["to"] as? String)?.contains(PostgresServer.password) == false)
        #expect(try await Self.head(url) == head, "the copy's chain is the original's")
        #expect(try await Self.answers(url) == original, "the copy answers as the original does")
        let independent = try await Harness.python("verify_ledger.py", [url])
        #expect(independent.status == 0 && independent.stdout.contains(head), "\(independent)")

        let back = temporaryDirectory("back")
        let home = try await Self.reel(["store", "copy", "--from", url, "--to", back])
        #expect(home.status == 0, "\(home.stderr)")
        #expect(home.stdout == "copied 12 events from \(url.replacingOccurrences(of: ":" + PostgresServer.password, with: "")) to \(back)\nboth verify: 12 events, head position 12, hash \(head)\n", "\(home.stdout)")
        #expect(try await Self.head(back) == head)
        #expect(try await Self.answers(back) == original, "the copy of the copy answers as the original does")
        #expect(try await Harness.python("verify_ledger.py", [back + "/ledger"]).status == 0)
        // Each copy takes new events on its own.
        let added = try await Self.reel(["fav", "add", "movie", "238", "--store", url, "--data-dir", temporaryDirectory("cache")], environment: ["REEL_USER": "ann"])
        #expect(added.status == 0, "\(added.stderr)")
    }

    /// An empty ledger copies too; `--json` names its head hash as null, as the schema says.
    @Test func anEmptyLedgerCopiesWithANullHeadHash() async throws {
        let copied = try await Self.reel(["store", "copy", "--from", try await Self.store(), "--to", temporaryDirectory("empty-copy") + "/ledger", "--json"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(try Harness.validate(copied.stdout, against: "cli/store-copy.schema.json").status == 0, "\(copied.stdout)")
        #expect(try Harness.json(copied.stdout)["headHash"] is NSNull, "\(copied.stdout)")
    }

    @Test func aCopyKilledMidwayIsContinuedByRunningItAgain() async throws {
        let source = temporaryDirectory("source")
        for stream in ["ann", "ben", "cy"] {
            let worker = try await Harness.run(Harness.binaries + "/reel-bench", ["worker", "--data-dir", source, "--stream", stream, "--count", "400", "--concurrency", "4"])
            #expect(worker.status == 0, "\(worker.stderr)")
        }
        let head = try await Self.head(source)
        let url = try await Self.store()
        let killed = try await Self.reel(["store", "copy", "--from", source, "--to", url, "--batch", "100"], environment: ["REEL_FAILPOINT": "copy:700"])
        #expect(killed.status != 0, "the failpoint was not reached: \(killed)")
        let server = try await Self.started.value
        let database = String(url.split(separator: "/").last!)
        #expect(try await server.psql("SELECT position FROM reel_head", database: database) == "700", "the copy stopped after its seventh batch")
        let again = try await Self.reel(["store", "copy", "--from", source, "--to", url, "--batch", "100", "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let report = try Harness.json(again.stdout)
        #expect(report["resumedAt"] as? Int == 700 && report["copied"] as? Int == 500 && report["events"] as? Int == 1_200, "\(report)")
        #expect(report["headHash"] as? String == head)

        // And back, killed too.
        let back = temporaryDirectory("back")
        let stopped = try await Self.reel(["store", "copy", "--from", url, "--to", back, "--batch", "250"], environment: ["REEL_FAILPOINT": "copy:500"])
        #expect(stopped.status != 0)
        let resumed = try await Self.reel(["store", "copy", "--from", url, "--to", back, "--batch", "250", "--json"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let resumedReport = try Harness.json(resumed.stdout)
        #expect(resumedReport["resumedAt"] as? Int == 500 && resumedReport["headHash"] as? String == head, "\(resumedReport)")
        // A finished copy run again copies nothing and says so.
        let done = try await Self.reel(["store", "copy", "--from", url, "--to", back, "--json"])
        #expect(done.status == 0, "\(done)")
        #expect(try Harness.json(done.stdout)["copied"] as? Int == 0, "\(done)")
    }

    @Test func aTargetHoldingAnotherLedgerOrABrokenSourceIsRefusedWithNothingCopied() async throws {
        let one = temporaryDirectory("one"), two = temporaryDirectory("two")
        for (dir, stream) in [(one, "ann"), (two, "ben")] {
            let worker = try await Harness.run(Harness.binaries + "/reel-bench", ["worker", "--data-dir", dir, "--stream", stream, "--count", "20", "--concurrency", "1"])
            #expect(worker.status == 0)
        }
        let url = try await Self.store()
        #expect(try await Self.reel(["store", "copy", "--from", one, "--to", url]).status == 0)
        let server = try await Self.started.value
        let database = String(url.split(separator: "/").last!)
        for (arguments, status, message) in [
            (["--from", two, "--to", url], Int32(64), "holds another ledger"),
            (["--from", url, "--to", url], 64, "the same store"),
            (["--from", temporaryDirectory("empty") + "/none", "--to", url], 66, "no ledger"),
            (["--from", one, "--to", "postgres://postgres:wrong@127.0.0.1:\(server.port)/\(database)"], 77, "refused the user or password"),
        ] {
            let out = try await Self.reel(["store", "copy"] + arguments)
            #expect(out.status == status, "\(arguments): \(out)")
            #expect(out.stderr.hasPrefix("reel: ") && out.stderr.split(separator: "\n").count == 1 && out.stderr.contains(message), "\(out.stderr)")
            #expect(out.stdout.isEmpty && !out.stderr.contains("wrong"))
        }
        #expect(try await server.psql("SELECT count(*) FROM reel_events", database: database) == "20", "nothing more was copied")
        // A source that does not verify is not copied at all.
        let tampered = try await Harness.python("tamper_ledger.py", [two + "/ledger", "flip-byte", "10", "-40"])
        #expect(tampered.status == 0)
        let fresh = try await Self.store("fresh")
        let refused = try await Self.reel(["store", "copy", "--from", two, "--to", fresh])
        #expect(refused.status == 65 && refused.stderr.contains("does not verify") && refused.stderr.contains("nothing was copied"), "\(refused)")
        #expect(try await server.psql("SELECT count(*) FROM reel_events", database: String(fresh.split(separator: "/").last!)) == "0")
    }
}
