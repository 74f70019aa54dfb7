import Crypto
@_spi(Stores) public import EventLog
public import Foundation
import NIOCore
import PostgresNIO

/// One write transaction of a PostgreSQL store (`PostgresEventStore.write`): appends, closes and
/// the caller's projection tables, committed together or not at all. Valid only inside the closure
/// it is lent to; reads through it see its own writes.
///
/// It holds `reel_head`'s row `FOR UPDATE` from its start: writers of every process and host take
/// turns there, so each one's positions follow the last committed one without a gap, in commit
/// order, and everything it reads after the lock (READ COMMITTED: each statement sees what is
/// committed when it starts) is current.
public final class PostgresWrite: EventStoreWrite {
    let store: PostgresEventStore
    let reader: PostgresReader
    var link: PostgresLink { reader.link }
    private(set) var currentHead: LogHead?
    /// Whether the head moved (anything appended).
    private(set) var appended = false
    /// Streams closed in this transaction, and those whose keys it destroys.
    private var closedHere: Set<StreamID> = []
    private(set) var destroyed: [StreamID] = []
    /// The error of an append that failed after writing part of its batch: never commit then.
    private(set) var brokenBy: (any Error)?

    init(store: PostgresEventStore, link: PostgresLink) throws {
        self.store = store
        reader = PostgresReader(link: link)
        currentHead = try reader.head(forUpdate: true)
    }

    public var headPosition: UInt64 { currentHead?.position ?? 0 }

    public func head() throws -> LogHead? { currentHead }

    public func version(of stream: StreamID) throws -> UInt64 {
        try streamRow(stream).version
    }

    public func position(of eventID: UUID) throws -> UInt64? {
        try link.run("SELECT position FROM reel_events WHERE event_id = \(eventID)").first.map { UInt64(try $0.decode(Int64.self)) }
    }

