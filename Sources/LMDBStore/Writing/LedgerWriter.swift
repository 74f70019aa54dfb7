@_spi(Stores) import EventLog
import Crypto
import Foundation
import LMDB

/// One caller's append: its events for one stream (sealed, or being sealed) and the version it expects.
/// One thread at a time writes it (see `SealedBatch.withSealed`).
struct AppendRequest: Sendable {
    let batch: SealedBatch
    let expected: ExpectedVersion

    var stream: StreamID { batch.stream }
}

/// Appends requests inside a write transaction: checks, positions, envelopes, hashes, indexes.
///
/// Everything that can reject a request is checked before its first write, so a rejected request
/// leaves nothing behind and the others in the same transaction go on. The one failure that can
/// come midway is not the request's fault: a payload the cipher could not seal (a large batch is
/// sealed while it is written). Then part of the batch is written, and the transaction must not
/// commit: `LedgerWrite` marks itself broken, and group commit seals every request in full first.
struct LedgerWriter: Sendable {
    let databases: LedgerDatabases
    /// Whether `writeHead` grows the Merkle tree (`EventLog.Configuration.keepsTree`).
    var keepsTree = true

    /// Appends `request`; `written` (if any) sees each new envelope's bytes in its page as it is written.
    func append(
        _ request: AppendRequest, _ txn: Transaction, head: inout LogHead?,
        written: (UnsafeRawBufferPointer) throws -> Void = { _ in }
    ) throws -> AppendResult {
        var leaves: [TreeHash] = []
        return try append(request, txn, head: &head, leaves: &leaves, written: written)
    }

    /// The same, each new envelope's leaf hash in the Merkle tree added to `leaves` as it is
    /// written (hashed in its page): what `writeHead` grows the tree by without reading them back.
    func append(
        _ request: AppendRequest, _ txn: Transaction, head: inout LogHead?, leaves: inout [TreeHash],
        written: (UnsafeRawBufferPointer) throws -> Void = { _ in }
    ) throws -> AppendResult {
        let db = databases
        let current = try db.version(of: request.stream, txn)
        if try txn.contains(db.closedStreams, request.stream.rawValue) { throw EventLogError.streamShredded(request.stream) }

        // Idempotency: a request whose every id is stored, in this stream, is a retry.
        let events = request.batch.events
        var known: [UInt64] = []
        // New ids are time-ordered (UUIDv7): a batch's ids usually ascend (so none repeats) and
        // all sort after every stored one, which one look at the index's last key shows. Then
        // nothing is looked up per event, and the ids are appended to the index at its end.
        let ascending = Self.strictlyAscending(events)
        if !ascending {
            var seen = Set<UUID>()
            for event in events {
                guard seen.insert(event.id).inserted else {
                    throw EventLogError.duplicateEventID(id: event.id.uuidString.lowercased(), position: 0)
                }
            }
        }
        let afterStored = try Self.allAfterLastStored(events, ascending: ascending, db.eventIDs, txn)
        if !afterStored {
            for event in events {
                if let position = try txn.get(db.eventIDs, event.id.bytes) { known.append(position) }
            }
        }
        if !known.isEmpty {
            let sameStream = try known.allSatisfy { position in
                try txn.withValue(db.events, position) { bytes in
                    guard let bytes, let view = try? EnvelopeView(bytes) else { return false }
                    return view.streamIDBytes.sameBytes(asUTF8Of: request.stream.rawValue)
                }
            }
            guard known.count == events.count, sameStream else {
                let first = try events.first { try txn.contains(db.eventIDs, $0.id.bytes) }!
                let position = try txn.get(db.eventIDs, first.id.bytes) ?? 0
                throw EventLogError.duplicateEventID(id: first.id.uuidString.lowercased(), position: position)
            }
            return AppendResult(stored: known, streamVersion: current, deduplicated: true)
        }
        guard request.expected.admits(current) else {
            throw EventLogError.wrongExpectedVersion(stream: request.stream, expected: request.expected, actual: current)
        }

        let streamBytes = Array(request.stream.rawValue.utf8)
        var positions: [UInt64] = []
        positions.reserveCapacity(events.count)
        var version = current
        // One time for the whole request: its events are recorded together, in one transaction.
        let now = SealedEvents.nowMicroseconds()
        // Per-request buffers, rewritten in place for each event: the stream-index key (its last 8
        // bytes are the version), the event-id key, and the bytes of the last type.
        var indexKey = LedgerDatabases.streamIndexKey(request.stream, 0)
        var idKey = [UInt8](repeating: 0, count: 16)
        var type = (name: "", bytes: [UInt8]())
        for (index, event) in events.enumerated() {
            let position = (head?.position ?? 0) + 1
            version += 1
            let recordedAt = max(now, head?.recordedAtMicroseconds ?? .min)
            let previous = head?.hash ?? .zero
            if event.type != type.name { type = (event.type, Array(event.type.utf8)) }
            idKey.withUnsafeMutableBytes { key in withUnsafeBytes(of: event.id.uuid) { key.copyMemory(from: $0) } }
            let (hash, leaf) = try writeEnvelope(
                txn, position: position, previous: previous, index: index, batch: request.batch, id: idKey, type: type.bytes,
                streamVersion: version, recordedAt: recordedAt, stream: streamBytes, written: written)
            leaves.append(leaf)
            indexKey.withUnsafeMutableBytes { key in
                withUnsafeBytes(of: version.bigEndian) { UnsafeMutableRawBufferPointer(rebasing: key[(key.count - 8)...]).copyMemory(from: $0) }
            }
            try txn.put(db.streamIndex, indexKey, position)
            try txn.put(db.eventIDs, idKey, position, flags: afterStored && ascending ? .append : .noOverwrite)
            head = LogHead(position: position, recordedAtMicroseconds: recordedAt, hash: hash)
            positions.append(position)
        }
        // Appending nothing checks the expected version and writes nothing: a stream with no
        // events has no entry in the streams table (verify counts the two against each other).
        if !events.isEmpty { try txn.put(db.streams, request.stream.rawValue, version) }
        return AppendResult(stored: positions, streamVersion: version, deduplicated: false)
    }

