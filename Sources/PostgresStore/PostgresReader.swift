import Crypto
import Failures
@_spi(Stores) import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// The reads a snapshot and a write transaction share, on their one connection: the head, events by
/// position and by stream (opened under the keys as this transaction sees them), and the keys.
struct PostgresReader {
    let link: PostgresLink
    /// The store whose keyring opens the keys this transaction reads.
    let store: PostgresEventStore

    /// The head as `reel_head` holds it; `nil` for an empty log.
    func head(forUpdate: Bool = false) throws -> LogHead? {
        let rows = try link.run(
            forUpdate
                ? "SELECT position, recorded_at, hash FROM reel_head FOR UPDATE" : "SELECT position, recorded_at, hash FROM reel_head")
        guard let row = rows.first else {
            throw Failure.tampered("reel_head has no row (the schema is incomplete; was it altered?)", link.location)
        }
        let (position, time, hash) = try row.decode((Int64, Int64, ByteBuffer).self)
        guard position > 0 else { return nil }
        guard hash.readableBytes == 32 else { throw Failure.tampered("reel_head holds a hash of \(hash.readableBytes) bytes", link.location) }
        return LogHead(storedPosition: UInt64(position), recordedAtMicroseconds: time, hash: ChainHash(bytes: Array(buffer: hash)))
    }

    /// Up to `maxCount` events from `position` on, opened; a gap in what is stored is `brokenChain`.
    func read(from position: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        guard maxCount > 0 else { return [] }
        let rows = try link.run(
            "SELECT position, stream, envelope FROM reel_events WHERE position >= \(Int64(clamping: position)) ORDER BY position LIMIT \(Int64(maxCount))"
        )
        let (batch, streams) = try Self.batch(rows)
        for (index, stored) in batch.positions.enumerated() where stored != position + UInt64(index) {
            throw ReplayCheck.broken(position + UInt64(index), .gap, "the next stored position is \(stored)")
        }
        return try batch.opened(keys: try keys(for: streams))
    }

    /// Up to `maxCount` events of `stream` from `version` on, opened; versions that do not run on
    /// without a gap, or an envelope of another stream or version than its row, are `brokenChain`.
    func read(stream: StreamID, from version: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        guard maxCount > 0 else { return [] }
        let rows = try link.run(
            "SELECT position, stream, envelope FROM reel_events WHERE stream = \(stream.rawValue) AND stream_version >= \(Int64(clamping: max(version, 1))) ORDER BY stream_version LIMIT \(Int64(maxCount))"
        )
        let (batch, _) = try Self.batch(rows)
        let events = try batch.opened(keys: try keys(for: [stream]))
        for (index, event) in events.enumerated() where event.streamID != stream || event.streamVersion != max(version, 1) + UInt64(index) {
            throw ReplayCheck.broken(
                event.position, .indexMismatch, "the row of stream \(stream) version \(max(version, 1) + UInt64(index)) holds another event")
        }
        return events
    }

    /// The rows' envelopes in one batch, with the streams they name.
    static func batch(_ rows: [PostgresRow]) throws -> (EnvelopeBatch, Set<StreamID>) {
        var batch = EnvelopeBatch()
        var streams = Set<StreamID>()
        var last = ""
        for row in rows {
            let (position, stream, envelope) = try row.decode((Int64, String, ByteBuffer).self)
            batch.append(position: UInt64(position), bytes: envelope.readableBytesView)
            if stream != last {
                if let id = try? StreamID(stream) { streams.insert(id) }
                last = stream
            }
        }
        return (batch, streams)
    }

    /// The keys of `streams` as this transaction sees them: live, destroyed (the stream closed and
    /// its key row gone), or missing (`missingKey` when asked for). A key row wrapped under a
    /// generation the keyring has rotated away since this transaction began is read again, as it
    /// is now, on a connection of the store's own.
    func keys(for streams: Set<StreamID>) throws -> TransactionKeys {
        guard !streams.isEmpty else { return TransactionKeys(keys: [:]) }
        let names = streams.map(\.rawValue)
        let rows = try link.run(
            """
            SELECT s.stream, k.key, k.generation, s.closed_at IS NOT NULL FROM reel_streams s LEFT JOIN reel_stream_keys k ON k.stream = s.stream
            WHERE s.stream = ANY(\(names))
            """)
        var keys: [StreamID: SymmetricKey?] = [:]
        for row in rows {
            let (name, key, generation, closed) = try row.decode((String, ByteBuffer?, Int64?, Bool).self)
            guard let stream = try? StreamID(name) else { continue }
            if let key {
                do {
                    keys[stream] = .some(try store.keyring.unwrap(key, generation: generation, stream: name))
                } catch PostgresKeyring.UnwrapProblem.rotated {
                    let fresh = try store.keyPool.with { try store.liveKey(of: stream, $0) }
                    if let fresh { keys[stream] = .some(fresh) } else if closed { keys[stream] = .some(nil) }
                }
            } else if closed {
                keys[stream] = .some(nil)
            }
        }
        return TransactionKeys(keys: keys)
    }
}

/// Keys as one transaction read them, for opening payloads on any lane.
struct TransactionKeys: StreamKeys, Sendable {
    /// A stream's live key, `nil` once destroyed; streams absent have no key at all.
    let keys: [StreamID: SymmetricKey?]

    func key(for stream: StreamID) throws -> SymmetricKey? {
        guard let found = keys[stream] else { throw EventLogError.missingKey(stream) }
        return found
    }
}

extension Failure {
    /// The store's tables hold what Reel never writes.
    static func tampered(_ what: String, _ location: PostgresLocation) -> Failure {
        Failure(.tampered, "the store \(location): \(what)")
    }
}
