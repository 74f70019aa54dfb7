import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Commands that replay or read the log check what they read: a rebuild refuses a broken chain
/// and changes nothing, and crafted data (a duplicate event, an edited stream index) ends every
/// command with one line and exit 65, never a loop.
@Suite struct BrokenChainTests {
    typealias Ledger = LedgerCommandTests.Ledger

    /// ann: opened, 550, 603 (positions 1-3), name (6), 238 (7), 550 removed (9); ben: opened,
    /// 1399 (4, 5), 680 (8).
    func makeLedger() async throws -> Ledger {
        let ledger = Ledger()
        try await ledger.reel(["fav", "add", "movie", "550", "603"], user: "ann")
        try await ledger.reel(["fav", "add", "tv", "1399"], user: "ben")
        try await ledger.reel(["settings", "name", "Ann"], user: "ann")
        try await ledger.reel(["fav", "add", "movie", "238"], user: "ann")
        try await ledger.reel(["fav", "add", "movie", "680"], user: "ben")
        try await ledger.reel(["fav", "remove", "movie", "550"], user: "ann")
        await #expect(try ledger.eventCount() == 9)
        return ledger
    }

    func tamper(_ ledger: Ledger, _ edits: [[String]]) async throws {
        for edit in edits {
            let out = try await Harness.python("tamper_ledger.py", [ledger.dir + "/ledger"] + edit)
            #expect(out.status == 0, "\(edit): \(out.stderr)")
        }
    }

    /// Every projection database and the control record, as one digest: what a rebuild may change.
    func projections(_ ledger: Ledger) async throws -> String {
        let script = """
            import hashlib, lmdb, sys
            env = lmdb.open(sys.argv[1] + "/ledger", max_dbs=64, subdir=True, readonly=True, lock=False)
            digest = hashlib.sha256()
            with env.begin() as t:
                for name, _ in t.cursor():
                    if name.startswith(b"projection"):
                        for key, value in t.cursor(db=env.open_db(name, txn=t, create=False)):
                            digest.update(name + b"/" + key + b"=" + value + b";")
            print(digest.hexdigest())
            """
        let out = try await Harness.run("python3", ["-c", script, ledger.dir])
        #expect(out.status == 0, "\(out.stderr)")
        return out.stdout
    }

    /// Runs `reel` under `timeout`: a command that loops ends as 124, not as a hung test.
    func bounded(_ ledger: Ledger, _ arguments: [String], user: String? = nil) async throws -> Harness.Output {
        var env = ["TMDB_API_TOKEN": "", "TMDB_API_KEY": "", "XDG_CONFIG_HOME": ledger.dir + "/config", "REEL_DATA_DIR": ledger.dir]
        if let user { env["REEL_USER"] = user }
        return try await Harness.run("timeout", ["30", Harness.binaries + "/reel"] + arguments, environment: env)
    }

    struct Damage: Sendable, CustomStringConvertible {
        let description: String
        let edits: [[String]]
        let message: String
    }

    static let rebuildCases: [Damage] = [
        Damage(description: "a deleted event", edits: [["delete", "4"]], message: "position 4: gap"),
        Damage(description: "two events swapped", edits: [["swap", "3", "7"]], message: "position 3: position-mismatch"),
        Damage(description: "a changed event, chain and head redone", edits: [["set-field", "6", "stream-version", "9"], ["rehash-from", "6", "--update-head"]],
               message: "position 6: stream-version"),
        Damage(description: "events cut from the end", edits: [["truncate", "2"]], message: "head-mismatch"),
    ]

    @Test(arguments: rebuildCases)
    func aRebuildRefusesABrokenChainAndChangesNothing(_ damage: Damage) async throws {
        let ledger = try await makeLedger()
        let before = try await projections(ledger)
        try await tamper(ledger, damage.edits)
        for arguments in [["projections", "rebuild"], ["projections", "rebuild", "--check"]] {
            try await ledger.fails(arguments, status: 65, damage.message)
            await #expect(try projections(ledger) == before, "\(arguments) changed the projections")
        }
        let refused = try await ledger.reel(["projections", "rebuild"])
        #expect(refused.stderr.contains("nothing was changed"), "\(refused.stderr)")
        #expect(!refused.stdout.contains("rebuilt"))
    }

