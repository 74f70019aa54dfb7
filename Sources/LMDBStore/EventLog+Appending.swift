@_spi(Stores) public import EventLog
import Crypto
import LMDB

/// Appending: one transaction of its own, or group commit.
extension EventLog {
    /// The batch for an append; a small one is sealed here, a large one by whoever writes it
    /// (`SealedBatch.whileSealing`) or by `SealedBatch.sealAll`.
    func batch(_ events: [ProposedEvent], for stream: StreamID) throws -> SealedBatch {
        try SealedBatch(events, stream: stream, key: try sealingKey(for: stream))
    }

    /// The stream's sealing key, made on first use; refused for a stream that has events but no
    /// key (`missingKey`): a key made now would leave its history unreadable.
    func sealingKey(for stream: StreamID, in txn: Transaction? = nil) throws -> SymmetricKey {
        try keyStore.sealingKey(for: stream) {
            if let txn { return try databases.version(of: stream, txn) > 0 }
            return try environment.read { try databases.version(of: stream, $0) } > 0
        }
    }

    /// Appends `events` to `stream` atomically, in one transaction of its own on this thread. A
    /// large batch is sealed by the other cores while this thread writes it.
    @discardableResult
    public func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion = .any) throws -> AppendResult {
        do {
            let request = AppendRequest(batch: try batch(events, for: stream), expected: expected)
            let result = try request.batch.whileSealing {
                try environment.write { txn in
                    var head = try databases.head(txn)
                    var leaves: [TreeHash] = []
                    let result = try writer.append(request, txn, head: &head, leaves: &leaves)
                    try writer.writeHead(head, txn, leaves: leaves)
                    return result
                }
            }
            if !result.deduplicated { signal.notify() }
            return result
        } catch {
            throw EventLogError.wrap(error)
        }
    }

    /// Appends `events` to `stream` atomically, committed together with other concurrent appends
    /// (group commit: one transaction and one fsync for all callers waiting at that moment).
    /// Sealing happens before the request joins the queue, outside any transaction.
    @discardableResult
    public func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion = .any) async throws -> AppendResult {
        let request: AppendRequest
        do {
            request = AppendRequest(batch: try batch(events, for: stream), expected: expected)
            try request.batch.sealAll()
        } catch {
            throw EventLogError.wrap(error)
        }
        return try await committer.submit(request)
    }

    /// What seals and opens payloads in bulk (batches of 64 or more) in this process: "libcrypto"
    /// (OpenSSL 3, loaded on first use) or "swift-crypto" (when libcrypto cannot be loaded, or
    /// `REEL_LIBCRYPTO=off`). Small batches always use swift-crypto. See `GCMContext`.
    public static var bulkCipher: String { BulkCipher.name }

    /// Grows the map ahead of appending `events` to `stream` in one transaction, so a large write
    /// (an import) does not fill the map, roll back and run twice. An estimate from the envelope
    /// layout: each envelope, its two index entries at half-full pages, and a tenth more.
    public func reserveRoom(forAppending events: [ProposedEvent], to stream: StreamID) throws {
        let s = stream.rawValue.utf8.count
        var bytes = 0
        for event in events {
            let envelope = EnvelopeView.fixedSize + s + event.type.utf8.count + event.payload.count + EnvelopeView.tagSize
            // Past about half a page an envelope goes to overflow pages of its own, whole pages.
            let stored = envelope + 16 > 2_000 ? (envelope + 16 + 4_095) / 4_096 * 4_096 : envelope + 16
            bytes += stored + 2 * ((16 + 8 + 8) + (s + 9 + 8 + 8))
        }
        try wrapped { try environment.reserve(bytes + bytes / 10) }
    }
}
