import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `reel account export`, `verify-export` and `import` through the built binary, on real LMDB in
/// fresh data directories, offline (the bundled sample catalog answers). An account taken out
/// and put back must be the same account (same titles in the same order with the same dates, the
/// same name, language and photo) on a new stream; a file that is not a good export must be
/// refused in one line naming where, with nothing written; and a crash at any step of an import
/// must leave either no trace of the new account or all of it. Other apps' lists are in
/// AccountImportFormatTests.swift (an extension of this suite).
@Suite struct AccountMoveTests {
    typealias Ledger = LedgerCommandTests.Ledger

    static let handle = "mover"
    static let other = "ann"
    static let name = "Mo Ver-Unique"

    /// `mover` (9 events): movies 550 and 603, series 1399, a name, 603 removed again, a photo,
    /// movie 13 and German; saved: movie 550, tv 1399, movie 13. Interleaved with `ann` (one
    /// favorite and a name), so the exported positions are not consecutive.
    static func makeLedger() async throws -> Ledger {
        let ledger = Ledger()
        let photo = temporaryDirectory("photo") + "/me.png"
        try Data(Images.png).write(to: URL(fileURLWithPath: photo))
        for (command, user) in [
            (["fav", "add", "movie", "550", "603"], handle), (["fav", "add", "movie", "238"], other), (["fav", "add", "tv", "1399"], handle),
            (["settings", "name", name], handle), (["fav", "remove", "movie", "603"], handle), (["settings", "photo", photo], handle),
            (["settings", "name", "Ann Other"], other), (["fav", "add", "movie", "13"], handle), (["settings", "language", "de-DE"], handle),
        ] {
            let out = try await ledger.reel(command, user: user)
            #expect(out.status == 0, "\(command): \(out.stderr)")
        }
        return ledger
    }

    static let savedKeys = ["movie 550", "tv 1399", "movie 13"]

    // MARK: - Looking at accounts

    /// One saved title as `saved --json` gives it: what must survive a move.
    struct Item: Equatable, CustomStringConvertible {
        let mediaType: String
        let id: Int
        let addedAt: String
        var key: String { "\(mediaType) \(id)" }
        var description: String { "\(key) @\(addedAt)" }
    }

    static func saved(_ ledger: Ledger, _ user: String) async throws -> [Item] {
        let saved = try await ledger.json(["saved"], user: user, schema: "saved.schema.json")
        return (saved["items"] as? [[String: Any]] ?? []).map {
            Item(mediaType: $0["mediaType"] as? String ?? "?", id: $0["id"] as? Int ?? -1, addedAt: $0["addedAt"] as? String ?? "?")
        }
    }

    /// `settings --json` without `user` and `stream`, as canonical JSON text (so two can be compared).
    static func settings(_ ledger: Ledger, _ user: String) async throws -> String {
        let settings = try await ledger.json(["settings"], user: user, schema: "settings.schema.json")
        return try canonical(settings.filter { ["name", "language", "languageName", "photo"].contains($0.key) })
    }

