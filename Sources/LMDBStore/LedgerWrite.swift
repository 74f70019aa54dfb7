@_spi(Stores) public import EventLog
public import Foundation
import LMDB

/// One write transaction of the LMDB store, lent to `EventLog.write {}`: appends, plus the caller's
/// projection tables (named databases of `ledger/`), committed together or not at all.
///
/// Valid only inside the closure. The closure may run more than once (when the map must grow), so
/// it must act only through this transaction.
public final class LedgerWrite: EventStoreWrite {
    /// The LMDB transaction. It stays inside the LMDB store: callers keep their own data in
    /// projection tables (`table(_:)`), which any store offers.
    let transaction: Transaction
    private let log: EventLog
    var currentHead: LogHead?
    /// The leaf hashes of the envelopes this transaction wrote, in order (`LedgerWriter.writeHead`).
    private(set) var leaves: [TreeHash] = []
    private(set) var appended = false
    /// The error of an append that failed after writing part of its batch (a payload the cipher
    /// could not seal): this transaction must not commit, whatever the caller does with the error.
    private(set) var brokenBy: (any Error)?
    /// The key store's replacement that destroys the keys of streams closed here, prepared before
    /// the commit and swapped in after it (`EventLog.write`).
    private(set) var replacement: KeyStoreReplacement?

    init(log: EventLog, transaction: Transaction) throws {
        self.log = log
        self.transaction = transaction
        currentHead = try log.databases.head(transaction)
    }

    /// The last event's position in this transaction (0 for an empty log).
    public var headPosition: UInt64 { currentHead?.position ?? 0 }

    public func version(of stream: StreamID) throws -> UInt64 {
        try wrapped { try log.databases.version(of: stream, transaction) }
    }

    /// The position of `eventID` as this transaction sees the event-id index.
    public func position(of eventID: UUID) throws -> UInt64? {
        try wrapped { try transaction.get(log.databases.eventIDs, eventID.bytes) }
    }

