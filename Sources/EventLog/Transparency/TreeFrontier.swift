/// The right edge of the tree: the hashes of the complete subtrees a tree of `size` leaves is
/// made of, largest (leftmost) first, one per one bit of `size`. Enough to append leaves and to
/// know the tree's hash without reading the stored tree: a store keeps it beside its head.
public struct TreeFrontier: Sendable, Equatable {
    /// How many leaves the tree has.
    public private(set) var size: UInt64
    /// The complete subtrees' hashes, largest first.
    public private(set) var roots: [TreeHash]

    /// The tree of no leaves.
    public init() {
        size = 0
        roots = []
    }

    /// The edge of a tree of `size` leaves as `bytes` holds it (its roots' 32 bytes each, in
    /// order); `nil` when their count is not the number of one bits of `size`.
    public init?(size: UInt64, bytes: some Collection<UInt8>) {
        let all = Array(bytes)
        guard all.count == 32 * size.nonzeroBitCount else { return nil }
        self.size = size
        roots = stride(from: 0, to: all.count, by: 32).map { TreeHash(bytes: all[$0..<($0 + 32)])! }
    }

    /// The edge as a store keeps it: the size (8 bytes, big-endian), then the roots' bytes.
    public var record: [UInt8] { withUnsafeBytes(of: size.bigEndian) { Array($0) } + bytes }

    /// The edge `record` holds; `nil` for bytes that are not one.
    public init?(record: some Collection<UInt8>) {
        let all = Array(record)
        guard all.count >= 8 else { return nil }
        let size = all[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(size: size, bytes: all[8...])
    }

    /// The roots' bytes, in order: what `init(size:bytes:)` reads.
    public var bytes: [UInt8] { roots.flatMap(\.bytes) }

    /// Adds the leaf whose hash is `leaf`, and gives the hashes to store for it
    /// (`TreeLayout`): the leaf's, then each subtree it completes, lowest first. They go at
    /// `TreeLayout.storedIndex(level: 0, index: size)` on, `size` as it was before the call.
    public mutating func append(leaf: TreeHash) -> [TreeHash] {
        var stored: [TreeHash] = []
        append(leaf: leaf) { stored.append($0) }
        return stored
    }

    /// The same, each hash to store given to `store` in order, nothing allocated: the stores'
    /// write path.
    public mutating func append(leaf: TreeHash, _ store: (TreeHash) throws -> Void) rethrows {
        var hash = leaf
        try store(hash)
        var rest = size
        while rest & 1 == 1 {
            hash = TreeHash.node(roots.removeLast(), hash)
            try store(hash)
            rest >>= 1
        }
        roots.append(hash)
        size += 1
    }

    /// The tree's hash (RFC 6962's MTH of all its leaves).
    public var root: TreeHash {
        guard var hash = roots.last else { return .empty }
        for left in roots.dropLast().reversed() { hash = TreeHash.node(left, hash) }
        return hash
    }

    /// Where the next leaf's hashes are stored.
    public var nextStoredIndex: UInt64 { TreeLayout.storedIndex(level: 0, index: size) }
}