    static func canonical(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    static func accounts(_ ledger: Ledger) async throws -> [[String: Any]] {
        try await ledger.json(["accounts"], schema: "accounts.schema.json")["accounts"] as? [[String: Any]] ?? []
    }

    static func stream(of user: String, in ledger: Ledger) async throws -> String? {
        try await accounts(ledger).first { $0["user"] as? String == user }?["stream"] as? String
    }

    /// What a refused command must leave exactly as it was: the accounts, the chain's head and
    /// the files of the data directory.
    struct Snapshot: Equatable {
        let accounts: String
        let head: String
        let files: [String]
    }

    static func snapshot(_ ledger: Ledger) async throws -> Snapshot {
        let accounts = try await ledger.reel(["accounts", "--json"])
        #expect(accounts.status == 0, "\(accounts.stderr)")
        let audit = try await ledger.reel(["audit", "verify", "--json"])
        #expect(audit.status == 0, "audit verify: \(audit.stdout)\(audit.stderr)")
        let head = try Harness.json(audit.stdout)
        return Snapshot(
            accounts: accounts.stdout, head: "\(head["events"] ?? "?") \(head["headPosition"] ?? "?") \(head["headHash"] ?? "?")",
            files: try files(under: ledger.dir))
    }

    /// Every regular file under `dir`, relative to it.
    static func files(under dir: String) throws -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: dir) else { return [] }
        var found: [String] = []
        for case let relative as String in walk
        where (try FileManager.default.attributesOfItem(atPath: dir + "/" + relative)[.type] as? FileAttributeType) == .typeRegular {
            found.append(relative)
        }
        return found.sorted()
    }

    /// Expects no account `user`: exporting it says there is none.
    static func expectFree(_ user: String, in ledger: Ledger, _ context: String) async throws {
        let out = try await ledger.reel(["account", "export"], user: user)
        #expect(out.status == 66, "\(context): '\(user)' should be free: exit \(out.status) \(out.stdout)\(out.stderr)")
        #expect(out.stderr.contains("there is no account '\(user)'"), "\(context): \(out.stderr)")
        await #expect(try stream(of: user, in: ledger) == nil, "\(context)")
    }

    /// Both verifiers pass over the whole ledger, and the projections equal a replay.
    static func expectLedgerIntact(_ ledger: Ledger, _ context: String) async throws {
        let audit = try await ledger.reel(["audit", "verify"])
        #expect(audit.status == 0 && audit.stdout.hasPrefix("intact: "), "\(context): \(audit.stdout)\(audit.stderr)")
        let python = try await Harness.python("verify_ledger.py", [ledger.dir + "/ledger"])
        #expect(python.status == 0, "\(context): \(python.stdout)\(python.stderr)")
        let rebuild = try await ledger.reel(["projections", "rebuild", "--check"])
        #expect(rebuild.status == 0, "\(context): \(rebuild.stdout)\(rebuild.stderr)")
    }

    /// Expects `user` in `copy` to be `original`'s account `from`: the same saved list (media
    /// types, ids, order, dates) and the same settings (name, language, photo reference).
    static func expectSameAccount(_ copy: Ledger, _ user: String, as original: Ledger, _ from: String, _ context: String) async throws {
        let expected = try await saved(original, from)
        #expect(expected.map(\.key) == savedKeys, "\(context): the original")
        await #expect(try saved(copy, user) == expected, "\(context): the saved list")
        let settings = try await Self.settings(copy, user)
        await #expect(settings == (try Self.settings(original, from)), "\(context): the settings")
        #expect(settings.contains(name) && settings.contains("\"de-DE\"") && settings.contains("png"), "\(context): \(settings)")
    }

    /// Runs `reel` expecting a refusal: `status`, one line on stderr (no trace, no crash) that
    /// names `file` and contains each of `naming`, nothing on stdout unless `json`.
    @discardableResult
    static func refuses(
        _ ledger: Ledger, _ arguments: [String], user: String? = nil, status: Int32, file: String?, naming: [String], json: Bool = false,
        _ context: String
    ) async throws -> Harness.Output {
        let out = try await ledger.reel(arguments, user: user)
        #expect(out.status == status, "\(context): \(arguments): exit \(out.status), stderr \(out.stderr)")
        let lines = out.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1 && out.stderr.hasPrefix("reel: ") && out.stderr.hasSuffix("\n"), "\(context): one line: \(out.stderr)")
        #expect(!out.stderr.contains("Fatal error") && !out.stderr.contains("Stack dump"), "\(context): \(out.stderr)")
        if let file { #expect(out.stderr.contains(file), "\(context): the message names the file: \(out.stderr)") }
        for fragment in naming {
            #expect(out.stderr.contains(fragment), "\(context): the message names '\(fragment)': \(out.stderr)")
        }
        if !json { #expect(out.stdout.isEmpty, "\(context): \(out.stdout)") }
        return out
    }

    /// Exports `user` with `--out` (checking the `--json` report), returns the file's path.
    static func export(_ ledger: Ledger, _ user: String = handle, format: String = "reel") async throws -> String {
        let file = temporaryDirectory("export") + "/\(user)." + (format == "reel" ? "json" : "csv")
        let report = try await ledger.json(["account", "export", "--out", file, "--format", format], user: user, schema: "account-export.schema.json")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(report["file"] as? String == file && report["format"] as? String == format && report["user"] as? String == user)
        #expect(report["bytes"] as? Int == bytes.count)
        return file
    }

    // MARK: - Round trip

    @Test func anExportIsPrivateVerifiesWithReelAndPythonAndMatchesItsSchema() async throws {
        let ledger = try await Self.makeLedger()
        let stream = try await Self.stream(of: Self.handle, in: ledger)
        let file = temporaryDirectory("export") + "/mover.json"
        let report = try await ledger.json(["account", "export", "--out", file], user: Self.handle, schema: "account-export.schema.json")
        #expect(report["events"] as? Int == 9 && report["saved"] as? Int == 3 && report["format"] as? String == "reel", "\(report)")
        let head = try Harness.json(try await ledger.reel(["audit", "verify", "--json"]).stdout)
        #expect(report["headPosition"] as? Int == head["headPosition"] as? Int && head["headPosition"] as? Int == 12)

        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600, "the export holds the account in the clear: mode \(String(mode ?? -1, radix: 8))")
        #expect(try Self.files(under: (file as NSString).deletingLastPathComponent) == ["mover.json"], "no temporary file left beside it")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let digest = try await Harness.run("sha256sum", [file]).stdout.prefix(64)
        #expect(report["sha256"] as? String == String(digest))
        let schema = try Harness.validate(text, against: "export.schema.json")
        #expect(schema.status == 0, "export.schema.json: \(schema.stdout)\(schema.stderr)")
        #expect(text.contains(stream ?? "?") && text.contains(Self.name), "the file holds the stream and the name")

        // Without --out: the same document on stdout (it differs only in exportedAt).
        let stdout = try await ledger.reel(["account", "export"], user: Self.handle)
        #expect(stdout.status == 0, "\(stdout.stderr)")
        let a = try Harness.json(stdout.stdout), b = try Harness.json(text)
        #expect(try Self.canonical(a.filter { $0.key != "exportedAt" }) == (try Self.canonical(b.filter { $0.key != "exportedAt" })))

        let verified = try await ledger.reel(["account", "verify-export", file])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        #expect(verified.stdout.hasPrefix("\(file): verified: account 'mover', 9 events"), "\(verified.stdout)")
        let facts = try await ledger.json(["account", "verify-export", file], schema: "account-verify-export.schema.json")
        #expect(facts["ok"] as? Bool == true && facts["problem"] is NSNull)
        #expect(facts["handle"] as? String == Self.handle && facts["stream"] as? String == stream)
        #expect(facts["events"] as? Int == 9 && facts["saved"] as? Int == 3 && facts["firstPosition"] as? Int == 1)
        #expect(facts["lastPosition"] as? Int == 12 && facts["headPosition"] as? Int == 12 && facts["headHash"] as? String == head["headHash"] as? String)

        // verify-export needs no ledger at all.
        let elsewhere = Ledger()
        #expect(try await elsewhere.reel(["account", "verify-export", file]).status == 0)
        #expect(try Self.files(under: elsewhere.dir) == [], "verify-export writes nothing")

        let python = try await Harness.python("verify_export.py", [file])
        #expect(python.status == 0, "\(python.stdout)\(python.stderr)")
        #expect(python.stdout.hasPrefix("OK "), "\(python.stdout)")
    }

    @Test func importIntoAnotherDataDirectoryGivesTheSameAccountOnANewStream() async throws {
        let ledger = try await Self.makeLedger()
        let source = try await Self.stream(of: Self.handle, in: ledger)
        let file = try await Self.export(ledger)

        let target = Ledger()
        let imported = try await target.json(["account", "import", file, "--as", "other"], schema: "account-import.schema.json")
        #expect(imported["format"] as? String == "reel" && imported["dryRun"] as? Bool == false && imported["user"] as? String == "other")
        #expect(imported["sourceStream"] as? String == source)
        let stream = imported["stream"] as? String
        #expect(stream != nil && stream != source, "a new stream: \(imported)")
        #expect(imported["events"] as? Int == 9 && imported["saved"] as? Int == 3 && imported["skipped"] as? Int == 0, "\(imported)")
        #expect((imported["settings"] as? [String: Any])?["name"] as? String == Self.name)

        try await Self.expectSameAccount(target, "other", as: ledger, Self.handle, "in another data directory")
        let accounts = try await Self.accounts(target)
        #expect(accounts.count == 1 && accounts.first?["user"] as? String == "other" && accounts.first?["stream"] as? String == stream, "\(accounts)")
        #expect(accounts.first?["events"] as? Int == 9 && accounts.first?["saved"] as? Int == 3 && accounts.first?["status"] as? String == "open")
        // Favorites come back as favorite-imported, keeping their dates; the rest as they were.
        let history = try await target.json(["history"], user: "other", schema: "history.schema.json")["events"] as? [[String: Any]] ?? []
        #expect(history.map { $0["type"] as? String ?? "?" } == [
            "account-opened", "favorite-imported", "favorite-imported", "favorite-imported", "profile-name-changed", "favorite-removed",
            "profile-photo-changed", "favorite-imported", "language-switched",
        ])
        try await Self.expectLedgerIntact(target, "after the import")

        // The restored account exports and verifies in turn.
        let again = try await Self.export(target, "other")
        #expect(try await target.reel(["account", "verify-export", again]).status == 0)
        #expect(try await Harness.python("verify_export.py", [again]).status == 0)
    }

    @Test func importIntoTheSameDataDirectoryAddsAnEqualAccountBesideTheOriginal() async throws {
        let ledger = try await Self.makeLedger()
        let source = try await Self.stream(of: Self.handle, in: ledger)
        let before = try await Self.accounts(ledger)
        let file = try await Self.export(ledger)

        let imported = try await ledger.json(["account", "import", file, "--as", "other"], schema: "account-import.schema.json")
        let stream = imported["stream"] as? String
        #expect(stream != nil && stream != source)
        try await Self.expectSameAccount(ledger, "other", as: ledger, Self.handle, "in the same data directory")

        let after = try await Self.accounts(ledger)
        #expect(after.count == before.count + 1, "\(after)")
        await #expect(try Self.stream(of: "other", in: ledger) == stream)
        await #expect(try Self.stream(of: Self.handle, in: ledger) == source, "the original keeps its stream")
        #expect(Set(after.compactMap { $0["stream"] as? String }).count == after.count, "every account on its own stream")
        let text = try await ledger.reel(["accounts"])
        #expect(text.stdout.split(separator: "\n").contains { $0.hasPrefix("other") && $0.contains(stream ?? "?") }, "\(text.stdout)")
        try await Self.expectLedgerIntact(ledger, "after the import")

        // The two are independent: a change to one leaves the other alone.
        #expect(try await ledger.reel(["fav", "remove", "movie", "550"], user: "other").status == 0)
        await #expect(try Self.saved(ledger, "other").map(\.key) == ["tv 1399", "movie 13"])
        await #expect(try Self.saved(ledger, Self.handle).map(\.key) == Self.savedKeys)
    }

    @Test func importingOverAnExistingHandleIsRefusedAndWritesNothing() async throws {
        let ledger = try await Self.makeLedger()
        let file = try await Self.export(ledger)
        let before = try await Self.snapshot(ledger)
        for extra in [[], ["--json"], ["--as", Self.other], ["--as", Self.handle, "--dry-run"]] {
            let taken = extra.contains(Self.other) ? Self.other : Self.handle
            try await Self.refuses(
                ledger, ["account", "import", file] + extra, status: 64, file: nil, naming: ["there is an account '\(taken)' already", "--as"],
                "import \(extra)")
        }
        await #expect(try Self.snapshot(ledger) == before)
        await #expect(try Self.saved(ledger, Self.handle).map(\.key) == Self.savedKeys)
    }

    @Test func aDryRunSaysWhatItWouldRestoreAndWritesNothing() async throws {
        let ledger = try await Self.makeLedger()
        let file = try await Self.export(ledger)
        let before = try await Self.snapshot(ledger)

        let text = try await ledger.reel(["account", "import", file, "--as", "copy", "--dry-run"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("would restore 'mover' as 'copy': 9 events, 3 saved titles"), "\(text.stdout)")
        #expect(text.stdout.contains("dry run: nothing was written"), "\(text.stdout)")
        let json = try await ledger.json(["account", "import", file, "--as", "copy", "--dry-run"], schema: "account-import.schema.json")
        #expect(json["dryRun"] as? Bool == true && json["stream"] is NSNull && json["events"] as? Int == 9 && json["saved"] as? Int == 3, "\(json)")
        await #expect(try Self.snapshot(ledger) == before)
        try await Self.expectFree("copy", in: ledger, "after the dry run")

        // Into a data directory with no ledger: nothing is created at all.
        let empty = Ledger()
        let dry = try await empty.json(["account", "import", file, "--dry-run"], schema: "account-import.schema.json")
        #expect(dry["user"] as? String == Self.handle && dry["stream"] is NSNull)
        #expect(try Self.files(under: empty.dir) == [], "a dry run creates no ledger")
    }

    @Test func exportingADeletedOrUnknownAccountIsAClearErrorAndWritesNoFile() async throws {
        let ledger = try await Self.makeLedger()
        #expect(try await ledger.reel(["account", "delete", "--yes"], user: Self.handle).status == 0)
        let dir = temporaryDirectory("export")
        for (user, message) in [(Self.handle, "the account 'mover' was deleted on"), ("nobody", "there is no account 'nobody'")] {
            for format in ["reel", "letterboxd"] {
                try await Self.refuses(
                    ledger, ["account", "export", "--out", dir + "/out", "--format", format], user: user, status: 66, file: nil,
                    naming: [message], "export of \(user) as \(format)")
            }
            let plain = try await ledger.reel(["account", "export"], user: user)
            #expect(plain.status == 66 && plain.stdout.isEmpty, "\(user): \(plain.stdout)\(plain.stderr)")
        }
        #expect(try Self.files(under: dir) == [], "no file, not even a temporary one")
        // The other account still exports.
        #expect(try await ledger.reel(["account", "export", "--out", dir + "/ann.json"], user: Self.other).status == 0)
    }

    // MARK: - Crashes

    /// The steps of restoring an export (`REEL_FAILPOINT=import:<step>` kills `reel` there).
    static let steps = ["key-prepared", "writing", "committed"]

    @Test(arguments: steps)
    func aCrashDuringAnImportLeavesNoTraceOrTheWholeAccount(step: String) async throws {
        let ledger = try await Self.makeLedger()
        let file = try await Self.export(ledger)
        let before = try await Self.snapshot(ledger)

        let crash = try await ledger.reel(["account", "import", file, "--as", "copy"], environment: ["REEL_FAILPOINT": "import:" + step])
        #expect(crash.status == 128 + SIGKILL, "\(step): killed by SIGKILL, not exit \(crash.status): \(crash.stderr)")
        #expect(crash.stdout.isEmpty, "\(step): \(crash.stdout)")

        if step == "committed" {
            // Committed: the next command sees the whole account.
            try await Self.expectSameAccount(ledger, "copy", as: ledger, Self.handle, "\(step)")
            let accounts = try await Self.accounts(ledger)
            #expect(accounts.count == 3 && accounts.contains { $0["user"] as? String == "copy" && $0["events"] as? Int == 9 }, "\(step): \(accounts)")
            try await Self.expectLedgerIntact(ledger, step)
            try await Self.refuses(ledger, ["account", "import", file, "--as", "copy"], status: 64, file: nil, naming: ["'copy' already"], "\(step): again")
            return
        }
        // Not committed: no trace in what any command shows.
        let after = try await Self.snapshot(ledger)
        #expect(after.accounts == before.accounts && after.head == before.head, "\(step): the ledger changed")
        try await Self.expectFree("copy", in: ledger, step)
        try await Self.expectLedgerIntact(ledger, step)
        // Nothing is in the way (a lock, a half transaction, a reserved stream): the import works.
        let imported = try await ledger.json(["account", "import", file, "--as", "copy"], schema: "account-import.schema.json")
        #expect(imported["stream"] is String, "\(step)")
        try await Self.expectSameAccount(ledger, "copy", as: ledger, Self.handle, "\(step), imported again")
        try await Self.expectLedgerIntact(ledger, "\(step), imported again")
    }
}
