public import Foundation

/// The store boundary: Reel's event log as any backend keeps it. `EventLog` is the embedded LMDB
/// store; a PostgreSQL store implements the same contract, and `EventStoreContract` (in the
/// tests) proves each one against it.
///
/// What every store promises:
/// - Global positions start at 1 and run on without a gap, in commit order.
/// - A stream is one account; its versions start at 1 and run on without a gap.
/// - An append is atomic: all of its events are stored, or none.
/// - An event id is stored once: appending a request whose ids are all stored already, in that
///   stream and in that order, appends nothing and answers the original positions (a retry).
/// - Payloads are sealed under the stream's own key; destroying the key (shredding) leaves the
///   envelopes and the hash chain verifiable and the payloads unreadable.
/// - Projections kept with the log (`ProjectionTable`) change in the log's own write
///   transaction (`write`), so they never run ahead of the log or behind it.
///
/// Errors are `EventLogError`s where the log is concerned (`wrongExpectedVersion`,
/// `brokenChain`, `storage`, ...); errors thrown by a caller's closure reach the caller as thrown.
///
/// ```swift
/// let store: any EventStore = try EventLog.open(at: dataDirectory)
/// try store.write { w in
///     let recorded = try w.append(events, to: stream, expected: .noStream)
///     try w.table(checkpoints).put(Array("checkpoint".utf8), bytes(of: recorded.last!.position))
/// }
/// ```
public protocol EventStore: AnyObject, Sendable {
    /// What a write transaction of this store is (`LedgerWrite` for LMDB).
    associatedtype Write: EventStoreWrite
    /// What a read snapshot of this store is (`LedgerSnapshot` for LMDB).
    associatedtype Snapshot: EventStoreSnapshot

    /// The local directory the store keeps its own files and what lives beside it in (Reel's
    /// response cache): the data directory.
    var directory: String { get }

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

    /// Runs `body` in one read snapshot: the log and the projection tables as of one commit, which
    /// later commits do not change. Nothing in `body` may outlive the call.
    func read<T>(_ body: (Snapshot) throws -> T) throws -> T

    /// Runs `body` in one write transaction and commits it durably: the appends made through it and
    /// the caller's writes to projection tables land together or not at all. `body` may run more
    /// than once (a store may retry it), so it must act only through the transaction. Throws what
    /// `body` throws, as thrown (nothing is committed then).
    ///
    /// Every write first finishes the key destruction a crash interrupted; keys whose destruction
    /// `body` prepared (`EventStoreWrite.destroyKeysOnCommit`) are destroyed after the commit, and
    /// `step` names each point passed.
    func write<T>(shredding step: (ShreddingStep) -> Void, _ body: (Write) throws -> T) throws -> T

    /// Opens (making it when missing) the projection table `name`: a keyspace kept with the log,
    /// read and written inside the store's own transactions. Call it outside any transaction.
    func projectionTable(named name: String) throws -> ProjectionTableName

    // MARK: Reading

    /// The last event's position, time and hash; `nil` for an empty log.
    func head() throws -> LogHead?

    /// The stream's version: how many events it holds (0 for a stream never written).
    func version(of stream: StreamID) throws -> UInt64

    /// Every stream with its version, in stream id order.
    func streams() throws -> [StreamSummary]

    /// The global position of an event id, if stored.
    func position(of eventID: UUID) throws -> UInt64?

    /// Up to `maxCount` events of the whole log from global position `position` on, in position
    /// order, payloads opened (`nil` for a shredded stream). A gap is `brokenChain`.
    func read(from position: UInt64, maxCount: Int) throws -> [RecordedEvent]

    /// Up to `maxCount` events of `stream` from stream version `version` on, in version order. An
    /// index that disagrees with the events is `brokenChain`.
    func read(stream: StreamID, from version: UInt64, maxCount: Int) throws -> [RecordedEvent]

    /// A catch-up subscription: history from `position`, then `.caughtUp`, then new events as they
    /// are committed, by this process or any other, read in batches of `batchSize`.
    func subscribe(from position: UInt64, batchSize: Int) -> Subscription

    /// Replays the events at `positions`, split by stream over `check.partitions` lanes: one lane
    /// sees all of a stream's events in order, as `body(partition, view)`; each `view` is valid
    /// only during its call. The chain is checked as it is read (`ReplayCheck`): a broken one is
    /// `brokenChain`. When lanes fail, the error at the earliest position is thrown; `body`'s
    /// errors as it threw them.
    func replay(
        _ positions: Range<UInt64>, verifying check: ReplayCheck, _ body: @Sendable (_ partition: Int, EventView) throws -> Void
    ) throws

    // MARK: Audit

    /// Walks the whole log in one snapshot and reports whether it verifies (the rules of
    /// `Schemas/ledger-layout.md`); a problem is reported, not thrown. Throws only when the store
    /// cannot be read.
    func verify(expectedHead: ChainHash?, progress: ((UInt64, UInt64) -> Void)?) throws -> VerificationReport

    // MARK: Keys and shredding

    /// Makes the stream's key now (durably), so a later write transaction need not.
    func prepareKey(for stream: StreamID) throws

    /// Every stream whose key is destroyed.
    func shreddedStreams() throws -> Set<StreamID>

    /// Destroys the keys of closed streams whose destruction a crash interrupted, on the chain's
    /// authority only (else `unauthorizedShredding`, nothing destroyed). Returns those streams.
    @discardableResult
    func completeShredding(step: (ShreddingStep) -> Void) throws -> [StreamID]

    // MARK: Data kept beside the log

    /// Seals `plaintext` under the stream's key; `context` names its purpose and must be given
    /// again to open it.
    func sealBlob(_ plaintext: [UInt8], for stream: StreamID, context: String) throws -> [UInt8]

    /// A name for data kept beside the log that says nothing once the stream's key is destroyed.
    func blobName(_ bytes: [UInt8], for stream: StreamID, context: String) throws -> String

    /// Opens a sealed blob; `nil` when the stream's key is destroyed; `corruptBlob` when the bytes
    /// do not authenticate.
    func openBlob(_ sealed: UnsafeRawBufferPointer, for stream: StreamID, context: String) throws -> [UInt8]?

    /// Seals several plaintexts of one stream and purpose (`sealBlob` on each, the key found and
    /// set up once).
    func sealBlobs(_ plaintexts: [[UInt8]], for stream: StreamID, context: String) throws -> [[UInt8]]

    /// Opens several blobs of one stream and purpose (`openBlob` on each, the key found and set
    /// up once); `nil` when the stream's key is destroyed (none given: none opened, whatever the
    /// key); `corruptBlob` when any does not authenticate.
    func openBlobs(_ sealed: [[UInt8]], for stream: StreamID, context: String) throws -> [[UInt8]]?
}

extension EventStore {
    /// A catch-up subscription from `position` in batches of 1,024.
    public func subscribe(from position: UInt64) -> Subscription {
        subscribe(from: position, batchSize: 1_024)
    }

    /// A write transaction with no one to tell the shredding steps to.
    public func write<T>(_ body: (Write) throws -> T) throws -> T {
        try write(shredding: { _ in }, body)
    }
}
