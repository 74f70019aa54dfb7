import Crypto
import Foundation
import LMDB

/// One caller's append: sealed events for one stream and the version it expects.
struct AppendRequest: Sendable {
    let stream: StreamID
    let events: [SealedEvent]
    let expected: ExpectedVersion
}

/// Appends requests inside a write transaction: checks, positions, envelopes, hashes, indexes.
///
/// Everything that can reject a request is checked before its first write, so a rejected request
/// leaves nothing behind and the others in the same transaction go on.
struct LedgerWriter: Sendable {
    let databases: LedgerDatabases

    /// Appends `request`; `written` (if any) sees each new envelope's bytes in its page as it is written.
    func append(
        _ request: AppendRequest, _ txn: Transaction, head: inout LogHead?,
        written: (UnsafeRawBufferPointer) throws -> Void = { _ in }
    ) throws -> AppendResult {
        let db = databases
        let current = try db.version(of: request.stream, txn)
        if try txn.contains(db.closedStreams, request.stream.rawValue) { throw EventLogError.streamShredded(request.stream) }

        // Idempotency: a request whose every id is stored, in this stream, is a retry.
        var known: [UInt64] = []
        // New ids are time-ordered (UUIDv7): a batch's ids usually ascend (so none repeats) and
        // all sort after every stored one, which one look at the index's last key shows. Then
        // nothing is looked up per event, and the ids are appended to the index at its end.
        let ascending = Self.strictlyAscending(request.events)
        if !ascending {
            var seen = Set<UUID>()
            for event in request.events {
                guard seen.insert(event.id).inserted else {
                    throw EventLogError.duplicateEventID(id: event.id.uuidString.lowercased(), position: 0)
                }
            }
        }
        let afterStored = try Self.allAfterLastStored(request.events, ascending: ascending, db.eventIDs, txn)
        if !afterStored {
            for event in request.events {
                if let position = try txn.get(db.eventIDs, event.idBytes) { known.append(position) }
            }
        }
        if !known.isEmpty {
            let sameStream = try known.allSatisfy { position in
                try txn.withValue(db.events, position) { bytes in
                    guard let bytes, let view = try? EnvelopeView(bytes) else { return false }
                    return view.streamIDBytes.elementsEqual(request.stream.rawValue.utf8)
                }
            }
            guard known.count == request.events.count, sameStream else {
                let first = try request.events.first { try txn.contains(db.eventIDs, $0.idBytes) }!
                let position = try txn.get(db.eventIDs, first.idBytes) ?? 0
                throw EventLogError.duplicateEventID(id: first.id.uuidString.lowercased(), position: position)
            }
            return AppendResult(positions: known, streamVersion: current, deduplicated: true)
        }
        guard request.expected.admits(current) else {
            throw EventLogError.wrongExpectedVersion(stream: request.stream, expected: request.expected, actual: current)
        }

        let streamBytes = Array(request.stream.rawValue.utf8)
        var positions: [UInt64] = []
        positions.reserveCapacity(request.events.count)
        var version = current
        // Per-request buffers, rewritten in place for each event: the stream-index key (its last 8
        // bytes are the version) and the bytes of the last type.
        var indexKey = LedgerDatabases.streamIndexKey(request.stream, 0)
        var type = (name: "", bytes: [UInt8]())
        for event in request.events {
            let position = (head?.position ?? 0) + 1
            version += 1
            let recordedAt = max(Self.nowMicroseconds(), head?.recordedAtMicroseconds ?? .min)
            let previous = head?.hash ?? .zero
            if event.type != type.name { type = (event.type, Array(event.type.utf8)) }
            let hash = try writeEnvelope(
                txn, position: position, previous: previous, event: event, type: type.bytes, streamVersion: version,
                recordedAt: recordedAt, stream: streamBytes, written: written)
            indexKey.withUnsafeMutableBytes { key in
                withUnsafeBytes(of: version.bigEndian) { UnsafeMutableRawBufferPointer(rebasing: key[(key.count - 8)...]).copyMemory(from: $0) }
            }
            try txn.put(db.streamIndex, indexKey, position)
            try txn.put(db.eventIDs, event.idBytes, position, flags: afterStored && ascending ? .append : .noOverwrite)
            head = LogHead(position: position, recordedAtMicroseconds: recordedAt, hash: hash)
            positions.append(position)
        }
        try txn.put(db.streams, request.stream.rawValue, version)
        return AppendResult(positions: positions, streamVersion: version, deduplicated: false)
    }

