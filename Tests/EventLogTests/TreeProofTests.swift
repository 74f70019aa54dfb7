import Testing

@testable import EventLog

/// The tree's math against a naive recomputation from all the leaves (RFC 6962's definitions
/// written as they read): stored hashes, tree hashes, inclusion and consistency proofs, and that
/// changing one byte of a proof or a hash makes the check refuse.
@Suite struct TreeProofTests {
    /// Leaves of sizes up to `count`, each leaf's data its index.
    static func leaves(_ count: Int) -> [TreeHash] { (0..<count).map { TreeHash.leaf(Array("leaf \($0)".utf8)) } }

    /// RFC 6962's MTH over `leaves`, by its definition.
    static func mth(_ leaves: ArraySlice<TreeHash>) -> TreeHash {
        if leaves.isEmpty { return .empty }
        if leaves.count == 1 { return leaves.first! }
        let k = Int(TreeLayout.split(UInt64(leaves.count)))
        let start = leaves.startIndex
        return .node(mth(leaves[start..<(start + k)]), mth(leaves[(start + k)...]))
    }

    /// RFC 6962's PATH(m, D[n]).
    static func path(_ m: Int, _ leaves: ArraySlice<TreeHash>) -> [TreeHash] {
        if leaves.count <= 1 { return [] }
        let k = Int(TreeLayout.split(UInt64(leaves.count)))
        let start = leaves.startIndex
        if m < k { return path(m, leaves[start..<(start + k)]) + [mth(leaves[(start + k)...])] }
        return path(m - k, leaves[(start + k)...]) + [mth(leaves[start..<(start + k)])]
    }

    /// RFC 6962's SUBPROOF(m, D[n], b).
    static func subproof(_ m: Int, _ leaves: ArraySlice<TreeHash>, _ b: Bool) -> [TreeHash] {
        if m == leaves.count { return b ? [] : [mth(leaves)] }
        let k = Int(TreeLayout.split(UInt64(leaves.count)))
        let start = leaves.startIndex
        if m <= k { return subproof(m, leaves[start..<(start + k)], b) + [mth(leaves[(start + k)...])] }
        return subproof(m - k, leaves[(start + k)...], false) + [mth(leaves[start..<(start + k)])]
    }

    /// A stored tree made by appending `leaves` through a frontier, as the stores do.
    static func stored(_ leaves: [TreeHash]) -> (hashes: [TreeHash], frontiers: [TreeFrontier]) {
        var frontier = TreeFrontier()
        var hashes: [TreeHash] = []
        var frontiers = [frontier]
        for leaf in leaves {
            #expect(UInt64(hashes.count) == frontier.nextStoredIndex)
            hashes += frontier.append(leaf: leaf)
            frontiers.append(frontier)
        }
        return (hashes, frontiers)
    }

    static func reader(_ hashes: [TreeHash]) -> TreeProofs.Reader {
        { indexes in indexes.map { hashes[Int($0)] } }
    }

    static func flipped(_ hash: TreeHash, byte: Int = 7) -> TreeHash {
        var bytes = hash.bytes
        bytes[byte] ^= 0x01
        return TreeHash(bytes: bytes)!
    }

    @Test func storedHashesAreDenseFewerThanTwoPerLeafAndEachTheSubtreeItNames() {
        let leaves = Self.leaves(300)
        let (hashes, frontiers) = Self.stored(leaves)
        #expect(UInt64(hashes.count) == TreeLayout.storedCount(size: 300))
        #expect(hashes.count < 2 * leaves.count)
        for level in 0..<9 {
            let width = 1 << level
            for index in 0..<(leaves.count / width) {
                let stored = hashes[Int(TreeLayout.storedIndex(level: level, index: UInt64(index)))]
                #expect(stored == Self.mth(leaves[(index * width)..<((index + 1) * width)]), "level \(level) index \(index)")
            }
        }
        for size in 0...leaves.count {
            #expect(frontiers[size].root == Self.mth(leaves[0..<size]), "size \(size)")
            #expect(TreeFrontier(size: UInt64(size), bytes: frontiers[size].bytes) == frontiers[size])
        }
        #expect(TreeFrontier(size: 3, bytes: frontiers[2].bytes) == nil)
    }

    @Test func theStoredIndexesAreTheGoChecksumDatabasesLayout() {
        // Values of golang.org/x/mod/sumdb/tlog's StoredHashIndex and StoredHashCount.
        #expect(TreeLayout.storedIndex(level: 0, index: 0) == 0)
        #expect(TreeLayout.storedIndex(level: 0, index: 1) == 1)
        #expect(TreeLayout.storedIndex(level: 1, index: 0) == 2)
        #expect(TreeLayout.storedIndex(level: 0, index: 2) == 3)
        #expect(TreeLayout.storedIndex(level: 0, index: 3) == 4)
        #expect(TreeLayout.storedIndex(level: 1, index: 1) == 5)
        #expect(TreeLayout.storedIndex(level: 2, index: 0) == 6)
        #expect(TreeLayout.storedCount(size: 4) == 7)
        #expect(TreeLayout.storedCount(size: 5) == 8)
    }