    @discardableResult
    public func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) throws -> [RecordedEvent] {
        let sealed = try SealedEvents(events, stream: stream, key: try store.sealingKey(for: stream))
        let (result, envelopes) = try append(sealed, expected: expected)
        if result.deduplicated { return try stored(at: result.positions) }
        return zip(envelopes, events).map { RecordedEvent(stored: $0, payload: $1.payload) }
    }

    public func appendEvents(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) throws -> [AppendedEvent] {
        try append(events, to: stream, expected: expected).map {
            AppendedEvent(storedAt: $0.position, streamVersion: $0.streamVersion, recordedAtMicroseconds: $0.envelope.recordedAtMicroseconds)
        }
    }

    /// Appends events sealed already: everything that can refuse the request is checked before
    /// its first write, so a refused request leaves nothing and the transaction goes on (group
    /// commit relies on it). A write that fails after that breaks the transaction.
    func append(_ sealed: SealedEvents, expected: ExpectedVersion) throws -> (AppendResult, [Envelope]) {
        let stream = sealed.stream
        let events = sealed.events
        let row = try streamRow(stream)
        if row.closed { throw EventLogError.streamShredded(stream) }
        var seen = Set<UUID>()
        for event in events where !seen.insert(event.id).inserted {
            throw EventLogError.duplicateEventID(id: event.id.uuidString.lowercased(), position: 0)
        }
        if !events.isEmpty {
            let ids = events.map(\.id)
            let known = try link.run("SELECT event_id, position, stream FROM reel_events WHERE event_id = ANY(\(ids))")
            if !known.isEmpty {
                var positions: [UUID: (UInt64, String)] = [:]
                for found in known {
                    let (id, position, owner) = try found.decode((UUID, Int64, String).self)
                    positions[id] = (UInt64(position), owner)
                }
                guard positions.count == events.count, positions.values.allSatisfy({ $0.1 == stream.rawValue }) else {
                    let first = events.first { positions[$0.id] != nil }!
                    throw EventLogError.duplicateEventID(id: first.id.uuidString.lowercased(), position: positions[first.id]!.0)
                }
                return (AppendResult(stored: events.map { positions[$0.id]!.0 }, streamVersion: row.version, deduplicated: true), [])
            }
        }
        guard expected.admits(row.version) else {
            throw EventLogError.wrongExpectedVersion(stream: stream, expected: expected, actual: row.version)
        }
        guard !events.isEmpty else { return (AppendResult(stored: [], streamVersion: row.version, deduplicated: false), []) }
        let envelopes = try sealed.envelopes(after: currentHead, streamVersion: row.version)
        do {
            try link.run(
                """
                INSERT INTO reel_events (position, stream, stream_version, event_id, type, recorded_at, envelope)
                SELECT * FROM unnest(\(envelopes.map { Int64($0.position) })::bigint[], \(envelopes.map { $0.streamID.rawValue })::text[],
                    \(envelopes.map { Int64($0.streamVersion) })::bigint[], \(envelopes.map(\.eventID))::uuid[], \(envelopes.map(\.type))::text[],
                    \(envelopes.map(\.recordedAtMicroseconds))::bigint[], \(envelopes.map { ByteBuffer(bytes: $0.bytes) })::bytea[])
                """)
            let version = Int64(envelopes.last!.streamVersion)
            try link.run(
                """
                INSERT INTO reel_streams (stream, version) VALUES (\(stream.rawValue), \(version))
                ON CONFLICT (stream) DO UPDATE SET version = excluded.version
                """)
        } catch {
            brokenBy = error
            throw error
        }
        currentHead = LogHead(after: envelopes.last!)
        appended = true
        return (AppendResult(stored: envelopes.map(\.position), streamVersion: envelopes.last!.streamVersion, deduplicated: false), envelopes)
    }

    /// A retry's events as they were stored the first time, read back and opened.
    private func stored(at positions: [UInt64]) throws -> [RecordedEvent] {
        try positions.map { position in
            guard let event = try reader.read(from: position, maxCount: 1).first, event.position == position else {
                throw EventLogError.corruptEnvelope(position: position, reason: "missing after append")
            }
            return event
        }
    }

    /// The stream's version and whether it is closed, as this transaction sees them.
    func streamRow(_ stream: StreamID) throws -> (version: UInt64, closed: Bool) {
        guard let row = try link.run("SELECT version, closed_at IS NOT NULL FROM reel_streams WHERE stream = \(stream.rawValue)").first else {
            return (0, false)
        }
        let (version, closed) = try row.decode((Int64, Bool).self)
        return (UInt64(version), closed)
    }

    public func close(_ stream: StreamID, atMicroseconds time: Int64) throws {
        let row = try streamRow(stream)
        guard row.version > 0 else {
            throw EventLogError.unauthorizedShredding(stream: stream, reason: "the stream has no events")
        }
        if !row.closed {
            try link.run("UPDATE reel_streams SET closed_at = \(time) WHERE stream = \(stream.rawValue) AND closed_at IS NULL")
        }
        closedHere.insert(stream)
    }

    public func destroyKeysOnCommit(_ streams: [StreamID], atMicroseconds time: Int64) throws {
        for stream in streams where !closedHere.contains(stream) {
            throw EventLogError.unauthorizedShredding(stream: stream, reason: "it is not closed in this transaction")
        }
        try destroyKeys(of: streams)
    }

    /// Deletes the keys of closed `streams` in this transaction, each on the chain's authority
    /// (`checkAuthority`), and marks them for the purge that follows the commit.
    func destroyKeys(of streams: [StreamID]) throws {
        guard !streams.isEmpty else { return }
        for stream in streams { try checkAuthority(stream) }
        let names = streams.map(\.rawValue)
        try link.run("DELETE FROM reel_stream_keys WHERE stream = ANY(\(names))")
        try link.run("UPDATE reel_streams SET purge_pending = true WHERE stream = ANY(\(names))")
        for stream in streams where !destroyed.contains(stream) { destroyed.append(stream) }
    }

    /// A stream's key may be destroyed only on the authority of the event that closed it, on the
    /// chain (as on LMDB, `ShreddingAuthority`): its last event is of the closing type, sealed under
    /// its key (only a holder of the key can have made it), and every envelope from it to the head
    /// hashes and links, ending at the head.
    func checkAuthority(_ stream: StreamID) throws {
        func refuse(_ reason: String) -> EventLogError { .unauthorizedShredding(stream: stream, reason: reason) }
        let version = try streamRow(stream).version
        guard version > 0 else { throw refuse("the stream has no events") }
        guard let row = try link.run("SELECT position FROM reel_events WHERE stream = \(stream.rawValue) AND stream_version = \(Int64(version))").first
        else { throw refuse("no event holds its last version \(version)") }
        let position = UInt64(try row.decode(Int64.self))
        guard let head = currentHead, head.position >= position else { throw refuse("the log's head is before position \(position)") }
        let rows = try link.run(
            "SELECT position, stream, envelope FROM reel_events WHERE position >= \(Int64(position)) AND position <= \(Int64(head.position)) ORDER BY position"
        )
        let (batch, streams) = try PostgresReader.batch(rows)
        guard batch.count == Int(head.position - position + 1) else { throw refuse("the log has a gap after position \(position)") }
        let events: [RecordedEvent]
        do {
            events = try batch.opened(keys: try reader.keys(for: streams))
        } catch {
            throw refuse("an envelope from position \(position) on does not open or authenticate: \(error)")
        }
        let closing = events[0]
        guard closing.streamID == stream, closing.streamVersion == version, closing.type == store.closingType else {
            throw refuse("its last event (position \(position)) is not an '\(store.closingType)' event of the stream")
        }
        guard closing.payload != nil else { throw refuse("its key is destroyed already") }
        var previous: ChainHash?
        for event in events {
            let intact = event.envelope.bytes.withUnsafeBytes { Envelope.hashMatches($0) }
            guard intact else { throw refuse("the envelope at position \(event.position) does not hash to its stored hash") }
            if let previous, event.envelope.previousHash != previous { throw refuse("the chain breaks at position \(event.position)") }
            previous = event.envelope.hash
        }
        guard previous == head.hash else { throw refuse("the chain does not end at the head") }
    }

    /// Destroys the keys of streams closed by earlier transactions without destroying them (a
    /// deletion that stopped between its two steps); returns them.
    func finishPendingDestruction() throws -> [StreamID] {
        let rows = try link.run(
            """
            SELECT s.stream FROM reel_streams s JOIN reel_stream_keys k ON k.stream = s.stream
            WHERE s.closed_at IS NOT NULL ORDER BY s.stream
            """)
        let pending = try rows.map { try StreamID(try $0.decode(String.self)) }
        try destroyKeys(of: pending)
        return pending
    }

    public func read(from position: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        try reader.read(from: position, maxCount: maxCount)
    }

    public func read(stream: StreamID, from version: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        try reader.read(stream: stream, from: version, maxCount: maxCount)
    }

    public func readToHead(from position: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        let head = headPosition
        guard position <= head, maxCount > 0 else { return [] }
        let wanted = Int(clamping: min(UInt64(maxCount), head - position + 1))
        let events = try read(from: position, maxCount: wanted)
        guard events.count == wanted else {
            let end = position + UInt64(events.count) - 1
            throw ReplayCheck.broken(end, .headMismatch, "reel_head names position \(head) but the log ends at \(end)")
        }
        return events
    }

    public func table(_ name: ProjectionTableName) -> any ProjectionTable {
        PostgresProjectionTable(name: name.name, link: link, writable: true)
    }

    /// Writes the head where this transaction left it, and wakes the store's listeners on commit.
    func finish() throws {
        guard appended, let head = currentHead else { return }
        try link.run(
            "UPDATE reel_head SET position = \(Int64(head.position)), recorded_at = \(head.recordedAtMicroseconds), hash = \(ByteBuffer(bytes: head.hash.bytes))"
        )
        try link.run("SELECT pg_notify('reel_appended', \(String(head.position)))")
    }
}
