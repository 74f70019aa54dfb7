public import Foundation

/// What reading a store takes: snapshots, the log and its streams, subscriptions, replay and the
/// audit. The core asks only this where it only reads (GRDB's `DatabaseReader` is the model).
public protocol EventStoreReader: AnyObject, Sendable {
    /// What a read snapshot of this store is (`LedgerSnapshot` for LMDB).
    associatedtype Snapshot: EventStoreSnapshot
    /// The local directory the store keeps its own files and what lives beside it in (Reel's
    /// response cache): the data directory.
    var directory: String { get }

    // MARK: Snapshots

    /// Runs `body` in one read snapshot: the log and the projection tables as of one commit, which
    /// later commits do not change. Nothing in `body` may outlive the call.
    func read<T>(_ body: (Snapshot) throws -> T) throws -> T

    /// The same, in a snapshot that holds at least `floor` (what its caller knows is committed):
    /// a store with copies that may lag (PostgreSQL's standbys, `readsFromCopies`) may answer
    /// from one that has it, else from its primary. A store that is always current reads as
    /// `read(_:)` does.
    func read<T>(atLeast floor: ReadFloor, _ body: (Snapshot) throws -> T) throws -> T

    /// Whether reads with a floor may be answered by a copy that lags (so a caller should find
    /// out the floor it needs); false for a store that is always current.
    var readsFromCopies: Bool { get }

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
}

extension EventStoreReader {
    /// A catch-up subscription from `position` in batches of 1,024.
    public func subscribe(from position: UInt64) -> Subscription {
        subscribe(from: position, batchSize: 1_024)
    }

    public func read<T>(atLeast floor: ReadFloor, _ body: (Snapshot) throws -> T) throws -> T {
        try read(body)
    }

    public var readsFromCopies: Bool { false }
}
