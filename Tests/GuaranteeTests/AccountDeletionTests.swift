@_spi(Stores) import EventLog
import EndToEndSupport
import Foundation
import Processes
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `reel account delete`: crypto-shredding through the built binary, in fresh data directories.
/// What must hold afterwards: no file under the data directory keeps the account's key, name,
/// photo or handle; the chain still verifies; the account shows as deleted and shredded; the
/// handle is free; and a crash at any step either leaves the account intact or is finished by
/// the next command.
@Suite struct AccountDeletionTests {
    typealias Ledger = LedgerCommandTests.Ledger

    static let handle = DeletionFixture.handle
    static let name = DeletionFixture.name
    static let other = DeletionFixture.other

    static func makeLedger() async throws -> Ledger { try await DeletionFixture.makeLedger() }

    // MARK: - Looking at the data directory

    /// The stream of the account `handle` has now, from `reel accounts --json`.
    static func stream(of handle: String, in ledger: Ledger) async throws -> String {
        let accounts = try await ledger.json(["accounts"], schema: "accounts.schema.json")["accounts"] as? [[String: Any]] ?? []
        let stream = accounts.first { $0["user"] as? String == handle }?["stream"] as? String
        #expect(stream != nil, "no open account '\(handle)' in \(accounts)")
        return stream ?? "?"
    }

    /// The `accounts --json` entry of `stream`.
    static func account(_ stream: String, in ledger: Ledger) async throws -> [String: Any] {
        let accounts = try await ledger.json(["accounts"], schema: "accounts.schema.json")["accounts"] as? [[String: Any]] ?? []
        return accounts.first { $0["stream"] as? String == stream } ?? [:]
    }

    /// The raw value the key store holds for `stream` (read with Python's `lmdb`, not with Reel):
    /// 0x02 ‖ 60 bytes (the key wrapped) while live, 0x00 ‖ i64 time once destroyed; nil when there is none.
    static func storedKey(_ ledger: Ledger, _ stream: String) async throws -> [UInt8]? {
        let script = """
            import lmdb, sys
            env = lmdb.open(sys.argv[1] + "/keys", max_dbs=8, subdir=True, readonly=True)
            with env.begin() as t:
                value = t.get(sys.argv[2].encode(), db=env.open_db(b"stream-keys", txn=t, create=False))
            env.close()
            print("none" if value is None else value.hex())
            """
        let out = try await Harness.run("python3", ["-c", script, ledger.dir, stream])
        #expect(out.status == 0, "\(out.stderr)")
        let hex = out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard hex != "none" else { return nil }
        var bytes: [UInt8] = []
        var rest = Substring(hex)
        while rest.count >= 2, let byte = UInt8(rest.prefix(2), radix: 16) {
            bytes.append(byte)
            rest = rest.dropFirst(2)
        }
        return bytes
    }

    /// The 60 bytes of `stream`'s live key as the key store holds it: wrapped under the keyring's
    /// KEK (`0x02 ‖ 60 bytes`; expects it live). What a scan of the files looks for.
    static func liveKey(_ ledger: Ledger, _ stream: String) async throws -> [UInt8] {
        let stored = try await storedKey(ledger, stream) ?? []
        #expect(stored.count == 61 && stored.first == 2, "the key of \(stream) is not live: \(stored)")
        return Array(stored.dropFirst())
    }

    /// The keyring `keys/` records (`meta/pair` names the file, `meta/keyring-path` its
    /// directory), read without Reel's store.
    static func keyring(of ledger: Ledger) async throws -> KeyringFile {
        let script = """
            import lmdb, sys
            env = lmdb.open(sys.argv[1] + "/keys", max_dbs=8, subdir=True, readonly=True)
            with env.begin() as t:
                meta = env.open_db(b"meta", txn=t, create=False)
                print(t.get(b"pair", db=meta).hex())
                print(t.get(b"keyring-path", db=meta).decode())
            env.close()
            """
        let out = try await Harness.run("python3", ["-c", script, ledger.dir])
        let lines = out.stdout.split(separator: "\n").map(String.init)
        try #require(out.status == 0 && lines.count == 2, "\(out.stderr)")
        let pair = stride(from: 0, to: lines[0].count - 1, by: 2).compactMap { UInt8(lines[0].dropFirst($0).prefix(2), radix: 16) }
        try #require(pair.count == 16)
        let store = UUID(uuid: (pair[0], pair[1], pair[2], pair[3], pair[4], pair[5], pair[6], pair[7], pair[8], pair[9], pair[10], pair[11], pair[12], pair[13], pair[14], pair[15]))
        return KeyringFile(directory: lines[1], store: store)
    }

