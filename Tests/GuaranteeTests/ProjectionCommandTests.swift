import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// `reel projections rebuild`: drift found, repaired, and a failed rebuild changing nothing.
@Suite struct ProjectionCommandTests {
    typealias Ledger = LedgerHome

    /// Runs Python against the ledger's LMDB environment, as an independent writer would.
    static func lmdb(_ dir: String, _ code: String) async throws {
        let script = """
            import lmdb, sys
            env = lmdb.open(sys.argv[1] + "/ledger", max_dbs=64, subdir=True)
            live = "a"
            with env.begin() as t:
                got = t.get(b"live", db=env.open_db(b"projections", txn=t, create=False))
                if got: live = got.decode()
            \(code)
            env.close()
            """
        let out = try await Harness.run("python3", ["-c", script, dir])
        #expect(out.status == 0, "\(out.stderr)")
    }

    func makeLedger() async throws -> Ledger {
        let ledger = Ledger()
        try await ledger.reel(["fav", "add", "movie", "550", "603"], user: "ann")
        try await ledger.reel(["settings", "name", "Ann"], user: "ann")
        try await ledger.reel(["fav", "add", "tv", "1399"], user: "ben")
        return ledger
    }

    @Test func aCleanLedgerChecksAndRebuildsWithoutDrift() async throws {
        let ledger = try await makeLedger()
        let check = try await ledger.json(["projections", "rebuild", "--check"], schema: "projections-rebuild.schema.json")
        #expect(check["ok"] as? Bool == true)
        #expect(check["swapped"] as? Bool == false)
        #expect(check["events"] as? Int == 6)
        let rebuild = try await ledger.json(["projections", "rebuild"], schema: "projections-rebuild.schema.json")
        #expect(rebuild["swapped"] as? Bool == true)
        #expect(rebuild["accounts"] as? Int == 2)
        let saved = try await ledger.json(["saved"], user: "ann", schema: "saved.schema.json")
        #expect((saved["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [550, 603])
        let text = try await ledger.reel(["projections", "rebuild", "--check"])
        #expect(text.stdout.hasPrefix("checked: 6 events, 2 accounts, no drift"))
    }

    @Test func driftIsReportedByCheckAndRepairedByRebuild() async throws {
        let ledger = try await makeLedger()
        // Lose ann's handle behind Reel's back (the directory is keyed by handle digests).
        try await Self.lmdb(
            ledger.dir,
            """
            import hashlib
            with env.begin(write=True) as t:
                key = hashlib.sha256(b"reel-handle/1\\x00ann").digest()
                assert t.delete(key, db=env.open_db(("projection-%s-handles" % live).encode(), txn=t))
            """)
        // The live projections no longer know ann: she reads as an account with nothing yet…
        let lost = try await ledger.reel(["saved"], user: "ann")
        #expect(lost.status == 0 && lost.stdout.contains("nothing saved yet"), "\(lost.stdout)\(lost.stderr)")
        try await ledger.fails(["account", "export"], user: "ann", status: 66, "there is no account 'ann'")
        // …and the check finds the damage.

        let check = try await ledger.reel(["projections", "rebuild", "--check", "--json"])
        #expect(check.status == 65)
        #expect(try Harness.validate(check.stdout, against: "cli/projections-rebuild.schema.json").status == 0)
        let report = try Harness.json(check.stdout)
        #expect(report["ok"] as? Bool == false)
        let drift = report["drift"] as? [[String: Any]] ?? []
        #expect(drift.map { $0["kind"] as? String } == ["handle"])
        #expect(drift.first?["subject"] as? String == "ann")

        let rebuild = try await ledger.reel(["projections", "rebuild"])
        #expect(rebuild.status == 0)
        #expect(rebuild.stdout.contains("drift: handle: ann"))
        #expect(rebuild.stdout.contains("rebuilt and repaired"))
        let saved = try await ledger.json(["saved"], user: "ann", schema: "saved.schema.json")
        #expect((saved["items"] as? [Any])?.count == 2)
        #expect(try await ledger.reel(["projections", "rebuild", "--check"]).status == 0)
    }

    @Test func aDamagedStateIsAnIntegrityErrorUntilRebuilt() async throws {
        let ledger = try await makeLedger()
        try await Self.lmdb(
            ledger.dir,
            """
            with env.begin(write=True) as t:
                states = env.open_db(("projection-%s-states" % live).encode(), txn=t)
                for key, value in list(t.cursor(db=states)):
                    t.put(key, value[:-1] + bytes([value[-1] ^ 1]), db=states)
            """)
        try await ledger.fails(["saved"], user: "ann", status: 65, "does not authenticate")
        let rebuild = try await ledger.reel(["projections", "rebuild"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        #expect(rebuild.stdout.contains("rebuilt"))
        #expect(try await ledger.reel(["saved"], user: "ann").status == 0)
        #expect(try await ledger.reel(["projections", "rebuild", "--check"]).status == 0)
    }

    @Test func aFailedRebuildLeavesTheLiveProjectionsUntouched() async throws {
        let ledger = try await makeLedger()
        let before = try await ledger.reel(["saved", "--json"], user: "ann").stdout
        // Break ben's event at position 6 (its GCM tag): the replay cannot open it.
        let tamper = try await Harness.python("tamper_ledger.py", [ledger.dir + "/ledger", "flip-byte", "6", "-40"])
        #expect(tamper.status == 0, "\(tamper.stderr)")
        try await ledger.fails(["projections", "rebuild"], status: 65, "position 6")
        #expect(try await ledger.reel(["saved", "--json"], user: "ann").stdout == before)
        try await ledger.fails(["projections", "rebuild", "--check"], status: 65, "position 6")
    }
}