    /// Appends `events` to `stream` atomically and returns them as recorded (payloads in the clear).
    /// A retry (every id stored already, in this stream) appends nothing and returns the events as
    /// they were stored the first time, read back and opened.
    /// Sealing happens here, inside the transaction: a large batch (an import) is sealed by the
    /// other cores while this thread writes it.
    @discardableResult
    public func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion = .any) throws -> [RecordedEvent] {
        try wrapped {
            let (result, written) = try write(events, to: stream, expected: expected) { try Envelope(view: try EnvelopeView($0)) }
            if result.deduplicated { return try stored(at: result.positions) }
            return zip(written, events).map { RecordedEvent(stored: $0, payload: $1.payload) }
        }
    }

    /// Appends like `append`, but returns only where each event went: for a large batch (an
    /// import) whose caller holds the events already and would otherwise get a copy of each.
    public func appendEvents(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion = .any) throws -> [AppendedEvent] {
        try wrapped {
            let (result, appended) = try write(events, to: stream, expected: expected) { bytes in
                let view = try EnvelopeView(bytes)
                return AppendedEvent(storedAt: view.position, streamVersion: view.streamVersion, recordedAtMicroseconds: view.recordedAtMicroseconds)
            }
            if !result.deduplicated { return appended }
            return try stored(at: result.positions).map {
                AppendedEvent(storedAt: $0.position, streamVersion: $0.streamVersion, recordedAtMicroseconds: $0.envelope.recordedAtMicroseconds)
            }
        }
    }

    /// Seals `events` and writes them; `each` makes what the caller keeps of every envelope as it
    /// is written (nothing is written for a retry).
    private func write<T>(
        _ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion, each: (UnsafeRawBufferPointer) throws -> T
    ) throws -> (AppendResult, [T]) {
        let request = AppendRequest(
            batch: try SealedBatch(events, stream: stream, key: try log.sealingKey(for: stream, in: transaction)), expected: expected)
        var made: [T] = []
        made.reserveCapacity(events.count)
        let before = currentHead?.position
        let result: AppendResult
        do {
            result = try request.batch.whileSealing {
                try LedgerWriter(databases: log.databases).append(request, transaction, head: &currentHead, leaves: &leaves) {
                    made.append(try each($0))
                }
            }
        } catch {
            if currentHead?.position != before { brokenBy = EventLogError.wrap(error) }
            throw error
        }
        if !result.deduplicated { appended = true }
        return (result, made)
    }

    /// A retry's events as they were stored the first time, read back and opened.
    private func stored(at positions: [UInt64]) throws -> [RecordedEvent] {
        try positions.map { position in
            guard let event = try log.recordedEvents(from: position, maxCount: 1, transaction).first, event.position == position else {
                throw EventLogError.corruptEnvelope(position: position, reason: "missing after append")
            }
            return event
        }
    }

    /// Closes `stream` for good, in this transaction: it accepts no more events. Its key is
    /// destroyed by the next change of the ledger (`EventLog.write`) unless the caller destroys it
    /// with this commit (`destroyKeysOnCommit`).
    public func close(_ stream: StreamID, atMicroseconds time: Int64) throws {
        try wrapped {
            guard try log.databases.closed(stream, transaction) == nil else { return }
            let closed = ClosedStream(stream: stream, keyDestroyed: false, closedAtMicroseconds: time)
            try transaction.put(log.databases.closedStreams, stream.rawValue, closed.bytes)
        }
    }

    /// Prepares, now, the key store's replacement that destroys the keys of `streams` (closed in
    /// this transaction), and has `EventLog.write` swap it in once this transaction commits. The
    /// preparing is what needs disk space: should it fail, the transaction fails with nothing
    /// changed. The key store stays locked until then (see `FileLock`).
    public func destroyKeysOnCommit(_ streams: [StreamID], atMicroseconds time: Int64) throws {
        try wrapped {
            for stream in streams {
                guard try log.databases.closed(stream, transaction) != nil else {
                    throw EventLogError.unauthorizedShredding(stream: stream, reason: "it is not closed in this transaction")
                }
            }
            replacement?.abandon()
            replacement = try KeyStoreReplacement(log.keyStore, destroying: streams.map { ($0, time) })
        }
    }

    /// The last event's position, time and hash in this transaction.
    public func head() throws -> LogHead? { currentHead }

    /// Up to `maxCount` events of `stream` from stream version `version` on, as this transaction
    /// sees them (see `EventLog.read(stream:from:maxCount:in:)`).
    public func read(stream: StreamID, from version: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        try log.read(stream: stream, from: version, maxCount: maxCount, in: transaction)
    }

    /// A projection table in this transaction: written with the appends, or not at all.
    public func table(_ name: ProjectionTableName) -> any ProjectionTable {
        LMDBProjectionTable(database: log.projectionDatabase(name), transaction: transaction)
    }

    /// The tree as this transaction began with it: appends made in it join the tree at its end.
    public func treeFrontier() throws -> TreeFrontier {
        try wrapped { try log.databases.treeFrontier(transaction) }
    }

    public func treeHashes(at indexes: [UInt64]) throws -> [TreeHash] {
        try wrapped { try log.databases.treeHashes(at: indexes, transaction) }
    }

    public func leafHashes(from position: UInt64, maxCount: Int) throws -> [TreeHash] {
        try wrapped { try log.leafHashes(from: position, maxCount: maxCount, transaction) }
    }

    /// Up to `maxCount` events from global position `position` on, as this transaction sees them.
    public func read(from position: UInt64, maxCount: Int = Int.max) throws -> [RecordedEvent] {
        try wrapped { try log.recordedEvents(from: position, maxCount: maxCount, transaction) }
    }

    /// Checks that a replay (`check`, which went on over everything up to here) ended at this
    /// transaction's head (see `ReplayCheck.finish`).
    public func finish(_ check: ReplayCheck) throws {
        try check.finish(head: currentHead)
    }

    private func wrapped<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw EventLogError.wrap(error) }
    }
}
