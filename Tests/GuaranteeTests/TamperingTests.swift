import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// A second, independent writer (Tools/tamper_ledger.py) damages a ledger the way an attacker
/// would; both verifiers must name the rule and the position.
@Suite struct TamperingTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let edits: [[String]]
        let rule: String
        let position: Int?
        var expectHead = false
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "changed ciphertext byte", edits: [["flip-byte", "10", "-40"]], rule: "hash-mismatch", position: 10),
        Case(name: "changed type byte", edits: [["flip-byte", "7", "80"]], rule: "hash-mismatch", position: 7),
        Case(name: "changed hash byte", edits: [["flip-byte", "12", "-1"]], rule: "hash-mismatch", position: 12),
        Case(name: "deleted event", edits: [["delete", "10"]], rule: "gap", position: 10),
        Case(name: "reordered events", edits: [["swap", "5", "9"]], rule: "position-mismatch", position: 5),
        Case(name: "inserted event", edits: [["insert", "10"]], rule: "position-mismatch", position: 11),
        Case(name: "events cut from the end", edits: [["truncate", "3"]], rule: "head-mismatch", position: nil),
        Case(name: "changed stream version", edits: [["set-field", "10", "stream-version", "99"]], rule: "hash-mismatch", position: 10),
        Case(name: "rewritten chain tail", edits: [["flip-byte", "10", "-40"], ["rehash-from", "10"]], rule: "head-mismatch", position: nil),
        Case(name: "rewritten chain with version skip", edits: [["set-field", "10", "stream-version", "99"], ["rehash-from", "10", "--update-head"]], rule: "stream-version", position: 10),
        Case(name: "rewritten chain with time going back", edits: [["set-field", "10", "recorded-at", "0"], ["rehash-from", "10", "--update-head"]], rule: "time-order", position: 10),
        Case(name: "whole chain and head rewritten", edits: [["flip-byte", "10", "-40"], ["rehash-from", "10", "--update-head"]], rule: "head-mismatch", position: nil, expectHead: true),
    ]

    @Test(arguments: cases)
    func tamperingIsCaught(_ tamper: Case) async throws {
        let dir = temporaryDirectory()
        let worker = try await Harness.run(Harness.binaries + "/reel-bench", ["worker", "--data-dir", dir, "--stream", "ann", "--count", "30", "--concurrency", "1"])
        #expect(worker.status == 0, "\(worker.stderr)")
        let intact = try Harness.json(try await Harness.reel(["audit", "verify", "--json", "--data-dir", dir]).stdout)
        let originalHead = try #require(intact["headHash"] as? String)

        for edit in tamper.edits {
            let out = try await Harness.python("tamper_ledger.py", [dir + "/ledger"] + edit)
            #expect(out.status == 0, "\(out.stderr)")
        }
        let extra = tamper.expectHead ? ["--expect-head", originalHead] : []
        let swift = try await Harness.reel(["audit", "verify", "--json", "--data-dir", dir] + extra)
        let python = try await Harness.python("verify_ledger.py", [dir + "/ledger", "--json"] + extra)
        #expect(swift.status == 65, "\(swift.stdout)\(swift.stderr)")
        #expect(python.status == 1, "\(python.stdout)\(python.stderr)")
        for output in [swift, python] {
            let problem = try Harness.json(output.stdout)["problem"] as? [String: Any]
            #expect(problem?["rule"] as? String == tamper.rule, "\(output.stdout)")
            if let position = tamper.position {
                #expect(problem?["position"] as? Int == position, "\(output.stdout)")
            }
        }
        let human = try await Harness.reel(["audit", "verify", "--data-dir", dir] + extra)
        #expect(human.stdout.hasPrefix("DAMAGED at position"))
        #expect(human.stdout.contains(tamper.rule))
    }

    /// A rewrite of the chain and its head that leaves the Merkle tree as it was is caught by the
    /// tree (`tree-mismatch`, both verifiers). One that rebuilds the tree too is consistent
    /// with itself and passes without an anchor: this is why verify prints the head, and why
    /// checkpoints are signed. A checkpoint kept from before the rewrite catches it.
    @Test func aRewrittenChainWithItsHeadAndTreePassesOnlyWithoutAnAnchor() async throws {
        let dir = temporaryDirectory()
        _ = try await Harness.run(Harness.binaries + "/reel-bench", ["worker", "--data-dir", dir, "--stream", "ann", "--count", "20"])
        let checkpoint = try await Harness.reel(["audit", "checkpoint", "--data-dir", dir])
        #expect(checkpoint.status == 0, "\(checkpoint.stderr)")
        let kept = dir + "/../kept-\(UInt32.random(in: 0...UInt32.max)).checkpoint"
        try checkpoint.stdout.write(toFile: kept, atomically: true, encoding: .utf8)
        _ = try await Harness.python("tamper_ledger.py", [dir + "/ledger", "flip-byte", "10", "-40"])
        _ = try await Harness.python("tamper_ledger.py", [dir + "/ledger", "rehash-from", "10", "--update-head"])
        let swift = try await Harness.reel(["audit", "verify", "--data-dir", dir])
        #expect(swift.status == 65 && swift.stdout.contains("tree-mismatch"), "\(swift.stdout)")
        let python = try await Harness.python("verify_ledger.py", [dir + "/ledger"])
        #expect(python.status == 1 && python.stdout.contains("tree-mismatch"), "\(python.stdout)")

        _ = try await Harness.python("tamper_ledger.py", [dir + "/ledger", "rebuild-tree"])
        #expect(try await Harness.reel(["audit", "verify", "--data-dir", dir]).status == 0)
        #expect(try await Harness.python("verify_ledger.py", [dir + "/ledger"]).status == 0)
        let caught = try await Harness.reel(["audit", "consistency", kept, "--data-dir", dir])
        #expect(caught.status == 65 && caught.stderr.contains("rewritten"), "\(caught.stderr)")
    }
}
