/// Where the tree's hashes are kept: every hash of a complete subtree, once, in the order the
/// appends complete them (the layout of Russ Cox's "Transparent Logs for Skeptical Clients", as
/// the Go checksum database keeps it). Leaf `n`'s hash comes right after the hashes leaf `n - 1`
/// completed, and is followed by the hash of each subtree leaf `n` completes, lowest first. So
/// the stored hashes are a dense array, appended to and never rewritten, fewer than two per leaf.
public enum TreeLayout {
    /// Where the hash of the complete subtree at `level` (0 for leaves) and `index` (from the
    /// left, at that level) is stored.
    public static func storedIndex(level: Int, index: UInt64) -> UInt64 {
        // The subtree's hash is written with its last leaf, `level` places after that leaf's own.
        let lastLeaf = ((index + 1) << UInt64(level)) - 1
        // Before leaf n: each earlier leaf (n) and each complete subtree above the leaves among
        // them (n/2 + n/4 + … = n - popcount(n)).
        return 2 * lastLeaf - UInt64(lastLeaf.nonzeroBitCount) + UInt64(level)
    }

    /// How many hashes a tree of `size` leaves stores.
    public static func storedCount(size: UInt64) -> UInt64 {
        guard size > 0 else { return 0 }
        return storedIndex(level: 0, index: size - 1) + 1 + UInt64((size - 1).trailingOneBitCount)
    }

    /// The complete subtrees that make up the leaves `lo..<hi`, left to right, each as large as
    /// it can be: the pieces whose hashes give the range's (`TreeProofs`). `lo` is a multiple of
    /// the largest power of two below `hi - lo`, as every range of RFC 6962's proofs is.
    static func pieces(_ lo: UInt64, _ hi: UInt64) -> [(level: Int, index: UInt64)] {
        var pieces: [(level: Int, index: UInt64)] = []
        var start = lo
        while start < hi {
            var level = start == 0 ? 63 : start.trailingZeroBitCount
            while level > 0 && (UInt64(1) << UInt64(level)) > hi - start { level -= 1 }
            pieces.append((level, start >> UInt64(level)))
            start += 1 << UInt64(level)
        }
        return pieces
    }

    /// The largest power of two below `n` (`n` ≥ 2): where RFC 6962 splits a tree of `n` leaves.
    static func split(_ n: UInt64) -> UInt64 {
        1 << UInt64(63 - (n - 1).leadingZeroBitCount)
    }
}

extension UInt64 {
    /// How many one bits end the number (0 for an even one).
    var trailingOneBitCount: Int { (~self).trailingZeroBitCount }
}
