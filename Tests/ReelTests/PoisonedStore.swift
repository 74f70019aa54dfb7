import LMDBStore
import EventLog
import Foundation
import Ledger

/// The LMDB store with one fault: appending a `favorite-added` of the poisoned title writes the
/// events and then fails, as a store failing midway would, so the write transaction must not
/// commit. Everything else is the LMDB store's own behaviour.
final class PoisonedStore: EventStore {
    typealias Snapshot = LedgerSnapshot

    /// What the failing append throws: an error that does not say its kind, which group commit
    /// must treat as breaking the transaction.
    struct Poisoned: Error, Equatable {}

    let inner: EventLog
    let poison: MediaKey

    init(_ inner: EventLog, poison: MediaKey) {
        self.inner = inner
        self.poison = poison
    }

    /// A write transaction of the inner store, whose appends of the poisoned title fail after writing.
    final class Write: EventStoreWrite {
        let inner: LedgerWrite
        let poison: MediaKey

        init(_ inner: LedgerWrite, poison: MediaKey) {
            self.inner = inner
            self.poison = poison
        }

        var headPosition: UInt64 { inner.headPosition }
        func version(of stream: StreamID) throws -> UInt64 { try inner.version(of: stream) }
        func position(of eventID: UUID) throws -> UInt64? { try inner.position(of: eventID) }

        func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) throws -> [RecordedEvent] {
            let recorded = try inner.append(events, to: stream, expected: expected)
            let poisoned = try events.contains { event in
                try EventDecoder.standard.decode(type: event.type, schemaVersion: event.schemaVersion, payload: event.payload) == .favoriteAdded(poison)
            }
            if poisoned { throw Poisoned() }
            return recorded
        }

        func appendEvents(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) throws -> [AppendedEvent] {
            try inner.appendEvents(events, to: stream, expected: expected)
        }

        func close(_ stream: StreamID, atMicroseconds time: Int64) throws { try inner.close(stream, atMicroseconds: time) }
        func destroyKeysOnCommit(_ streams: [StreamID], atMicroseconds time: Int64) throws {
            try inner.destroyKeysOnCommit(streams, atMicroseconds: time)
        }
        func readToHead(from position: UInt64, maxCount: Int) throws -> [RecordedEvent] { try inner.readToHead(from: position, maxCount: maxCount) }
        func head() throws -> LogHead? { try inner.head() }
        func read(from position: UInt64, maxCount: Int) throws -> [RecordedEvent] { try inner.read(from: position, maxCount: maxCount) }
        func read(stream: StreamID, from version: UInt64, maxCount: Int) throws -> [RecordedEvent] {
            try inner.read(stream: stream, from: version, maxCount: maxCount)
        }
        func table(_ name: ProjectionTableName) -> any ProjectionTable { inner.table(name) }
        func treeFrontier() throws -> TreeFrontier { try inner.treeFrontier() }
        func treeHashes(at indexes: [UInt64]) throws -> [TreeHash] { try inner.treeHashes(at: indexes) }
        func leafHashes(from position: UInt64, maxCount: Int) throws -> [TreeHash] { try inner.leafHashes(from: position, maxCount: maxCount) }
    }

    var directory: String { inner.directory }

    func write<T>(shredding step: (ShreddingStep) -> Void, _ body: (Write) throws -> T) throws -> T {
        try inner.write(shredding: step) { w in try body(Write(w, poison: poison)) }
    }

    func read<T>(_ body: (LedgerSnapshot) throws -> T) throws -> T { try inner.read(body) }

    func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) throws -> AppendResult {
        try inner.append(events, to: stream, expected: expected)
    }
    func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) async throws -> AppendResult {
        try await inner.append(events, to: stream, expected: expected)
    }
    func reserveRoom(forAppending events: [ProposedEvent], to stream: StreamID) throws { try inner.reserveRoom(forAppending: events, to: stream) }
    func reserveRoom(bytes: Int) throws { try inner.reserveRoom(bytes: bytes) }
    func projectionTable(named name: String) throws -> ProjectionTableName { try inner.projectionTable(named: name) }
    func head() throws -> LogHead? { try inner.head() }
    func version(of stream: StreamID) throws -> UInt64 { try inner.version(of: stream) }
    func streams() throws -> [StreamSummary] { try inner.streams() }
    func position(of eventID: UUID) throws -> UInt64? { try inner.position(of: eventID) }
    func read(from position: UInt64, maxCount: Int) throws -> [RecordedEvent] { try inner.read(from: position, maxCount: maxCount) }
    func read(stream: StreamID, from version: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        try inner.read(stream: stream, from: version, maxCount: maxCount)
    }
    func subscribe(from position: UInt64, batchSize: Int) -> Subscription { inner.subscribe(from: position, batchSize: batchSize) }
    func replay(
        _ positions: Range<UInt64>, verifying check: ReplayCheck, _ body: @Sendable (_ partition: Int, EventView) throws -> Void
    ) throws {
        try inner.replay(positions, verifying: check, body)
    }
    func verify(expectedHead: ChainHash?, progress: ((UInt64, UInt64) -> Void)?) throws -> VerificationReport {
        try inner.verify(expectedHead: expectedHead, progress: progress)
    }
    func prepareKey(for stream: StreamID) throws { try inner.prepareKey(for: stream) }
    func shreddedStreams() throws -> Set<StreamID> { try inner.shreddedStreams() }
    func completeShredding(step: (ShreddingStep) -> Void) throws -> [StreamID] { try inner.completeShredding(step: step) }
    func sealBlob(_ plaintext: [UInt8], for stream: StreamID, context: String) throws -> [UInt8] {
        try inner.sealBlob(plaintext, for: stream, context: context)
    }
    func blobName(_ bytes: [UInt8], for stream: StreamID, context: String) throws -> String {
        try inner.blobName(bytes, for: stream, context: context)
    }
    func openBlob(_ sealed: RawSpan, for stream: StreamID, context: String) throws -> [UInt8]? {
        try inner.openBlob(sealed, for: stream, context: context)
    }
    func sealBlobs(_ plaintexts: [[UInt8]], for stream: StreamID, context: String) throws -> [[UInt8]] {
        try inner.sealBlobs(plaintexts, for: stream, context: context)
    }
    func openBlobs(_ sealed: [[UInt8]], for stream: StreamID, context: String) throws -> [[UInt8]]? {
        try inner.openBlobs(sealed, for: stream, context: context)
    }
}