    /// Projections of an older format are rebuilt when the ledger opens: that rebuild checks too.
    @Test func theUpgradeOnOpenRefusesABrokenChainToo() async throws {
        let ledger = try await makeLedger()
        try await ProjectionCommandTests.lmdb(
            ledger.dir,
            """
            with env.begin(write=True) as t:
                t.put(b"format", b"reel-projections/1", db=env.open_db(b"projections", txn=t))
            """)
        let before = try await projections(ledger)
        try await tamper(ledger, [["delete", "5"]])
        try await ledger.fails(["accounts"], status: 65, "position 5: gap")
        await #expect(try projections(ledger) == before)
    }

    /// A copy of an event inserted in the middle and the chain and head written again: the keys
    /// after it no longer match the positions in the envelopes, which made catch-up read the same
    /// batch forever.
    @Test func aDuplicateEventInTheMiddleEndsEveryCommandWith65() async throws {
        let ledger = try await makeLedger()
        // The head moves to 10, so the projections (at 9) are behind and every command catches up.
        try await tamper(ledger, [["insert", "5"], ["rehash-from", "5", "--update-head"]])
        let commands: [([String], String?)] = [
            (["projections", "rebuild", "--check"], nil), (["projections", "rebuild"], nil), (["accounts"], nil), (["saved"], "ann"),
            (["saved", "--as-of", "v3"], "ann"), (["history"], "ben"), (["fav", "add", "movie", "13"], "ann"),
        ]
        for (arguments, user) in commands {
            let out = try await bounded(ledger, arguments, user: user)
            #expect(out.status == 65, "\(arguments): exit \(out.status), \(out.stderr)")
            #expect(out.stderr.hasPrefix("reel: ") && out.stderr.split(separator: "\n").count == 1, "\(arguments): \(out.stderr)")
            #expect(out.stderr.contains("position-mismatch"), "\(arguments): \(out.stderr)")
        }
        let verify = try await ledger.reel(["audit", "verify"])
        #expect(verify.status == 65)
        #expect(verify.stdout.contains("position 6: position-mismatch"), "\(verify.stdout)")
    }

    /// Runs Python with the ledger's environment open as `env`, `ann` as ann's stream id (bytes)
    /// and `index` as the stream-index database.
    func editIndex(_ ledger: Ledger, _ code: String) async throws {
        let script = """
            import lmdb, struct, sys
            env = lmdb.open(sys.argv[1] + "/ledger", max_dbs=64, subdir=True)
            with env.begin(write=True) as t:
                index = env.open_db(b"stream-index", txn=t, create=False)
                events = env.open_db(b"events", txn=t, create=False)
                first = t.get(struct.pack(">Q", 1), db=events)
                ann = first[76:76 + first[75]]
                def key(v): return ann + b"\\x00" + struct.pack(">Q", v)
                def pos(p): return struct.pack(">Q", p)
            \(code.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            env.close()
            """
        let out = try await Harness.run("python3", ["-c", script, ledger.dir])
        #expect(out.status == 0, "\(out.stderr)")
    }

    struct IndexEdit: Sendable, CustomStringConvertible {
        let description: String
        let code: String
    }

    static let indexEdits: [IndexEdit] = [
        IndexEdit(description: "an entry removed", code: "t.delete(key(3), db=index)"),
        IndexEdit(description: "an entry pointing backwards", code: "t.put(key(3), pos(2), db=index)"),
        IndexEdit(description: "an entry pointing at another stream's event", code: "t.put(key(2), pos(4), db=index)"),
        IndexEdit(description: "an entry added past the stream's end", code: "t.put(key(7), pos(7), db=index)"),
        IndexEdit(description: "versions repeating", code: "t.put(key(4), pos(3), db=index)"),
    ]

    /// `saved --as-of v3` once returned one title instead of two after such an edit.
    @Test(arguments: indexEdits)
    func aStreamReadThroughAnEditedIndexIsRefused(_ edit: IndexEdit) async throws {
        let ledger = try await makeLedger()
        try await editIndex(ledger, edit.code)
        for arguments in [["saved", "--as-of", "v3"], ["history"], ["account", "export", "--no-details"]] {
            let out = try await bounded(ledger, arguments, user: "ann")
            #expect(out.status == 65, "\(edit): \(arguments): exit \(out.status), \(out.stdout) \(out.stderr)")
            #expect(out.stderr.hasPrefix("reel: ") && out.stderr.split(separator: "\n").count == 1, "\(arguments): \(out.stderr)")
            #expect(out.stderr.contains("index-mismatch"), "\(edit): \(arguments): \(out.stderr)")
        }
    }
}
