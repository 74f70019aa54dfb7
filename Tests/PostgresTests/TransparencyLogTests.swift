import EndToEndSupport
import Foundation
import NIOHTTP1
import ReelTestSupport
import Testing

/// The ledger as a transparency log, through the built `reel`, on LMDB and on PostgreSQL: signed
/// checkpoints and inclusion proofs that Reel checks and that the Go checksum database's
/// `sumdb/tlog` and `sumdb/note` check too (`Tools/tlogcheck`); one flipped byte of a proof or of
/// its checkpoint and both refuse.
@Suite struct TransparencyLogTests {
    static let started = Task { try await PostgresServer.started("TransparencyLogTests") }

    enum Store: String, CaseIterable { case lmdb, postgres }

    static func ledger(_ store: Store) async throws -> LedgerHome {
        try await LedgerHome.make(on: store == .postgres ? try await started.value : nil)
    }

    @Test(arguments: Store.allCases)
    func everyEventsProofChecksInReelAndInGosTlog(_ store: Store) async throws {
        let ledger = try await Self.ledger(store)
        // 25 events over three accounts (each opened, then named): a tree with partial subtrees
        // at several levels.
        for round in 0..<8 {
            for user in ["ann", "bob", "cy"] where round < 7 || user == "ann" {
                let out = try await ledger.reel(["settings", "name", "\(user) \(round)"], user: user)
                #expect(out.status == 0, "\(out.stderr)")
            }
        }
        let checkpoint = try await ledger.reel(["audit", "checkpoint"])
        #expect(checkpoint.status == 0, "checkpoint: \(checkpoint.stderr)")
        let lines = checkpoint.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6 && lines[0].hasPrefix("reel.ledger/") && lines[1] == "25" && lines[3] == "" && lines[4].hasPrefix("\u{2014} reel.ledger/"), "\(checkpoint.stdout)")
        let key = try await ledger.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.hasPrefix(String(lines[0]) + "+"), "\(key)")
        #expect(try await ledger.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == key, "the key is kept")
        // Each command's --json, against its schema.
        _ = try await ledger.json(["audit", "checkpoint"], schema: "audit-checkpoint.schema.json")
        #expect(try await ledger.json(["audit", "key"], schema: "audit-key.schema.json")["key"] as? String == key)
        let provedJSON = try await ledger.json(["audit", "prove", "3", "--out", ledger.dir + "/json.tlog-proof"], schema: "audit-prove.schema.json")
        #expect(provedJSON["position"] as? Int == 3 && provedJSON["index"] as? Int == 2)
        let checkedJSON = try await ledger.json(["audit", "check-proof", ledger.dir + "/json.tlog-proof", "--key", key], schema: "audit-check-proof.schema.json")
        #expect(checkedJSON["position"] as? Int == 3 && checkedJSON["witnesses"] as? Int == 0)
        // From standard input (-), as the help says; an output path Reel will not write is 64.
        let piped = try await Harness.run(
            "/bin/sh", ["-c", "\"$0\" audit check-proof - --key \"$1\" < \"$2\"", Harness.binaries + "/reel", key, ledger.dir + "/json.tlog-proof"])
        #expect(piped.status == 0 && piped.stdout.contains("position 3 "), "\(piped.stdout)\(piped.stderr)")
        let intoDirectory = try await ledger.reel(["audit", "prove", "3", "--out", ledger.dir])
        #expect(intoDirectory.status == 64 && intoDirectory.stderr.split(separator: "\n").count == 1, "\(intoDirectory.status) \(intoDirectory.stderr)")

        var files: [String] = []
        for position in 1...25 {
            let file = ledger.dir + "/proof-\(position).tlog-proof"
            let proved = try await ledger.reel(["audit", "prove", String(position), "--out", file])
            #expect(proved.status == 0, "\(proved.stderr)")
            let checked = try await ledger.reel(["audit", "check-proof", file, "--key", key])
            #expect(checked.status == 0 && checked.stdout.contains("position \(position) "), "\(checked.stdout)\(checked.stderr)")
            files.append(file)
        }
        let go = try await GoTlogCheck.proofs(files, key: key)
        #expect(go.status == 0, "\(go.stdout)\(go.stderr)")
        #expect(go.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count == 25, "\(go.stdout)")

        // One byte flipped: in a proof's hash, in the envelope, in the checkpoint's tree hash, in
        // its signature. Both verifiers refuse each.
        let text = try String(contentsOfFile: files[4], encoding: .utf8)
        var damaged: [String] = []
        for (index, (find, replace)) in Self.flips(text).enumerated() {
            let file = ledger.dir + "/damaged-\(index).tlog-proof"
            try text.replacingOccurrences(of: find, with: replace).write(toFile: file, atomically: true, encoding: .utf8)
            let checked = try await ledger.reel(["audit", "check-proof", file, "--key", key])
            #expect(checked.status == 65 && checked.stderr.split(separator: "\n").count == 1, "\(index): \(checked.status) \(checked.stderr)")
            damaged.append(file)
        }
        let refused = try await GoTlogCheck.proofs(damaged, key: key)
        #expect(refused.status == 1 && refused.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("FAIL ") }, "\(refused.stdout)")

        // A store written before the tree (version 4, migrated): its next write transaction
        // builds the whole tree from the envelopes, the same tree.
        if store == .postgres, let url = ledger.store, let database = url.split(separator: "/").last?.split(separator: "?").first {
            let server = try await Self.started.value
            _ = try await server.psql("DELETE FROM reel_tree; UPDATE reel_head SET tree = '\\x0000000000000000'", database: String(database))
            let rebuilt = try await ledger.reel(["audit", "checkpoint"])
            #expect(rebuilt.stdout.split(separator: "\n").prefix(3) == lines.prefix(3), "\(rebuilt.stdout)\(rebuilt.stderr)")
            #expect(try await server.psql("SELECT count(*) FROM reel_tree", database: String(database)) == "47", "2 × 25 − popcount(25)")
        }

        // Another ledger's key does not check this ledger's proofs.
        let other = try await Self.ledger(.lmdb)
        _ = try await other.reel(["settings", "name", "Zed"], user: "zed")
        let otherKey = try await other.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let foreign = try await ledger.reel(["audit", "check-proof", files[0], "--key", otherKey])
        #expect(foreign.status == 65 && foreign.stderr.contains("not signed by"), "\(foreign.stderr)")
    }

    /// A checkpoint kept, the ledger grows: `reel audit consistency` proves it only grew, and the
    /// proof checks in Reel and in Go's tlog. A copy of the ledger that went its own way (its
    /// events after the 6th are others) is caught: its first 10 events are not the checkpoint's.
    @Test func aLedgerThatOnlyGrewProvesItAndARewrittenOneIsCaught() async throws {
        let ledger = try await Self.ledger(.lmdb)
        for user in ["ann", "bob", "cy"] { #expect(try await ledger.reel(["settings", "name", user], user: user).status == 0) }
        let fork = LedgerHome()
        #expect(try await Harness.run("cp", ["-a", ledger.dir + "/.", fork.dir]).status == 0)
        for user in ["dee", "eve"] { #expect(try await ledger.reel(["settings", "name", user], user: user).status == 0) }
        let older = ledger.dir + "/older.checkpoint"
        try (try await ledger.reel(["audit", "checkpoint"])).stdout.write(toFile: older, atomically: true, encoding: .utf8)
        for user in ["fay", "gus", "hal"] { #expect(try await ledger.reel(["settings", "name", user], user: user).status == 0) }
        let key = try await ledger.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        let file = ledger.dir + "/grew.proof"
        let proved = try await ledger.reel(["audit", "consistency", older, "--out", file])
        #expect(proved.status == 0 && proved.stdout.hasPrefix("consistent: 10 → 16 events"), "\(proved.stdout)\(proved.stderr)")
        let checked = try await ledger.reel(["audit", "check-proof", file, "--key", key])
        #expect(checked.status == 0 && checked.stdout.contains("only grew from 10 to 16 events"), "\(checked.stdout)\(checked.stderr)")
        let go = try await GoTlogCheck.consistency([file], key: key)
        #expect(go.status == 0 && go.stdout.contains("grew from 10 to 16"), "\(go.stdout)\(go.stderr)")
        let json = try await ledger.json(["audit", "consistency", older], schema: "audit-consistency.schema.json")
        #expect(json["oldSize"] as? Int == 10 && json["size"] as? Int == 16 && json["file"] is NSNull, "\(json)")
        _ = try await ledger.json(["audit", "check-proof", file, "--key", key], schema: "audit-check-proof.schema.json")

        // One hash of the path changed: both refuse.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let damaged = ledger.dir + "/damaged.proof"
        try text.replacingOccurrences(of: lines[1], with: String(lines[1].reversed())).write(toFile: damaged, atomically: true, encoding: .utf8)
        #expect(try await ledger.reel(["audit", "check-proof", damaged, "--key", key]).status == 65)
        #expect(try await GoTlogCheck.consistency([damaged], key: key).status == 1)

        // The fork: same first events, same origin and key, then others.
        for user in ["ivy", "jo", "kit", "lu"] { #expect(try await fork.reel(["settings", "name", user], user: user).status == 0) }
        let caught = try await fork.reel(["audit", "consistency", older])
        #expect(caught.status == 65 && caught.stderr.contains("rewritten"), "\(caught.stdout)\(caught.stderr)")
        // Another ledger's checkpoint: not signed by this one's key.
        let other = try await Self.ledger(.lmdb)
        _ = try await other.reel(["settings", "name", "Zed"], user: "zed")
        let foreign = try await other.reel(["audit", "consistency", older])
        #expect(foreign.status == 65 && foreign.stderr.contains("not signed by"), "\(foreign.stderr)")
    }

    /// `account delete` leaves an erasure receipt (a file it names, and `receipt` in its `--json`)
    /// holding nothing of the account but ciphertext; `reel audit check-receipt` proves the
    /// deletion from it after the ledger grew (consistency included), offline with the key too,
    /// and Go's tlog checks it. A proof of another event is not a receipt; a receipt whose
    /// envelope was changed is refused.
    @Test(arguments: Store.allCases)
    func aDeletionLeavesAReceiptThatProvesItLater(_ store: Store) async throws {
        let ledger = try await Self.ledger(store)
        #expect(try await ledger.reel(["settings", "name", "Ann Example"], user: "ann").status == 0)
        #expect(try await ledger.reel(["settings", "name", "Bob"], user: "bob").status == 0)
        let deleted = try await ledger.reel(["account", "delete", "--yes", "--json"], user: "ann")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let document = try Harness.json(deleted.stdout)
        let file = try #require(document["receiptFile"] as? String, "\(deleted.stdout)")
        let receipt = try String(contentsOfFile: file, encoding: .utf8)
        #expect(document["receipt"] as? String == receipt && receipt.hasPrefix("c2sp.org/tlog-proof@v1\n"))
        #expect(try Harness.validate(deleted.stdout, against: "cli/account-delete.schema.json").status == 0)
        // Nothing of the account in it: not its handle, not its name (in any encoding the proof uses).
        let decoded = receipt.split(separator: "\n").compactMap { Data(base64Encoded: String($0.dropFirst($0.hasPrefix("extra ") ? 6 : 0))) }
        for secret in ["ann", "Ann Example"] {
            #expect(!receipt.contains(secret) && !decoded.contains { $0.range(of: Data(secret.utf8)) != nil }, "\(secret) in the receipt")
        }
        for user in ["cy", "dee"] { #expect(try await ledger.reel(["settings", "name", user], user: user).status == 0) }

        let checked = try await ledger.reel(["audit", "check-receipt", file])
        #expect(checked.status == 0 && checked.stdout.hasPrefix("receipt holds: stream account-") && checked.stdout.contains("events now, the deletion still on record"), "\(checked.stdout)\(checked.stderr)")
        let key = try await ledger.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let offline = try await ledger.reel(["audit", "check-receipt", file, "--key", key, "--json"])
        #expect(offline.status == 0 && offline.stdout.contains("\"laterSize\" : null"), "\(offline.stdout)\(offline.stderr)")
        #expect(try Harness.validate(offline.stdout, against: "cli/audit-check-receipt.schema.json").status == 0)
        let online = try await ledger.json(["audit", "check-receipt", file], schema: "audit-check-receipt.schema.json")
        #expect(online["laterSize"] as? Int == (online["size"] as? Int ?? 0) + 4, "\(online)")
        #expect(try await GoTlogCheck.proofs([file], key: key).status == 0)

        let notAReceipt = ledger.dir + "/not-a-receipt.tlog-proof"
        #expect(try await ledger.reel(["audit", "prove", "1", "--out", notAReceipt]).status == 0)
        let refused = try await ledger.reel(["audit", "check-receipt", notAReceipt])
        #expect(refused.status == 65 && refused.stderr.contains("not an erasure receipt"), "\(refused.stderr)")
        let lines = receipt.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let changed = ledger.dir + "/changed.tlog-proof"
        try receipt.replacingOccurrences(of: lines[1], with: String(lines[1].prefix(30)) + "AAAA" + String(lines[1].dropFirst(34)))
            .write(toFile: changed, atomically: true, encoding: .utf8)
        #expect(try await ledger.reel(["audit", "check-receipt", changed]).status == 65)
    }

    /// An account's export carries the signed checkpoint and each event's inclusion proof;
    /// `account verify-export` checks them without the ledger, says where they prove the events,
    /// and refuses an export whose proof or checkpoint was changed. The export's own key must be
    /// the operator's: a checkpoint signed by another key is refused too.
    @Test(arguments: Store.allCases)
    func anExportProvesEachOfItsEventsWithoutTheLedger(_ store: Store) async throws {
        let ledger = try await Self.ledger(store)
        for name in ["Ann", "Annie", "Anna"] { #expect(try await ledger.reel(["settings", "name", name], user: "ann").status == 0) }
        #expect(try await ledger.reel(["settings", "name", "Bob"], user: "bob").status == 0)
        let file = ledger.dir + "/ann.json"
        #expect(try await ledger.reel(["account", "export", "--out", file, "--no-details"], user: "ann").status == 0)
        let key = try await ledger.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let stranger = LedgerHome()
        let verified = try await stranger.reel(["account", "verify-export", file])
        #expect(verified.status == 0 && verified.stdout.contains("every event proved in reel.ledger/") && verified.stdout.contains(key), "\(verified.stdout)\(verified.stderr)")
        let json = try await stranger.reel(["account", "verify-export", file, "--json"])
        #expect(try Harness.validate(json.stdout, against: "cli/account-verify-export.schema.json").status == 0)
        #expect(try Harness.validate(try String(contentsOfFile: file, encoding: .utf8), against: "export.schema.json").status == 0)

        let text = try String(contentsOfFile: file, encoding: .utf8)
        let document = try Harness.json(text)
        let transparency = try #require(document["transparency"] as? [String: Any])
        let proofs = try #require(transparency["proofs"] as? [[String]])
        #expect(proofs.count == 4)
        let firstHash = try #require(proofs.last?.first)
        let damaged = ledger.dir + "/damaged.json"
        try text.replacingOccurrences(of: firstHash, with: String(firstHash.reversed().dropFirst()) + "=").write(toFile: damaged, atomically: true, encoding: .utf8)
        let refused = try await stranger.reel(["account", "verify-export", damaged])
        #expect(refused.status == 65 && refused.stderr.contains("transparency.proofs"), "\(refused.stderr)")
        // Another ledger's checkpoint and key put in: it does not prove these events.
        let other = try await Self.ledger(.lmdb)
        _ = try await other.reel(["settings", "name", "Zed"], user: "zed")
        let otherKey = try await other.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let otherNote = try await other.reel(["audit", "checkpoint"]).stdout
        let swapped = ledger.dir + "/swapped.json"
        let note = try #require(transparency["checkpoint"] as? String)
        try text.replacingOccurrences(of: key, with: otherKey)
            .replacingOccurrences(of: Self.jsonString(note), with: Self.jsonString(otherNote))
            .write(toFile: swapped, atomically: true, encoding: .utf8)
        #expect(try await stranger.reel(["account", "verify-export", swapped]).status == 65)
        // Pinned to the operator's key: the file holds; pinned to another key, it does not.
        #expect(try await stranger.reel(["account", "verify-export", file, "--key", key]).status == 0)
        let pinned = try await stranger.reel(["account", "verify-export", swapped, "--key", key])
        #expect(pinned.status == 65, "\(pinned.stderr)")
        let otherPinned = try await stranger.reel(["account", "verify-export", file, "--key", otherKey])
        #expect(otherPinned.status == 65 && otherPinned.stderr.contains("not by the key given"), "\(otherPinned.stderr)")
        // The independent verifier (Tools/verify_export.py: Ed25519 and RFC 9162 in Python) agrees on
        // each: the file holds, the changed proof and the swapped checkpoint do not, and pinned to
        // the operator's key the file holds and to another key it does not.
        let independent = try await Harness.python("verify_export.py", [file, "--key", key])
        #expect(independent.status == 0 && independent.stdout.contains("every event proved in reel.ledger/"), "\(independent.stdout)\(independent.stderr)")
        for (bad, words) in [(damaged, "transparency.proofs"), (swapped, "transparency.proofs")] {
            let refused = try await Harness.python("verify_export.py", [bad])
            #expect(refused.status == 1 && refused.stderr.contains(words) && refused.stderr.contains("[step 9]"), "\(refused.stderr)")
        }
        #expect(try await Harness.python("verify_export.py", [file, "--key", otherKey]).status == 1)
        // Import takes a file with proofs as before.
        let imported = try await stranger.reel(["account", "import", file], user: "ann")
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    /// Each shard of a shard map is a log of its own (its own origin, key and checkpoints): the
    /// commands name it with `--shard` (and refuse, naming the shards, without it), an event id is
    /// found on whichever shard holds it, and `reel serve` publishes each at `/shards/<name>/`,
    /// where Go's tlog follows it. A proof and a checkpoint kept from before hold after the shard
    /// is copied into LMDB (the same tree, the same key), after the map grows and the account
    /// moves to the new shard, and after the account is deleted there: the old shard's log only
    /// grew through all of it.
    @Test func eachShardIsALogAndProofsHoldAcrossACopyAMoveAndADeletion() async throws {
        let maps = try await ShardMapFiles(try await Self.started.value, prefix: "tlog_" + String(UInt32.random(in: 0...UInt32.max), radix: 36), databases: 3)
        let (two, three) = (try maps.map(2), try maps.map(3))
        var home = Home()
        home.environment["REEL_STORE"] = two
        let map = home
        #expect(try await map.reel(["store", "migrate"]).status == 0)
        // An account the map of three homes on the new shard "c".
        var mover: String?
        for n in 0..<80 where mover == nil {
            if try await map.reel(["store", "shard", "--handle", "user\(n)", "--store", three]).stdout.hasPrefix("c ") { mover = "user\(n)" }
        }
        let handle = try #require(mover)
        for user in [handle, "ann", "bob", "cy", "dee"] {
            #expect(try await map.reel(["settings", "name", "Name \(user)", "--user", user]).status == 0)
        }
        let from = try #require(try Harness.json(try await map.reel(["store", "shard", "--handle", handle, "--json"]).stdout)["shard"] as? String)

        let unnamed = try await map.reel(["audit", "checkpoint"])
        #expect(unnamed.status == 64 && unnamed.stderr.contains("one log per shard") && unnamed.stderr.contains("(a, b)"), "\(unnamed.stderr)")
        let unknown = try await map.reel(["audit", "key", "--shard", "nope\u{1b}[2J"])
        #expect(unknown.status == 66 && unknown.stderr.contains("no shard 'nope") && !unknown.stderr.contains("\u{1b}"), "\(unknown.stderr)")
        var origins: [String] = []
        for shard in ["a", "b"] { origins.append(String(try await map.reel(["audit", "checkpoint", "--shard", shard]).stdout.prefix { $0 != "\n" })) }
        #expect(origins.allSatisfy { $0.hasPrefix("reel.ledger/") } && origins[0] != origins[1], "\(origins)")
        let key = try await map.reel(["audit", "key", "--shard", from]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let older = temporaryDirectory("shard-log") + "/older.checkpoint"
        try (try await map.reel(["audit", "checkpoint", "--shard", from])).stdout.write(toFile: older, atomically: true, encoding: .utf8)
        let history = try Harness.json(try await map.reel(["history", "--user", handle, "--json", "--offline"]).stdout)
        let eventID = try #require((history["events"] as? [[String: Any]])?.first?["eventId"] as? String)
        let proof = older + ".proof"
        let proved = try await map.reel(["audit", "prove", eventID, "--out", proof])
        #expect(proved.status == 0, "\(proved.stderr)")
        #expect(try await map.reel(["audit", "check-proof", proof, "--key", key]).status == 0)

        // Served: each shard's log at /shards/<name>/, none at /checkpoint.
        let service = try await ServiceProcess.start(home)
        let top = try await service.request(.GET, "/checkpoint")
        #expect(top.status == 404 && top.text.contains("/shards/<name>/checkpoint"), "\(top.status) \(top.text)")
        #expect(try await service.request(.GET, "/shards/z/checkpoint").status == 404)
        let served = try await service.request(.GET, "/shards/\(from)/checkpoint")
        let olderText = try String(contentsOfFile: older, encoding: .utf8)
        #expect(served.status == 200 && served.text.split(separator: "\n").prefix(3) == olderText.split(separator: "\n").prefix(3))
        let go = try await GoTlogCheck.tiles(service.url + "/shards/\(from)", key: key, proofs: [proof])
        #expect(go.status == 0 && go.stdout.contains("every record proved from the tiles"), "\(go.stdout)\(go.stderr)")
        service.stop()

        // Copied into LMDB: the same tree under the same key; the proof and the checkpoint hold.
        let copy = temporaryDirectory("shard-log-copy")
        let copied = try await map.reel(["store", "copy", "--from", maps.urls[from == "a" ? 0 : 1], "--to", copy])
        #expect(copied.status == 0, "\(copied.stderr)")
        let lmdb = ["REEL_STORE": "", "REEL_DATA_DIR": copy]
        #expect(try await map.reel(["audit", "key"], environment: lmdb).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == key)
        let onCopy = try await map.reel(["audit", "consistency", older], environment: lmdb)
        #expect(onCopy.status == 0 && onCopy.stdout.hasPrefix("consistent: "), "\(onCopy.stdout)\(onCopy.stderr)")

        // The map grown: the account moves to "c"; the old shard only grew, "c" is a log too.
        var grown = home
        grown.environment["REEL_STORE"] = three
        #expect(try await grown.reel(["store", "migrate"]).status == 0)
        let moved = try await grown.reel(["store", "move", "--all"])
        #expect(moved.status == 0, "\(moved.stderr)")
        let afterMove = try await grown.reel(["audit", "consistency", older])
        #expect(afterMove.status == 0 && afterMove.stdout.hasPrefix("consistent: "), "\(afterMove.stdout)\(afterMove.stderr)")
        #expect(try await grown.reel(["audit", "checkpoint", "--shard", "c"]).status == 0)
        let movedProof = older + ".moved.proof"
        let provedMoved = try await grown.reel(["audit", "prove", eventID, "--shard", "c", "--out", movedProof])
        #expect(provedMoved.status == 0, "\(provedMoved.stderr)")
        let movedKey = try await grown.reel(["audit", "key", "--shard", "c"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await grown.reel(["audit", "check-proof", movedProof, "--key", movedKey]).status == 0, "the moved event is proved on its new shard")

        // Deleted on "c": the proofs made before still check, the old shard's log still only grew.
        let deleted = try await grown.reel(["account", "delete", "--yes", "--user", handle, "--json"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        for (file, fileKey) in [(proof, key), (movedProof, movedKey)] {
            #expect(try await grown.reel(["audit", "check-proof", file, "--key", fileKey]).status == 0)
        }
        #expect(try await GoTlogCheck.proofs([proof], key: key).status == 0)
        #expect(try await GoTlogCheck.proofs([movedProof], key: movedKey).status == 0)
        let receipt = try #require(try Harness.json(deleted.stdout)["receiptFile"] as? String)
        let checked = try await grown.reel(["audit", "check-receipt", receipt])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(try await grown.reel(["audit", "consistency", older]).status == 0)
        #expect(try await grown.reel(["audit", "verify"]).status == 0)
    }

    /// Flips one bit of the stored tree hash at `index`: on disk in LMDB, by SQL on PostgreSQL.
    static func flipStoredHash(_ index: Int, of ledger: LedgerHome, _ store: Store) async throws {
        switch store {
        case .lmdb:
            let script = """
                import lmdb, struct, sys
                env = lmdb.open(sys.argv[1] + "/ledger", max_dbs=64, subdir=True)
                index = int(sys.argv[2])
                with env.begin(write=True) as t:
                    tree = env.open_db(b"tree", txn=t, create=False)
                    value = bytearray(t.get(struct.pack(">Q", index), db=tree))
                    value[5] ^= 1
                    t.put(struct.pack(">Q", index), bytes(value), db=tree)
                env.close()
                """
            let out = try await Harness.run("python3", ["-c", script, ledger.dir, String(index)])
            #expect(out.status == 0, "\(out.stderr)")
        case .postgres:
            let url = try #require(ledger.store)
            let database = String(try #require(url.split(separator: "/").last?.split(separator: "?").first))
            _ = try await Self.started.value.psql(
                "UPDATE reel_tree SET hash = set_byte(hash, 5, get_byte(hash, 5) # 1) WHERE stored_index = \(index)", database: database)
        }
    }

    /// `text` as a JSON string's contents, escaped as Reel writes them.
    static func jsonString(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return String(String(decoding: data, as: UTF8.self).dropFirst(2).dropLast(2))
    }

    /// `reel serve` publishes the checkpoint and the tiles at the C2SP paths, open to anyone: Go's
    /// tlog follows the log from them alone (the tree hash from the tiles, every record's
    /// inclusion) and finds in them the leaf of an envelope `reel audit prove` gave. Tiles are
    /// immutable (cached a year), the checkpoint a few seconds; a tile the tree does not hold yet,
    /// or a path that is not a tile's, is 404; entry bundles are not served.
    @Test func reelServePublishesTheLogForAnyTlogClient() async throws {
        let home = Home()
        // 300 events: a full tile at level 0, a partial one, a partial one at level 1.
        let worker = try await Harness.run(Harness.binaries + "/reel-bench", ["worker", "--data-dir", home.data, "--stream", "ann", "--count", "300", "--concurrency", "1"])
        #expect(worker.status == 0, "\(worker.stderr)")
        let proof = home.data + "/../served-\(UInt32.random(in: 0...UInt32.max)).tlog-proof"
        #expect(try await home.reel(["audit", "prove", "271", "--out", proof]).status == 0)
        let key = try await home.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let service = try await ServiceProcess.start(home)
        defer { service.stop() }

        let checkpoint = try await service.request(.GET, "/checkpoint")
        #expect(checkpoint.status == 200 && checkpoint.text.split(separator: "\n").dropFirst().first == "300", "\(checkpoint.status) \(checkpoint.text)")
        #expect(checkpoint.header("Cache-Control") == "public, max-age=2" && checkpoint.header("Content-Type") == "text/plain; charset=utf-8")
        let full = try await service.request(.GET, "/tile/0/000")
        #expect(full.status == 200 && full.body.count == 8_192 && full.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(try await service.request(.GET, "/tile/0/001.p/44").body.count == 44 * 32)
        #expect(try await service.request(.GET, "/tile/1/000.p/1").body.count == 32)
        for missing in ["/tile/0/001", "/tile/0/002.p/1", "/tile/1/000", "/tile/0/1", "/tile/00/000", "/tile/9/000", "/tile/entries/000", "/tile/0/000.p/256"] {
            let answer = try await service.request(.GET, missing)
            #expect(answer.status == 404 && answer.header("Content-Type") == "application/problem+json", "\(missing): \(answer.status)")
        }
        let go = try await GoTlogCheck.tiles(service.url, key: key, proofs: [proof])
        #expect(go.status == 0 && go.stdout.contains("of 300, every record proved from the tiles"), "\(go.stdout)\(go.stderr)")
    }

    /// Hostile proofs and a key that cannot be read: a proof whose index is the largest number,
    /// one whose checkpoint names a size Go's tlog cannot read, are refused in one line (65),
    /// never a crash; a signing key Reel cannot read, or one missing, is said (the ledger records
    /// its key's public half), never replaced by a new one; another key in its place is refused.
    @Test func hostileProofsAndAnUnreadableKeyAreRefusedInOneLine() async throws {
        let ledger = try await Self.ledger(.lmdb)
        for user in ["ann", "bob"] { #expect(try await ledger.reel(["settings", "name", user], user: user).status == 0) }
        // A copy taken before any key was used: the same log, given a key of its own elsewhere.
        var copy = LedgerHome()
        #expect(try await Harness.run("cp", ["-a", ledger.dir + "/.", copy.dir]).status == 0)
        copy.keyring = temporaryDirectory("other-keyring")
        let copyKey = try await copy.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let key = try await ledger.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(copyKey != key && copyKey.prefix { $0 != "+" } == key.prefix { $0 != "+" })
        let file = ledger.dir + "/p.tlog-proof"
        #expect(try await ledger.reel(["audit", "prove", "2", "--out", file]).status == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let huge = ledger.dir + "/huge.tlog-proof"
        try text.replacingOccurrences(of: "\nindex 1\n", with: "\nindex 18446744073709551615\n").write(toFile: huge, atomically: true, encoding: .utf8)
        let refused = try await ledger.reel(["audit", "check-proof", huge, "--key", key])
        #expect(refused.status == 65 && refused.stderr.split(separator: "\n").count == 1, "\(refused.status) \(refused.stderr)")

        // The key's file turned into something that cannot be read as one.
        let origin = String(key.prefix { $0 != "+" })
        let keyFile = Harness.keyring + "/" + origin.replacingOccurrences(of: "/", with: "-") + ".note-key"
        let saved = try String(contentsOfFile: keyFile, encoding: .utf8)
        try FileManager.default.removeItem(atPath: keyFile)
        try FileManager.default.createDirectory(atPath: keyFile, withIntermediateDirectories: false)
        let unreadable = try await ledger.reel(["audit", "checkpoint"])
        #expect(unreadable.status == 65 && unreadable.stderr.contains("the ledger's signing key at") && unreadable.stderr.contains("is not a file"), "\(unreadable.stderr)")
        // A FIFO there is never waited on.
        try FileManager.default.removeItem(atPath: keyFile)
        #expect(mkfifo(keyFile, 0o600) == 0)
        let fifo = try await ledger.reel(["audit", "key"])
        #expect(fifo.status == 65 && fifo.stderr.contains("is not a file"), "\(fifo.stderr)")
        // No file at all: the key the ledger recorded is asked for, never replaced by a new one.
        try FileManager.default.removeItem(atPath: keyFile)
        let missing = try await ledger.reel(["audit", "checkpoint"])
        #expect(missing.status == 69 && missing.stderr.contains("restore it from the keyring's backup") && missing.stderr.contains(key), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: keyFile), "no new key was made")
        #expect(try await ledger.reel(["account", "export", "--no-details"], user: "ann").status == 0, "an export goes on without proofs")
        // Another key of the same log's name in its place (the copy's): not the ledger's.
        let copyFile = try #require(copy.keyring) + "/" + origin.replacingOccurrences(of: "/", with: "-") + ".note-key"
        try String(contentsOfFile: copyFile, encoding: .utf8).write(toFile: keyFile, atomically: true, encoding: .utf8)
        let other = try await ledger.reel(["audit", "prove", "1"])
        #expect(other.status == 65 && other.stderr.contains("is not the one the ledger's checkpoints are signed with"), "\(other.stderr)")
        try FileManager.default.removeItem(atPath: keyFile)
        try saved.write(toFile: keyFile, atomically: true, encoding: .utf8)
        #expect(try await ledger.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == key)
    }

    /// One byte of one stored tree hash flipped (on disk in LMDB, by SQL on PostgreSQL): `reel audit
    /// verify` and `Tools/verify_ledger.py` refuse the ledger (rule `tree-mismatch`), the proof
    /// of an event whose path takes that hash, made afterwards, is refused by Reel and by Go, and
    /// so is the log served with it in a tile (Go's tlog following `/checkpoint` and `/tile/…`).
    @Test(arguments: Store.allCases)
    func aDamagedStoredTreeIsRefusedByTheAuditAndEveryVerifier(_ store: Store) async throws {
        let ledger = try await Self.ledger(store)
        for user in ["ann", "bob", "cy", "dee", "eve"] {
            #expect(try await ledger.reel(["settings", "name", user.capitalized], user: user).status == 0)
        }
        #expect(try await ledger.reel(["audit", "verify"]).status == 0)
        let key = try await ledger.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // Stored index 2 is the hash of leaves 0 and 1: on the path of every leaf from 2 to 7.
        try await Self.flipStoredHash(2, of: ledger, store)
        let audit = try await ledger.reel(["audit", "verify"])
        #expect(audit.status == 65 && audit.stdout.contains("tree-mismatch") && audit.stdout.contains("position 2"), "\(audit.stdout)\(audit.stderr)")
        let independent = try await Harness.python("verify_ledger.py", [ledger.store ?? ledger.dir + "/ledger"])
        #expect(independent.status == 1 && independent.stdout.contains("tree-mismatch"), "\(independent.stdout)\(independent.stderr)")
        let file = ledger.dir + "/after-damage.tlog-proof"
        #expect(try await ledger.reel(["audit", "prove", "3", "--out", file]).status == 0)
        #expect(try await ledger.reel(["audit", "check-proof", file, "--key", key]).status == 65)
        let go = try await GoTlogCheck.proofs([file], key: key)
        #expect(go.status == 1 && go.stdout.hasPrefix("FAIL "), "\(go.stdout)")
        // Served: stored index 2 is at tree level 1, in no tile (tiles hold levels 0, 8, 16…, and
        // a client computes the rest). A leaf's hash is: stored index 4, leaf 3's, flipped too,
        // Go's tlog following the log from the tiles refuses it.
        try await Self.flipStoredHash(4, of: ledger, store)
        var environment = ["REEL_DATA_DIR": ledger.dir]
        if let url = ledger.store { environment["REEL_STORE"] = url }
        let service = try await ServiceProcess.start(Home(environment: environment))
        defer { service.stop() }
        let tiles = try await GoTlogCheck.tiles(service.url, key: key)
        #expect(tiles.status == 1 && tiles.stdout.contains("inconsistent tile"), "\(tiles.stdout)\(tiles.stderr)")
    }

    /// One-character changes that flip bits of a proof: the first proof hash, the envelope, the
    /// checkpoint's tree hash and its signature (each a base64 character replaced by another).
    static func flips(_ text: String) -> [(String, String)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func flipped(_ line: String, at offset: Int) -> (String, String) {
            var characters = Array(line)
            let index = characters.index(characters.startIndex, offsetBy: offset)
            characters[index] = characters[index] == "A" ? "B" : "A"
            return (line, String(characters))
        }
        let blank = lines.firstIndex(of: "")!
        return [
            flipped(lines[3], at: 5),  // the first hash of the path
            flipped(lines[1], at: 40),  // the envelope (its bytes after the header)
            flipped(lines[blank + 3], at: 5),  // the checkpoint's tree hash
            flipped(lines[blank + 5], at: 70),  // the signature
        ]
    }
}