    @Test func treeHashesAndInclusionProofsMatchTheDefinitionsForEveryLeafOfEverySize() throws {
        let leaves = Self.leaves(130)
        let (hashes, _) = Self.stored(leaves)
        let read = Self.reader(hashes)
        for size in 1...leaves.count {
            let root = try TreeProofs.root(size: UInt64(size), read: read)
            let all = try TreeProofs.inclusions(of: (0..<UInt64(size)).reversed(), in: UInt64(size), read: read)
            #expect(all == (0..<size).reversed().map { Self.path($0, leaves[0..<size]) }, "every path of \(size) in one read")
            #expect(root == Self.mth(leaves[0..<size]))
            for index in 0..<size {
                let proof = try TreeProofs.inclusion(of: UInt64(index), in: UInt64(size), read: read)
                #expect(proof == Self.path(index, leaves[0..<size]), "leaf \(index) of \(size)")
                #expect(TreeProofs.checkInclusion(leaf: leaves[index], index: UInt64(index), size: UInt64(size), proof: proof, root: root))
                if size > 1 {
                    #expect(!TreeProofs.checkInclusion(leaf: leaves[(index + 1) % size], index: UInt64(index), size: UInt64(size), proof: proof, root: root))
                    #expect(!TreeProofs.checkInclusion(leaf: leaves[index], index: UInt64(index), size: UInt64(size), proof: proof, root: Self.flipped(root)))
                    var bad = proof
                    bad[index % proof.count] = Self.flipped(bad[index % proof.count])
                    #expect(!TreeProofs.checkInclusion(leaf: leaves[index], index: UInt64(index), size: UInt64(size), proof: bad, root: root))
                    #expect(!TreeProofs.checkInclusion(leaf: leaves[index], index: UInt64(index), size: UInt64(size), proof: proof.dropLast(), root: root))
                }
            }
        }
    }

    @Test func consistencyProofsMatchTheDefinitionForEveryPairOfSizes() throws {
        let leaves = Self.leaves(100)
        let (hashes, frontiers) = Self.stored(leaves)
        let read = Self.reader(hashes)
        for size in 1...leaves.count {
            for old in 1...size {
                let proof = try TreeProofs.consistency(from: UInt64(old), to: UInt64(size), read: read)
                #expect(proof == (old == size ? [] : Self.subproof(old, leaves[0..<size], true)), "\(old) → \(size)")
                let (oldRoot, root) = (frontiers[old].root, frontiers[size].root)
                #expect(TreeProofs.checkConsistency(old: UInt64(old), oldRoot: oldRoot, size: UInt64(size), root: root, proof: proof))
                guard old < size else { continue }
                #expect(!TreeProofs.checkConsistency(old: UInt64(old), oldRoot: Self.flipped(oldRoot), size: UInt64(size), root: root, proof: proof))
                #expect(!TreeProofs.checkConsistency(old: UInt64(old), oldRoot: oldRoot, size: UInt64(size), root: Self.flipped(root), proof: proof))
                if !proof.isEmpty {
                    var bad = proof
                    bad[old % proof.count] = Self.flipped(bad[old % proof.count])
                    #expect(!TreeProofs.checkConsistency(old: UInt64(old), oldRoot: oldRoot, size: UInt64(size), root: root, proof: bad))
                }
            }
        }
    }

    @Test func largeTreesProveWithLogarithmicProofs() throws {
        // A tree of 200,000 leaves, its stored hashes made as the stores make them.
        var frontier = TreeFrontier()
        var hashes: [TreeHash] = []
        hashes.reserveCapacity(400_000)
        for index in 0..<200_000 { hashes += frontier.append(leaf: TreeHash.leaf(Array("leaf \(index)".utf8))) }
        let read = Self.reader(hashes)
        #expect(try TreeProofs.root(size: 200_000, read: read) == frontier.root)
        for index: UInt64 in [0, 1, 255, 256, 65_535, 131_072, 199_999] {
            let proof = try TreeProofs.inclusion(of: index, in: 200_000, read: read)
            // At most ⌈log₂ 200,000⌉ = 18 hashes; a leaf of the left half needs them all.
            #expect(proof.count <= 18 && (index >= 131_072 || proof.count == 18), "\(index): \(proof.count)")
            #expect(TreeProofs.checkInclusion(leaf: TreeHash.leaf(Array("leaf \(index)".utf8)), index: index, size: 200_000, proof: proof, root: frontier.root))
        }
    }
}