    /// The 32 bytes `stream`'s record opens to under the keyring `keys/` records; `nil` when
    /// nothing opens it. A deletion wraps the other accounts' keys anew: this stays the same.
    static func openedKey(_ ledger: Ledger, _ stream: String) async throws -> [UInt8]? {
        guard let stored = try await storedKey(ledger, stream), stored.count == 61, stored.first == 2 else { return nil }
        return try await keyring(of: ledger).opening(Array(stored.dropFirst()), stream: stream)
    }

    /// Every regular file under `dir`, as paths relative to it.
    static func files(under dir: String) throws -> [String] {
        let manager = FileManager.default
        var found: [String] = []
        guard let walk = manager.enumerator(atPath: dir) else { return [] }
        for case let relative as String in walk {
            let type = try manager.attributesOfItem(atPath: dir + "/" + relative)[.type] as? FileAttributeType
            if type == .typeRegular { found.append(relative) }
        }
        return found.sorted()
    }

    /// The files under the data directory whose bytes contain `needle` anywhere (freed LMDB
    /// pages, lock files, leftovers of a rewrite included).
    static func files(in ledger: Ledger, containing needle: [UInt8]) throws -> [String] {
        try files(under: ledger.dir).filter { relative in
            try Data(contentsOf: URL(fileURLWithPath: ledger.dir + "/" + relative)).range(of: Data(needle)) != nil
        }
    }

    /// Expects none of the deleted account's secrets in any file under the data directory.
    static func expectNothingLeft(of key: [UInt8], in ledger: Ledger, _ context: String) async throws {
        let everything = try files(under: ledger.dir)
        #expect(everything.contains("keys/data.mdb") && everything.contains("ledger/data.mdb"), "\(context): \(everything)")
        // The photo's SHA-256 (hex, as Reel names photos by it, and raw) would let anyone holding
        // the photo recognise it in a freed page.
        let digest = try await Harness.run("sh", ["-c", "printf '%s' \"$1\" | base64 -d | sha256sum | cut -c1-64", "sh", Data(Images.png).base64EncodedString()])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(digest.count == 64, "\(digest)")
        var raw: [UInt8] = []
        var rest = Substring(digest)
        while rest.count >= 2, let byte = UInt8(rest.prefix(2), radix: 16) { raw.append(byte); rest = rest.dropFirst(2) }
        for (what, bytes) in [
            ("the key", key), ("the name", Array(name.utf8)), ("the photo", Images.png), ("the handle", Array(handle.utf8)),
            ("the photo's SHA-256 in hex", Array(digest.utf8)), ("the photo's SHA-256", raw),
        ] {
            #expect(try files(in: ledger, containing: bytes) == [], "\(context): \(what) is still in these files")
        }
    }

