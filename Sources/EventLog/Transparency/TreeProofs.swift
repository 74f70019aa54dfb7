/// Proofs over the tree (RFC 6962 §2.1.1 and §2.1.2, checked as RFC 9162 §2.1.3.2 and §2.1.4.2
/// do): that a leaf is in a tree of some size, and that a tree of one size is the start of a
/// tree of a larger one. Made from the stored hashes (`TreeLayout`), read through `read` in one
/// call per proof (one statement on PostgreSQL); checked with nothing but the hashes.
public enum TreeProofs {
    /// Reads the stored hashes at the given stored indexes, in their order; throws for one the
    /// store does not hold.
    public typealias Reader = ([UInt64]) throws -> [TreeHash]

    /// The hash of the tree of the first `size` leaves (`size` at most the stored tree's).
    public static func root(size: UInt64, read: Reader) throws -> TreeHash {
        guard size > 0 else { return .empty }
        return try hashes(of: [(0, size)], read: read)[0]
    }

    /// The inclusion proof of leaf `index` in the tree of `size` leaves: the hashes from the
    /// leaf's sibling up to the root's child. Needs `index < size`.
    public static func inclusion(of index: UInt64, in size: UInt64, read: Reader) throws -> [TreeHash] {
        precondition(index < size, "a leaf past the tree")
        return try hashes(of: inclusionRanges(index, 0, size), read: read)
    }

    /// The inclusion proofs of the leaves `indexes` in the tree of `size` leaves, in their order,
    /// the stored hashes of all of them read in one call. Needs each index below `size`.
    public static func inclusions(of indexes: [UInt64], in size: UInt64, read: Reader) throws -> [[TreeHash]] {
        precondition(indexes.allSatisfy { $0 < size }, "a leaf past the tree")
        let ranges = indexes.map { inclusionRanges($0, 0, size) }
        var all = try hashes(of: ranges.flatMap { $0 }, read: read)[...]
        return ranges.map { path in
            defer { all = all.dropFirst(path.count) }
            return Array(all.prefix(path.count))
        }
    }

    /// The consistency proof from the tree of `old` leaves to the tree of `size` leaves. Needs
    /// `old <= size`; empty when they are the same or `old` is 0.
    public static func consistency(from old: UInt64, to size: UInt64, read: Reader) throws -> [TreeHash] {
        precondition(old <= size, "a tree larger than the newer one")
        guard old > 0, old < size else { return [] }
        return try hashes(of: consistencyRanges(old, 0, size, whole: true), read: read)
    }

    /// Whether `proof` shows that the leaf whose hash is `leaf` is leaf `index` of the tree of
    /// `size` leaves whose hash is `root`.
    public static func checkInclusion(leaf: TreeHash, index: UInt64, size: UInt64, proof: [TreeHash], root: TreeHash) -> Bool {
        guard index < size else { return false }
        var (fn, sn) = (index, size - 1)
        var hash = leaf
        for sibling in proof {
            guard sn > 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                hash = TreeHash.node(sibling, hash)
                if fn & 1 == 0 { shiftWhileEven(&fn, &sn) }
            } else {
                hash = TreeHash.node(hash, sibling)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0 && hash == root
    }

    /// Whether `proof` shows that the tree of `old` leaves whose hash is `oldRoot` is the start
    /// of the tree of `size` leaves whose hash is `root`.
    public static func checkConsistency(old: UInt64, oldRoot: TreeHash, size: UInt64, root: TreeHash, proof: [TreeHash]) -> Bool {
        guard old <= size else { return false }
        if old == size { return proof.isEmpty && oldRoot == root }
        if old == 0 { return proof.isEmpty && oldRoot == .empty }
        var path = proof
        // A tree whose size is a power of two is a subtree of the newer one: its hash starts the walk.
        if old & (old - 1) == 0 { path.insert(oldRoot, at: 0) }
        guard let first = path.first else { return false }
        var (fn, sn) = (old - 1, size - 1)
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        var (fr, sr) = (first, first)
        for c in path.dropFirst() {
            guard sn > 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                fr = TreeHash.node(c, fr)
                sr = TreeHash.node(c, sr)
                if fn & 1 == 0 { shiftWhileEven(&fn, &sn) }
            } else {
                sr = TreeHash.node(sr, c)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0 && fr == oldRoot && sr == root
    }

    /// RFC 9162's "right-shift fn and sn equally until either LSB(fn) is set or fn is 0".
    private static func shiftWhileEven(_ fn: inout UInt64, _ sn: inout UInt64) {
        while fn & 1 == 0 && fn != 0 {
            fn >>= 1
            sn >>= 1
        }
    }

    // MARK: - The ranges a proof is made of

    /// RFC 6962's PATH(m, D[lo:hi]) as the ranges whose hashes it lists.
    static func inclusionRanges(_ m: UInt64, _ lo: UInt64, _ hi: UInt64) -> [(UInt64, UInt64)] {
        guard hi - lo > 1 else { return [] }
        let k = TreeLayout.split(hi - lo)
        if m - lo < k { return inclusionRanges(m, lo, lo + k) + [(lo + k, hi)] }
        return inclusionRanges(m, lo + k, hi) + [(lo, lo + k)]
    }

    /// RFC 6962's SUBPROOF(m, D[lo:hi], whole) as the ranges whose hashes it lists.
    static func consistencyRanges(_ m: UInt64, _ lo: UInt64, _ hi: UInt64, whole: Bool) -> [(UInt64, UInt64)] {
        if m == hi - lo { return whole ? [] : [(lo, hi)] }
        let k = TreeLayout.split(hi - lo)
        if m <= k { return consistencyRanges(m, lo, lo + k, whole: whole) + [(lo + k, hi)] }
        return consistencyRanges(m - k, lo + k, hi, whole: false) + [(lo, lo + k)]
    }

    /// The hash of each range, from its pieces' stored hashes, read in one call.
    static func hashes(of ranges: [(UInt64, UInt64)], read: Reader) throws -> [TreeHash] {
        let pieces = ranges.map { TreeLayout.pieces($0.0, $0.1) }
        let wanted = pieces.flatMap { $0.map { TreeLayout.storedIndex(level: $0.level, index: $0.index) } }
        let found = try read(wanted)
        guard found.count == wanted.count else { throw TreeError.missingHashes(wanted: wanted.count, found: found.count) }
        var next = 0
        return pieces.map { range in
            let hashes = found[next..<(next + range.count)]
            next += range.count
            var hash = hashes.last!
            for left in hashes.dropLast().reversed() { hash = TreeHash.node(left, hash) }
            return hash
        }
    }
}
