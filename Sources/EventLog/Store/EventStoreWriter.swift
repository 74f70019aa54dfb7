/// What writing a store takes, beside reading it: appends (alone or group-committed), write
/// transactions that carry projections with the log, and room made ahead (GRDB's
/// `DatabaseWriter` is the model).
public protocol EventStoreWriter: EventStoreReader {
    /// What a write transaction of this store is (`LedgerWrite` for LMDB).
    associatedtype Write: EventStoreWrite

    // MARK: Appending

    /// Appends `events` to `stream` atomically and durably, in a transaction of its own. Throws
    /// `wrongExpectedVersion` (nothing stored) when the stream is not at `expected`,
    /// `duplicateEventID` when some but not all ids are stored already, `streamShredded` when the
    /// stream's key is destroyed. A retry appends nothing and returns `deduplicated`.
    func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) throws -> AppendResult

    /// The same, committed together with other concurrent appends (group commit); each caller gets
    /// its own result or error, as if it had appended alone.
    func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) async throws -> AppendResult

    /// Makes room ahead of appending `events` to `stream` in one transaction (an import), so the
    /// write does not fail for room midway. A store that needs no room does nothing.
    func reserveRoom(forAppending events: [ProposedEvent], to stream: StreamID) throws

    /// Makes room for about `bytes` more in the store (a rebuild's second set of projections).
    func reserveRoom(bytes: Int) throws

    // MARK: Transactions
    /// Runs `body` in one write transaction and commits it durably: the appends made through it and
    /// the caller's writes to projection tables land together or not at all. `body` may run more
    /// than once (a store may retry it), so it must act only through the transaction. Throws what
    /// `body` throws, as thrown (nothing is committed then).
    ///
    /// Every write first finishes the key destruction a crash interrupted; keys whose destruction
    /// `body` prepared (`EventStoreWrite.destroyKeysOnCommit`) are destroyed after the commit, and
    /// `step` names each point passed.
    func write<T>(shredding step: (ShreddingStep) -> Void, _ body: (Write) throws -> T) throws -> T

    /// The same without waiting for the commit where a commit is a round trip: `body`'s value,
    /// and `wait`, which returns once the transaction is durable (and throws, nothing committed,
    /// when it is not). Call `wait` once, on the same thread, before answering anyone of what
    /// `body` did; meanwhile the caller may begin its next transaction, which then follows this
    /// one (a group commit's next batch is decided while this one commits). A store whose
    /// commit is local (LMDB) commits before returning, and gives no `wait`. Not for a
    /// transaction that destroys keys (`write` tells their steps).
    func writeAhead<T>(_ body: (Write) throws -> T) throws -> (value: T, wait: (() throws -> Void)?)

    /// Opens (making it when missing) the projection table `name`: a keyspace kept with the log,
    /// read and written inside the store's own transactions. Call it outside any transaction.
    func projectionTable(named name: String) throws -> ProjectionTableName
}

extension EventStoreWriter {
    public func writeAhead<T>(_ body: (Write) throws -> T) throws -> (value: T, wait: (() throws -> Void)?) {
        (try write(shredding: { _ in }, body), nil)
    }

    /// A write transaction with no one to tell the shredding steps to.
    public func write<T>(_ body: (Write) throws -> T) throws -> T {
        try write(shredding: { _ in }, body)
    }
}