    static func savedIDs(_ ledger: Ledger, _ user: String) async throws -> [Int] {
        let saved = try await ledger.json(["saved"], user: user, schema: "saved.schema.json")
        return (saved["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    // MARK: - Deleting

    @Test func afterDeletionNoFileHoldsTheKeyNamePhotoOrHandle() async throws {
        let ledger = try await Self.makeLedger()
        let stream = try await Self.stream(of: Self.handle, in: ledger)
        let otherStream = try await Self.stream(of: Self.other, in: ledger)
        let key = try await Self.liveKey(ledger, stream)
        let otherKey = try await #require(try Self.openedKey(ledger, otherStream))
        // The scan can see a key: before deletion it is in the key store, and only there.
        #expect(try Self.files(in: ledger, containing: key) == ["keys/data.mdb"])
        let before = try await ledger.eventCount()

        let deleted = try await ledger.json(["account", "delete", "--yes"], user: Self.handle, schema: "account-delete.schema.json")
        #expect(deleted["user"] as? String == Self.handle)
        #expect(deleted["stream"] as? String == stream)
        #expect(deleted["keyDestroyed"] as? Bool == true)
        #expect(deleted["events"] as? Int == 7)  // six events, then 'account deleted'
        #expect(deleted["position"] as? Int == before + 1)
        await #expect(try ledger.eventCount() == before + 1)

        let marker = try await Self.storedKey(ledger, stream) ?? []
        #expect(marker.count == 9 && marker.first == 0, "the key store keeps a destroyed marker, not the key: \(marker)")
        #expect(!Self.exists(ledger.dir + "/keys.next") && !Self.exists(ledger.dir + "/keys.old"))
        try await Self.expectNothingLeft(of: key, in: ledger, "after reel account delete")

        // The rewritten key store kept the other account's key: its list and name still open.
        await #expect(try Self.openedKey(ledger, otherStream) == otherKey)
        await #expect(try Self.savedIDs(ledger, Self.other) == [13])
        let settings = try await ledger.json(["settings"], user: Self.other, schema: "settings.schema.json")
        #expect(settings["name"] as? String == "Ann Other")
        #expect(try await ledger.reel(["fav", "add", "tv", "66732"], user: Self.other).status == 0)
        await #expect(try Self.savedIDs(ledger, Self.other) == [13, 66732])
    }

    @Test func bothVerifiersPassAfterDeletion() async throws {
        let ledger = try await Self.makeLedger()
        let before = try await ledger.eventCount()
        #expect(try await ledger.reel(["account", "delete", "--yes"], user: Self.handle).status == 0)

        let swift = try await ledger.reel(["audit", "verify", "--json"])
        #expect(swift.status == 0, "\(swift.stdout)\(swift.stderr)")
        #expect(try Harness.validate(swift.stdout, against: "audit-verify.schema.json").status == 0)
        let python = try await Harness.python("verify_ledger.py", [ledger.dir + "/ledger", "--json"])
        #expect(python.status == 0, "\(python.stdout)\(python.stderr)")
        let a = try Harness.json(swift.stdout), b = try Harness.json(python.stdout)
        #expect(a["ok"] as? Bool == true && b["ok"] as? Bool == true)
        #expect(a["events"] as? Int == before + 1 && b["events"] as? Int == before + 1)
        #expect(a["headHash"] as? String != nil && a["headHash"] as? String == b["headHash"] as? String)
        let text = try await ledger.reel(["audit", "verify"])
        #expect(text.status == 0 && text.stdout.hasPrefix("intact: "), "\(text.stdout)\(text.stderr)")
    }

    @Test func accountsAndHistoryShowTheAccountDeletedAndShredded() async throws {
        let ledger = try await Self.makeLedger()
        let stream = try await Self.stream(of: Self.handle, in: ledger)
        let opened = try await Self.account(stream, in: ledger)["openedAt"] as? String
        let typesBefore = await (try ledger.json(["history"], user: Self.handle, schema: "history.schema.json")["events"] as? [[String: Any]])?
            .map { $0["type"] as? String ?? "?" } ?? []
        let deleted = try await ledger.json(["account", "delete", "--yes"], user: Self.handle, schema: "account-delete.schema.json")
        let deletedAt = deleted["deletedAt"] as? String
        #expect(deletedAt != nil)

        let entry = try await Self.account(stream, in: ledger)
        #expect(entry["user"] is NSNull, "\(entry)")
        #expect(entry["status"] as? String == "deleted")
        #expect(entry["deletedAt"] as? String == deletedAt)
        #expect(entry["openedAt"] as? String == opened)
        #expect(entry["events"] as? Int == 7 && entry["saved"] as? Int == 0)
        let survivor = try await Self.account(try Self.stream(of: Self.other, in: ledger), in: ledger)
        #expect(survivor["status"] as? String == "open" && survivor["deletedAt"] is NSNull)
        let accountsText = try await ledger.reel(["accounts"])
        #expect(accountsText.status == 0)
        #expect(accountsText.stdout.split(separator: "\n").contains { $0.hasPrefix("(deleted)") && $0.contains(stream) }, "\(accountsText.stdout)")
        #expect(!accountsText.stdout.contains(Self.handle))

        // Found by its handle's digest; every event kept, none readable.
        let history = try await ledger.json(["history"], user: Self.handle, schema: "history.schema.json")
        #expect(history["user"] as? String == Self.handle)
        #expect(history["stream"] as? String == stream)
        #expect(history["deletedAt"] as? String == deletedAt)
        let events = history["events"] as? [[String: Any]] ?? []
        #expect(events.map { $0["type"] as? String ?? "?" } == typesBefore + ["account-deleted"])
        #expect(events.compactMap { $0["streamVersion"] as? Int } == Array(1...7))
        for event in events {
            #expect(event["shredded"] as? Bool == true, "\(event)")
            #expect(event["payload"] is NSNull, "\(event)")
            #expect(event["title"] is NSNull, "\(event)")
        }
        let historyText = try await ledger.reel(["history"], user: Self.handle)
        #expect(historyText.status == 0, "\(historyText.stderr)")
        #expect(historyText.stdout.contains("was deleted on"), "\(historyText.stdout)")
        #expect(!historyText.stdout.contains(Self.name) && !historyText.stdout.contains("Fight Club"), "\(historyText.stdout)")

        // Nothing else reads it any more, and says why.
        for command in [["saved"], ["settings"], ["account", "export"]] {
            let out = try await ledger.reel(command, user: Self.handle)
            #expect(out.status == 66, "\(command): \(out.stdout)\(out.stderr)")
            #expect(out.stderr.split(separator: "\n").count == 1 && out.stdout.isEmpty, "\(command): \(out.stdout)\(out.stderr)")
            #expect(out.stderr.contains("the account '\(Self.handle)' was deleted on \(deletedAt ?? "?")"), "\(command): \(out.stderr)")
        }
    }

    @Test func theHandleIsFreeForANewAccountOnANewStream() async throws {
        let ledger = try await Self.makeLedger()
        let old = try await Self.stream(of: Self.handle, in: ledger)
        #expect(try await ledger.reel(["account", "delete", "--yes"], user: Self.handle).status == 0)

        let added = try await ledger.json(["fav", "add", "movie", "238"], user: Self.handle, schema: "command-result.schema.json")
        let new = added["stream"] as? String
        #expect(new != nil && new != old)
        #expect((added["appended"] as? [[String: Any]])?.map { $0["type"] as? String } == ["account-opened", "favorite-added"])
        await #expect(try Self.savedIDs(ledger, Self.handle) == [238])
        let settings = try await ledger.json(["settings"], user: Self.handle, schema: "settings.schema.json")
        #expect(settings["name"] is NSNull && settings["photo"] is NSNull, "nothing of the old account carries over: \(settings)")

        let history = try await ledger.json(["history"], user: Self.handle, schema: "history.schema.json")
        #expect(history["stream"] as? String == new)
        #expect(history["deletedAt"] is NSNull)
        #expect((history["events"] as? [[String: Any]])?.map { $0["shredded"] as? Bool } == [false, false])
        await #expect(try Self.account(old, in: ledger)["status"] as? String == "deleted")
        await #expect(try Self.account(new ?? "?", in: ledger)["user"] as? String == Self.handle)

        // Deleted again: history finds the most recently deleted of the two.
        let second = try await ledger.json(["account", "delete", "--yes"], user: Self.handle, schema: "account-delete.schema.json")
        #expect(second["stream"] as? String == new)
        let last = try await ledger.json(["history"], user: Self.handle, schema: "history.schema.json")
        #expect(last["stream"] as? String == new)
        #expect(last["deletedAt"] as? String == second["deletedAt"] as? String)
        await #expect(try Self.account(old, in: ledger)["status"] as? String == "deleted")
    }

    // MARK: - Refusals

    @Test func refusalsSayWhyInOneLineAndWriteNothing() async throws {
        let empty = Ledger()
        try await empty.fails(["account", "delete", "--yes"], user: Self.handle, status: 66, "no ledger in")
        #expect(try Self.files(under: empty.dir) == [], "nothing created")

        let ledger = try await Self.makeLedger()
        let stream = try await Self.stream(of: Self.handle, in: ledger)
        let key = try await Self.storedKey(ledger, stream)
        let before = try await ledger.eventCount()
        try await ledger.fails(["account", "delete"], user: Self.handle, status: 64, "needs --yes")
        try await ledger.fails(["account", "delete", "--json"], user: Self.handle, status: 64, "needs --yes")
        try await ledger.fails(["account", "delete", "--yes"], user: "nobody", status: 66, "there is no account 'nobody'")
        try await ledger.fails(["account", "delete", "--yes", "--json"], user: "nobody", status: 66, "there is no account 'nobody'")
        await #expect(try ledger.eventCount() == before)
        await #expect(try Self.storedKey(ledger, stream) == key)
        await #expect(try Self.savedIDs(ledger, Self.handle) == [550, 603, 1399])

        #expect(try await ledger.reel(["account", "delete", "--yes"], user: Self.handle).status == 0)
        try await ledger.fails(["account", "delete", "--yes"], user: Self.handle, status: 66, "the account '\(Self.handle)' is deleted already")
        try await ledger.fails(["account", "delete", "--yes", "--json"], user: Self.handle, status: 66, "is deleted already")
        await #expect(try ledger.eventCount() == before + 1)
    }

    /// Runs `reel ARGUMENTS` on a pseudo-terminal (util-linux `script`) with `typed` as what the
    /// person types. Returns what the terminal showed (the prompt and messages on stderr too).
    static func onATerminal(_ ledger: Ledger, _ arguments: [String], user: String, typing typed: String) throws -> Harness.Output {
        let command = ([Harness.binaries + "/reel"] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("REEL_") && !$0.key.hasPrefix("TMDB_") }
        env["REEL_DATA_DIR"] = ledger.dir
        env["REEL_USER"] = user
        env["XDG_CONFIG_HOME"] = ledger.dir + "/config"
        env["NO_COLOR"] = "1"
        env["TERM"] = "dumb"
        env["SHELL"] = "/bin/sh"
        let dir = temporaryDirectory("terminal")
        try Data(typed.utf8).write(to: URL(fileURLWithPath: dir + "/stdin"))
        let ended = try ChildProcess.spawn(
            ["/usr/bin/script", "-qec", command, "/dev/null"], environment: env, standardInput: .read(dir + "/stdin"),
            standardOutput: .write(dir + "/stdout"), standardError: .write(dir + "/stderr")
        ).wait()
        return Harness.Output(
            status: ended.status,
            stdout: ((try? String(contentsOfFile: dir + "/stdout", encoding: .utf8)) ?? "").replacingOccurrences(of: "\r", with: ""),
            stderr: (try? String(contentsOfFile: dir + "/stderr", encoding: .utf8)) ?? "")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func atATerminalTheHandleMustBeTypedAgain() async throws {
        let ledger = try await Self.makeLedger()
        let stream = try await Self.stream(of: Self.handle, in: ledger)
        let before = try await ledger.eventCount()

        let wrong = try Self.onATerminal(ledger, ["account", "delete"], user: Self.handle, typing: "zq-handle-8\n")
        #expect(wrong.status == 64, "\(wrong.stdout)\(wrong.stderr)")
        #expect(wrong.stdout.contains("Type the handle to confirm:"), "\(wrong.stdout)")
        #expect(wrong.stdout.contains("does not match"), "\(wrong.stdout)")
        #expect(!wrong.stdout.contains("deleted the account"), "\(wrong.stdout)")
        await #expect(try ledger.eventCount() == before)
        await #expect(try Self.account(stream, in: ledger)["status"] as? String == "open")
        _ = try await Self.liveKey(ledger, stream)

        let right = try Self.onATerminal(ledger, ["account", "delete"], user: Self.handle, typing: Self.handle + "\n")
        #expect(right.status == 0, "\(right.stdout)\(right.stderr)")
        #expect(right.stdout.contains("Type the handle to confirm:"), "\(right.stdout)")
        #expect(right.stdout.contains("deleted the account '\(Self.handle)' for good"), "\(right.stdout)")
        await #expect(try ledger.eventCount() == before + 1)
        await #expect(try Self.account(stream, in: ledger)["status"] as? String == "deleted")
    }

    // MARK: - Crashes

    /// The steps of a deletion, in order (`REEL_FAILPOINT=delete:<step>` kills `reel` there).
    static let steps = [
        "appending", "key-store-prepared", "recorded", "key-store-swapped", "key-store-rewritten", "completed",
    ]

    @Test(arguments: steps)
    func aCrashAtAnyStepLeavesTheAccountIntactOrIsFinishedByTheNextCommand(step: String) async throws {
        let ledger = try await Self.makeLedger()
        let stream = try await Self.stream(of: Self.handle, in: ledger)
        let otherStream = try await Self.stream(of: Self.other, in: ledger)
        let key = try await Self.liveKey(ledger, stream)
        let otherKey = try await #require(try Self.openedKey(ledger, otherStream))
        let before = try await ledger.eventCount()

        let crash = try await ledger.reel(["account", "delete", "--yes"], user: Self.handle, environment: ["REEL_FAILPOINT": "delete:" + step])
        #expect(crash.status == 128 + SIGKILL, "\(step): killed by SIGKILL, not exit \(crash.status): \(crash.stderr)")
        #expect(crash.stdout.isEmpty, "\(step): \(crash.stdout)")

        if step == "appending" || step == "key-store-prepared" {
            // Killed before the commit: nothing happened.
            await #expect(try ledger.eventCount() == before, "\(step)")
            await #expect(try Self.storedKey(ledger, stream) == [2] + key, "\(step): the key is intact")
            await #expect(try Self.savedIDs(ledger, Self.handle) == [550, 603, 1399], "\(step)")
            let settings = try await ledger.json(["settings"], user: Self.handle, schema: "settings.schema.json")
            #expect(settings["name"] as? String == Self.name, "\(step)")
            #expect((settings["photo"] as? [String: Any])?["contentType"] as? String == "image/png", "\(step)")
            let entry = try await Self.account(stream, in: ledger)
            #expect(entry["status"] as? String == "open" && entry["user"] as? String == Self.handle, "\(step): \(entry)")
            let history = try await ledger.json(["history"], user: Self.handle, schema: "history.schema.json")
            #expect(history["deletedAt"] is NSNull, "\(step)")
            #expect((history["events"] as? [[String: Any]])?.allSatisfy { $0["shredded"] as? Bool == false } == true, "\(step)")
            #expect(!Self.exists(ledger.dir + "/keys.next") && !Self.exists(ledger.dir + "/keys.old"), "\(step)")
            #expect(try await ledger.reel(["audit", "verify"]).status == 0, "\(step)")
            // And the crash left nothing in the way (a lock, a half transaction): deleting works.
            let again = try await ledger.json(["account", "delete", "--yes"], user: Self.handle, schema: "account-delete.schema.json")
            #expect(again["position"] as? Int == before + 1, "\(step)")
            try await Self.expectNothingLeft(of: key, in: ledger, "\(step), deleted again")
            return
        }

        // Committed. Before the key store is rewritten, the key's bytes are still in some file (in
        // keys/, freed or not, or in the old copy after the swap): the next command has work to do.
        if ["recorded", "key-store-swapped"].contains(step) {
            #expect(try !Self.files(in: ledger, containing: key).isEmpty, "\(step): the crash should leave the key's bytes behind")
        }
        // The next command, whatever it is (here a read of another account), finishes the deletion.
        await #expect(try Self.savedIDs(ledger, Self.other) == [13], "\(step): the first command after the crash")
        #expect(!Self.exists(ledger.dir + "/keys.next") && !Self.exists(ledger.dir + "/keys.old"), "\(step): rewrite leftovers remain")
        let marker = try await Self.storedKey(ledger, stream) ?? []
        #expect(marker.count == 9 && marker.first == 0, "\(step): the key is not destroyed: \(marker)")
        try await Self.expectNothingLeft(of: key, in: ledger, "\(step), after the next command")
        await #expect(try Self.openedKey(ledger, otherStream) == otherKey, "\(step): the other account's key was kept")

        await #expect(try ledger.eventCount() == before + 1, "\(step)")
        let entry = try await Self.account(stream, in: ledger)
        #expect(entry["status"] as? String == "deleted" && entry["user"] is NSNull && entry["deletedAt"] is String, "\(step): \(entry)")
        let history = try await ledger.json(["history"], user: Self.handle, schema: "history.schema.json")
        #expect(history["stream"] as? String == stream && history["deletedAt"] is String, "\(step)")
        let events = history["events"] as? [[String: Any]] ?? []
        #expect(events.count == 7 && events.allSatisfy { $0["shredded"] as? Bool == true && $0["payload"] is NSNull }, "\(step): \(events)")
        let verify = try await ledger.reel(["audit", "verify"])
        #expect(verify.status == 0, "\(step): \(verify.stdout)\(verify.stderr)")
        #expect(try await Harness.python("verify_ledger.py", [ledger.dir + "/ledger"]).status == 0, "\(step)")
        try await ledger.fails(["account", "delete", "--yes"], user: Self.handle, status: 66, "is deleted already")
        await #expect(try Self.savedIDs(ledger, Self.other) == [13], "\(step)")
    }
}