    /// Whether each event's id sorts after the one before it (so no two are the same).
    private static func strictlyAscending(_ events: [ProposedEvent]) -> Bool {
        var previous: (UInt64, UInt64)?
        for event in events {
            let id = event.id.orderedHalves
            if let previous, previous >= id { return false }
            previous = id
        }
        return true
    }

    /// Whether every id of `events` (more than one) sorts after the last key of the event-id index.
    private static func allAfterLastStored(
        _ events: [ProposedEvent], ascending: Bool, _ ids: Database<[UInt8], UInt64>, _ txn: Transaction
    ) throws -> Bool {
        guard events.count > 1 else { return false }
        let smallest = ascending ? events[0].id.orderedHalves : events.lazy.map(\.id.orderedHalves).min { $0 < $1 }!
        return try txn.withCursor(ids) { cursor in
            guard let last = try cursor.last() else { return true }
            guard last.key.count == 16 else { return false }
            return UUID(bytes: last.key).orderedHalves < smallest
        }
    }

    /// Writes the log's head, and brings the Merkle tree up to it in the same transaction: every
    /// way envelopes are laid (appends, group commit, copies, adoptions) ends here.
    func writeHead(_ head: LogHead?, _ txn: Transaction, leaves: [TreeHash] = []) throws {
        guard let head else { return }
        try txn.put(databases.meta, "head", head.bytes)
        if keepsTree { try growTree(to: head.position, txn, leaves: leaves) }
    }

    /// Adds to the tree the envelopes after its last leaf, up to `size`, each hashed as stored
    /// (`TreeHash.leaf`), their hashes appended to the stored ones (`TreeLayout`). A ledger written
    /// before the tree gets its whole tree in its first write transaction.
    func growTree(to size: UInt64, _ txn: Transaction, leaves: [TreeHash] = []) throws {
        var frontier = try databases.treeFrontier(txn)
        if frontier.size > size {
            throw EventLogError.corruptEnvelope(position: size, reason: "meta/tree covers \(frontier.size) events, the log ends at \(size)")
        }
        guard frontier.size < size, let tree = databases.tree else { return }
        var index = frontier.nextStoredIndex
        // The leaves hashed as the transaction wrote them, when they are exactly the envelopes
        // after the tree's last leaf; else (a copy, a tree to catch up) each envelope is read.
        let given = leaves.count == Int(size - frontier.size) ? leaves : nil
        while frontier.size < size {
            let position = frontier.size + 1
            let leaf =
                try given?[Int(position - (size - UInt64(leaves.count)) - 1)]
                ?? txn.withValue(databases.events, position) { bytes in
                    guard let bytes else { throw EventLogError.corruptEnvelope(position: position, reason: "no envelope there for the tree") }
                    return TreeHash.leaf(bytes)
                }
            try frontier.append(leaf: leaf) { hash in
                try hash.withBytes { try txn.putBytes(tree, index, $0, flags: .append) }
                index += 1
            }
        }
        try txn.put(databases.meta, "tree", frontier.record)
    }

    /// Lays the envelope out directly in the page LMDB reserves for it, then hashes it in place.
    private func writeEnvelope(
        _ txn: Transaction, position: UInt64, previous: ChainHash, index: Int, batch: SealedBatch, id: [UInt8], type: [UInt8],
        streamVersion: UInt64, recordedAt: Int64, stream: [UInt8], written: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> (ChainHash, TreeHash) {
        let size = EnvelopeLayout.size(stream: stream, type: type, sealed: batch.sealedCount(index))
        var digest = ChainHash.zero
        var leaf = TreeHash.empty
        try batch.withSealed(index) { nonce, sealed in
            try txn.putReserving(databases.events, position, count: size, flags: .append) { out in
                digest = EnvelopeLayout.write(
                    into: out, position: position, previous: previous, id: id, streamVersion: streamVersion, recordedAt: recordedAt,
                    schemaVersion: batch.events[index].schemaVersion, stream: stream, type: type, nonce: nonce, sealed: sealed)
                leaf = TreeHash.leaf(UnsafeRawBufferPointer(out))
                try written(UnsafeRawBufferPointer(out))
            }
        }
        return (digest, leaf)
    }
}
