/// A read snapshot of an `EventStore` (`EventStore.read`): the log and its projection tables as of
/// one commit. Valid only inside the closure it is lent to.
public protocol EventStoreSnapshot {
    /// The last event's position, time and hash in this snapshot; `nil` for an empty log.
    func head() throws -> LogHead?

    /// Up to `maxCount` events from global position `position` on, as this snapshot sees them
    /// (see `EventStore.read(from:maxCount:)`).
    func read(from position: UInt64, maxCount: Int) throws -> [RecordedEvent]

    /// Up to `maxCount` events of `stream` from version `version` on, as this snapshot sees them
    /// (see `EventStore.read(stream:from:maxCount:)`).
    func read(stream: StreamID, from version: UInt64, maxCount: Int) throws -> [RecordedEvent]

    /// The projection table `name` as this snapshot (or write transaction) sees it. In a read
    /// snapshot its writes throw.
    func table(_ name: ProjectionTableName) -> any ProjectionTable

    /// The log's Merkle tree in this snapshot (`TreeFrontier`): how many envelopes it covers, its
    /// hash. A store brings it up to its head in every write transaction that moves the head.
    func treeFrontier() throws -> TreeFrontier

    /// The tree's stored hashes at `indexes` (`TreeLayout`), in their order; one read. Throws
    /// `TreeError.mismatch` for an index not stored.
    func treeHashes(at indexes: [UInt64]) throws -> [TreeHash]

    /// The leaf hashes (`TreeHash.leaf`) of up to `maxCount` envelopes from `position` on, as
    /// stored: nothing is opened, so a payload that no longer authenticates does not stop it.
    func leafHashes(from position: UInt64, maxCount: Int) throws -> [TreeHash]
}

extension EventStoreSnapshot {
    /// The checkpoint of the tree this snapshot holds: named after its first leaf
    /// (`Checkpoint.origin(firstLeaf:)`), its size and hash; `nil` while the tree has no leaf.
    public func checkpoint() throws -> Checkpoint? {
        let frontier = try treeFrontier()
        guard frontier.size > 0, let first = try treeHashes(at: [0]).first else { return nil }
        return Checkpoint(origin: Checkpoint.origin(firstLeaf: first), size: frontier.size, root: frontier.root)
    }

    /// Every event of `stream` in this snapshot.
    public func read(stream: StreamID) throws -> [RecordedEvent] {
        try read(stream: stream, from: 1, maxCount: .max)
    }
}
