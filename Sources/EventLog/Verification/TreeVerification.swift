/// The check of a store's Merkle tree against its envelopes (`Schemas/ledger-layout.md`, "The
/// Merkle tree"), made by every store's `verify` once the chain holds: the tree covers every
/// event, each stored hash is the one the envelopes as stored make, and so is the tree's edge.
@_spi(Stores) public enum TreeVerification {
    /// The first way `snapshot`'s tree differs from its envelopes' (rule `tree-mismatch`), or
    /// `nil`. A log no Reel with the tree has written yet (no tree, events) has nothing to check.
    public static func problem(in snapshot: some EventStoreSnapshot) throws -> VerificationProblem? {
        let frontier = try snapshot.treeFrontier()
        let logHead = try snapshot.head()?.position ?? 0
        if frontier.size == 0 { return nil }
        // A tree behind the head (the ledger written since by a Reel without it) is checked as
        // far as it goes: the next write brings it up to the head. One ahead of it is damage.
        guard frontier.size <= logHead else {
            return VerificationProblem(position: logHead, rule: .treeMismatch, detail: "the tree covers \(frontier.size) events, the log ends at \(logHead)")
        }
        let head = frontier.size
        var made = TreeFrontier()
        var position: UInt64 = 1
        while position <= head {
            let leaves = try snapshot.leafHashes(from: position, maxCount: Int(min(16_384, head - position + 1)))
            guard !leaves.isEmpty else { break }
            var expected: [TreeHash] = []
            var owners: [UInt64] = []
            expected.reserveCapacity(2 * leaves.count + 64)
            owners.reserveCapacity(2 * leaves.count + 64)
            let start = made.nextStoredIndex
            for (offset, leaf) in leaves.enumerated() {
                made.append(leaf: leaf) { hash in
                    expected.append(hash)
                    owners.append(position + UInt64(offset))
                }
            }
            let stored: [TreeHash]
            do {
                stored = try snapshot.treeHashes(at: Array(start..<(start + UInt64(expected.count))))
            } catch TreeError.mismatch(let index, let reason) {
                return VerificationProblem(position: owners[Int(index - start)], rule: .treeMismatch, detail: "stored tree hash \(index): \(reason)")
            }
            if let bad = expected.indices.first(where: { stored[$0] != expected[$0] }) {
                return VerificationProblem(
                    position: owners[bad], rule: .treeMismatch,
                    detail: "stored tree hash \(start + UInt64(bad)) is not the one the envelopes make")
            }
            position += UInt64(leaves.count)
        }
        guard made == frontier else {
            return VerificationProblem(position: head, rule: .treeMismatch, detail: "the tree's edge is not the one the envelopes make")
        }
        return nil
    }
}
