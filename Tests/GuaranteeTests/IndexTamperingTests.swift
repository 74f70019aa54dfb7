import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// Edits of the indexes beside the chain (`stream-index`, `event-ids`, `streams`,
/// `closed-streams`) that keep every count as it was: `reel audit verify` and
/// `Tools/verify_ledger.py` must both find them, at the same position and by the same rule.
@Suite struct IndexTamperingTests {
    typealias Ledger = LedgerCommandTests.Ledger

    /// ann: opened, 550, 603 (positions 1-3), 238 (6); ben: opened, 1399 (4, 5), deleted (7).
    func makeLedger() async throws -> Ledger {
        let ledger = Ledger()
        try await ledger.reel(["fav", "add", "movie", "550", "603"], user: "ann")
        try await ledger.reel(["fav", "add", "tv", "1399"], user: "ben")
        try await ledger.reel(["fav", "add", "movie", "238"], user: "ann")
        let deleted = try await ledger.reel(["account", "delete", "--yes"], user: "ben")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        await #expect(try ledger.eventCount() == 7)
        return ledger
    }

    /// Runs `code` in a write transaction of the ledger with the databases open (`events`,
    /// `index`, `ids`, `streams`, `closed`), `ann` and `ben` their stream ids, and helpers.
    func edit(_ ledger: Ledger, _ code: String) async throws {
        let script = """
            import lmdb, struct, sys
            env = lmdb.open(sys.argv[1] + "/ledger", max_dbs=64, subdir=True)
            with env.begin(write=True) as t:
                db = lambda name: env.open_db(name, txn=t, create=False)
                events, index, ids, streams, closed = db(b"events"), db(b"stream-index"), db(b"event-ids"), db(b"streams"), db(b"closed-streams")
                def envelope(p): return t.get(struct.pack(">Q", p), db=events)
                def stream(p): e = envelope(p); return e[76:76 + e[75]]
                def event_id(p): return envelope(p)[41:57]
                def key(s, v): return s + b"\\x00" + struct.pack(">Q", v)
                def pos(p): return struct.pack(">Q", p)
                ann, ben = stream(1), stream(4)
            \(code.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            env.close()
            """
        let out = try await Harness.run("python3", ["-c", script, ledger.dir])
        #expect(out.status == 0, "\(out.stderr)")
    }

    struct Edit: Sendable, CustomStringConvertible {
        let description: String
        let code: String
        let rule: String
        let position: Int
    }

    static let edits: [Edit] = [
        Edit(description: "a stream-index entry pointing at the event before", code: "t.put(key(ann, 3), pos(2), db=index)", rule: "index-mismatch", position: 3),
        Edit(description: "two stream-index entries swapped", code: "t.put(key(ann, 2), pos(3), db=index); t.put(key(ann, 3), pos(2), db=index)",
             rule: "index-mismatch", position: 2),
        Edit(description: "a stream-index entry moved to another version", code: "t.delete(key(ann, 3), db=index); t.put(key(ann, 9), pos(3), db=index)",
             rule: "index-mismatch", position: 3),
        Edit(description: "a stream-index entry moved to another stream", code: "t.delete(key(ann, 4), db=index); t.put(key(ben, 4), pos(6), db=index)",
             rule: "index-mismatch", position: 6),
        Edit(description: "an event-ids entry pointing elsewhere", code: "t.put(event_id(5), pos(4), db=ids)", rule: "index-mismatch", position: 5),
        Edit(description: "an event-ids entry under another id", code: "t.delete(event_id(2), db=ids); t.put(b'\\x01' * 16, pos(2), db=ids)",
             rule: "index-mismatch", position: 2),
        Edit(description: "a streams entry changed", code: "t.put(ann, struct.pack('>Q', 3), db=streams)", rule: "index-mismatch", position: 7),
        Edit(description: "a forged closed-streams record", code: "t.put(ann, b'\\x00' + struct.pack('>q', 1_700_000_000_000_000), db=closed)",
             rule: "closed-streams", position: 6),
        Edit(description: "a deleted account's closed-streams record removed", code: "t.delete(ben, db=closed)", rule: "closed-streams", position: 7),
    ]

    @Test(arguments: edits)
    func bothVerifiersFindAnIndexEditThatKeepsTheCounts(_ edit: Edit) async throws {
        let ledger = try await makeLedger()
        #expect(try await ledger.reel(["audit", "verify"]).status == 0)
        try await self.edit(ledger, edit.code)
        let swift = try await ledger.reel(["audit", "verify", "--json"])
        let python = try await Harness.python("verify_ledger.py", [ledger.dir + "/ledger", "--json"])
        #expect(swift.status == 65, "\(edit): \(swift.stdout) \(swift.stderr)")
        #expect(python.status == 1, "\(edit): \(python.stdout) \(python.stderr)")
        #expect(try Harness.validate(swift.stdout, against: "audit-verify.schema.json").status == 0)
        for output in [swift, python] {
            let problem = try Harness.json(output.stdout)["problem"] as? [String: Any]
            #expect(problem?["rule"] as? String == edit.rule, "\(edit): \(output.stdout)")
            #expect(problem?["position"] as? Int == edit.position, "\(edit): \(output.stdout)")
        }
    }

    /// The edit that made `saved --as-of v3` return one title instead of two, and verify say intact.
    @Test func anIndexEditThatHidAnEventIsFoundAndTheViewRefused() async throws {
        let ledger = try await makeLedger()
        try await edit(ledger, "t.put(key(ann, 3), pos(2), db=index)")
        #expect(try await ledger.reel(["audit", "verify"]).stdout.contains("DAMAGED at position 3: index-mismatch"))
        try await ledger.fails(["saved", "--as-of", "v3"], user: "ann", status: 65, "index-mismatch")
    }
}