    /// Whether each event's id sorts after the one before it (so no two are the same).
    private static func strictlyAscending(_ events: [SealedEvent]) -> Bool {
        var previous: [UInt8]?
        for event in events {
            if let previous, !previous.lexicographicallyPrecedes(event.idBytes) { return false }
            previous = event.idBytes
        }
        return true
    }

    /// Whether every id of `events` (more than one) sorts after the last key of the event-id index.
    private static func allAfterLastStored(
        _ events: [SealedEvent], ascending: Bool, _ ids: Database<[UInt8], UInt64>, _ txn: Transaction
    ) throws -> Bool {
        guard events.count > 1 else { return false }
        let smallest = ascending ? events[0].idBytes : events.lazy.map(\.idBytes).min { $0.lexicographicallyPrecedes($1) }!
        return try txn.withCursor(ids) { cursor in
            guard let last = try cursor.last() else { return true }
            return last.key.lexicographicallyPrecedes(smallest)
        }
    }

    func writeHead(_ head: LogHead?, _ txn: Transaction) throws {
        guard let head else { return }
        try txn.put(databases.meta, "head", head.bytes)
    }

    /// Lays the envelope out directly in the page LMDB reserves for it, then hashes it in place.
    private func writeEnvelope(
        _ txn: Transaction, position: UInt64, previous: ChainHash, event: SealedEvent, type: [UInt8], streamVersion: UInt64,
        recordedAt: Int64, stream: [UInt8], written: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> ChainHash {
        let size = EnvelopeView.fixedSize + stream.count + type.count + event.sealed.count
        var digest = ChainHash.zero
        try txn.putReserving(databases.events, position, count: size, flags: .append) { out in
            var layout = EnvelopeLayout(out)
            layout.integer(EnvelopeView.format)
            layout.integer(position)
            layout.bytes(previous.bytes)
            layout.bytes(event.idBytes)
            layout.integer(streamVersion)
            layout.integer(recordedAt)
            layout.integer(event.schemaVersion)
            layout.integer(UInt8(stream.count))
            layout.bytes(stream)
            layout.integer(UInt8(type.count))
            layout.bytes(type)
            layout.integer(EnvelopeView.aesGCM)
            layout.bytes(event.nonce)
            layout.integer(UInt32(event.sealed.count))
            layout.bytes(event.sealed)
            digest = ChainHash.sha256(UnsafeRawBufferPointer(rebasing: out[0..<layout.offset]))
            layout.bytes(digest.bytes)
            precondition(layout.offset == size, "envelope layout and size disagree")
            try written(UnsafeRawBufferPointer(out))
        }
        return digest
    }

    /// Fills an envelope's reserved bytes front to back. A struct, not local functions that
    /// capture the offset: those made every field a dynamically checked access.
    private struct EnvelopeLayout {
        let out: UnsafeMutableRawBufferPointer
        private(set) var offset = 0

        init(_ out: UnsafeMutableRawBufferPointer) { self.out = out }

        mutating func bytes(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[offset..<(offset + $0.count)]).copyMemory(from: $0) }
            offset += bytes.count
        }

        mutating func integer<I: FixedWidthInteger>(_ value: I) {
            out.storeBytes(of: value.bigEndian, toByteOffset: offset, as: I.self)
            offset += MemoryLayout<I>.size
        }
    }

    static func nowMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }
}
