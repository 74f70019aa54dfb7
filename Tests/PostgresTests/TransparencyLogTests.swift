import EndToEndSupport
import Foundation
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

        // Another ledger's key does not check this ledger's proofs.
        let other = try await Self.ledger(.lmdb)
        _ = try await other.reel(["settings", "name", "Zed"], user: "zed")
        let otherKey = try await other.reel(["audit", "key"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let foreign = try await ledger.reel(["audit", "check-proof", files[0], "--key", otherKey])
        #expect(foreign.status == 65 && foreign.stderr.contains("not signed by"), "\(foreign.stderr)")
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
