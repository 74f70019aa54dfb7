import EventLog
import Foundation
import LMDBStore

/// Inclusion proofs over an LMDB ledger's tree, made and checked as `reel audit prove` and
/// `check-proof` do (issue 40): how long each takes, and how large they are.
struct TreeFigures {
    let size: UInt64
    /// Microseconds, the 99th percentile over the samples.
    let makeP99: Double
    let checkP99: Double
    /// The largest audit path (32 bytes a hash), and the largest C2SP tlog-proof file (the
    /// envelope, the path in base64, a signed checkpoint).
    let pathBytes: Int
    let fileBytes: Int

    /// `samples` random positions of the ledger at `ledger`, proved against its tree of `size`
    /// events (all of them by default): each proof made in a read snapshot of its own.
    static func measure(ledger: String, size wanted: UInt64? = nil, samples: Int) throws -> TreeFigures {
        let log = try EventLog.open(at: ledger)
        let tree = try log.read { try $0.treeFrontier() }
        let size = min(wanted ?? tree.size, tree.size)
        let root = try log.read { snapshot in try TreeProofs.root(size: size) { try snapshot.treeHashes(at: $0) } }
        let key = NoteKey(generatingFor: "reel.ledger/bench")
        let note = try key.sign(Checkpoint(origin: "reel.ledger/bench", size: size, root: root).body)
        var make: [Double] = [], check: [Double] = []
        var pathBytes = 0, fileBytes = 0
        for _ in 0..<samples {
            let index = UInt64.random(in: 0..<size)
            let start = DispatchTime.now().uptimeNanoseconds
            let (envelope, path) = try log.read { snapshot in
                let envelope = try snapshot.read(from: index + 1, maxCount: 1)[0].envelope.bytes
                return (envelope, try TreeProofs.inclusion(of: index, in: size) { try snapshot.treeHashes(at: $0) })
            }
            let made = DispatchTime.now().uptimeNanoseconds
            guard TreeProofs.checkInclusion(leaf: TreeHash.leaf(envelope), index: index, size: size, proof: path, root: root) else {
                throw BenchFailure("the proof of index \(index) does not check")
            }
            let checked = DispatchTime.now().uptimeNanoseconds
            make.append(Double(made - start) / 1_000)
            check.append(Double(checked - made) / 1_000)
            pathBytes = max(pathBytes, 32 * path.count)
            fileBytes = max(fileBytes, InclusionProof(envelope: envelope, index: index, hashes: path, checkpoint: note).text.utf8.count)
        }
        return TreeFigures(size: size, makeP99: percentile(make, 0.99), checkP99: percentile(check, 0.99), pathBytes: pathBytes, fileBytes: fileBytes)
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }
}
