import Crypto
@_spi(Stores) public import EventLog
import Failures
import Foundation
import NIOCore
import PostgresNIO

/// The PostgreSQL store's side of copying a ledger between stores (`LedgerCopying`): a batch's
/// keys, events, stream rows, closings and head in one transaction.
@_spi(Stores) extension PostgresEventStore: LedgerCopying {
    public func copiedKey(of stream: StreamID) throws -> CopiedKey? {
        try pool.with { link in
            if let key = try liveKey(of: stream, link) { return .live(key.withUnsafeBytes { Array($0) }) }
            guard let row = try link.run("SELECT closed_at FROM reel_streams WHERE stream = \(stream.rawValue)").first,
                let closed = try row.decode(Int64?.self)
            else { return nil }
            return .destroyed(atMicroseconds: closed)
        }
    }

    public func closedStreams() throws -> [StreamID: Int64] {
        try pool.with { link in
            var closed: [StreamID: Int64] = [:]
            for row in try link.run("SELECT stream, closed_at FROM reel_streams WHERE closed_at IS NOT NULL") {
                let (stream, time) = try row.decode((String, Int64).self)
                closed[try StreamID(stream)] = time
            }
            return closed
        }
    }

    public func importKeys(_ keys: [StreamID: CopiedKey]) throws {
        try pool.with { link in try insertKeys(keys, link) }
    }

    /// Live keys only, wrapped under the keyring: a destroyed key is the absence of its row (with
    /// the stream closed).
    func insertKeys(_ keys: [StreamID: CopiedKey], _ link: PostgresLink) throws {
        let live = keys.compactMap { stream, key -> (stream: String, key: [UInt8])? in
            guard case .live(let bytes) = key else { return nil }
            return (stream.rawValue, bytes)
        }
        try keyring.insert(live, at: SealedEvents.nowMicroseconds(), link)
    }

    public func importEnvelopes(_ envelopes: [Envelope], keys: [StreamID: CopiedKey], closed: [StreamID: Int64], closingType: String) throws {
        guard !envelopes.isEmpty else { return try importKeys(keys) }
        try pool.with { link in
            try link.transaction {
                let head = try PostgresReader(link: link, store: self).head(forUpdate: true)
                let streams = Array(Set(envelopes.map(\.streamID.rawValue)))
                var versions: [StreamID: UInt64] = [:]
                for row in try link.run("SELECT stream, version FROM reel_streams WHERE stream = ANY(\(streams))") {
                    let (stream, version) = try row.decode((String, Int64).self)
                    versions[try StreamID(stream)] = UInt64(version)
                }
                let last = try checkImport(envelopes, after: head, versions: versions)
                try insertKeys(keys, link)
                try link.run(
                    """
                    INSERT INTO reel_events (position, stream, stream_version, event_id, type, recorded_at, envelope)
                    SELECT * FROM unnest(\(envelopes.map { Int64($0.position) })::bigint[], \(envelopes.map { $0.streamID.rawValue })::text[],
                        \(envelopes.map { Int64($0.streamVersion) })::bigint[], \(envelopes.map(\.eventID))::uuid[], \(envelopes.map(\.type))::text[],
                        \(envelopes.map(\.recordedAtMicroseconds))::bigint[], \(envelopes.map { ByteBuffer(bytes: $0.bytes) })::bytea[])
                    """)
                let names = Array(last.keys.map(\.rawValue)), lastVersions = names.map { Int64(last[try! StreamID($0)]!) }
                try link.run(
                    """
                    INSERT INTO reel_streams (stream, version) SELECT * FROM unnest(\(names)::text[], \(lastVersions)::bigint[])
                    ON CONFLICT (stream) DO UPDATE SET version = excluded.version
                    """)
                for envelope in envelopes where StreamClosing.mayClose(envelope.type, closingType: closingType) && envelope.streamVersion == last[envelope.streamID] {
                    guard let time = closed[envelope.streamID] else { continue }
                    try link.run("UPDATE reel_streams SET closed_at = \(time) WHERE stream = \(envelope.streamID.rawValue)")
                }
                let end = LogHead(after: envelopes.last!)
                guard let edge = try link.run("SELECT tree FROM reel_head").first else {
                    throw Failure.tampered("reel_head has no row (the schema is incomplete; was it altered?)", link.location)
                }
                let frontier = try PostgresTree.frontier(try edge.decode(ByteBuffer.self), link)
                let tree = try PostgresTree.grown(from: frontier, to: end.position, written: envelopes, link).insertingAllButLast(50_000, link)
                try link.run(
                    """
                    WITH tree AS (INSERT INTO reel_tree (stored_index, hash) SELECT * FROM unnest(\(tree.indexes)::bigint[], \(tree.hashes)::bytea[]))
                    UPDATE reel_head SET position = \(Int64(end.position)), recorded_at = \(end.recordedAtMicroseconds), hash = \(ByteBuffer(bytes: end.hash.bytes)),
                        tree = \(ByteBuffer(bytes: tree.frontier.record)), generation = \(Int64.random(in: 0...Int64.max))
                    RETURNING pg_notify('reel_appended', \(String(end.position)))
                    """)
            }
        }
        signal.notify()
    }
}
