@_spi(Stores) public import EventLog
public import Foundation
public import LMDB

/// Reading: the head, streams, event ids, events by position and by stream.
extension EventLog {
    /// The last event's position, time and hash; `nil` for an empty log.
    public func head() throws -> LogHead? {
        try wrapped { try environment.read { try databases.head($0) } }
    }

    /// The head as `txn` sees it (to read it in one snapshot with other things).
    public func head(in txn: Transaction) throws -> LogHead? {
        try wrapped { try databases.head(txn) }
    }

    /// The stream's version: how many events it holds.
    public func version(of stream: StreamID) throws -> UInt64 {
        try wrapped { try environment.read { try databases.version(of: stream, $0) } }
    }

    /// Every stream with its version, in stream id order.
    public func streams() throws -> [StreamSummary] {
        try wrapped {
            try environment.read { txn in
                try txn.withCursor(databases.streams) { cursor in
                    var out: [StreamSummary] = []
                    var entry = try cursor.first()
                    while let e = entry {
                        out.append(StreamSummary(stream: StreamID(unchecked: try e.decodeKey(as: String.self)), version: try e.decodeValue(as: UInt64.self)))
                        entry = try cursor.next()
                    }
                    return out
                }
            }
        }
    }

    /// The global position of an event id, if stored.
    public func position(of eventID: UUID) throws -> UInt64? {
        try wrapped { try environment.read { try $0.get(databases.eventIDs, eventID.bytes) } }
    }

    /// Up to `maxCount` events of `stream` from stream version `version` on, in one read transaction.
    public func read(stream: StreamID, from version: UInt64 = 1, maxCount: Int = Int.max) throws -> [RecordedEvent] {
        try wrapped { try environment.read { txn in try read(stream: stream, from: version, maxCount: maxCount, in: txn) } }
    }

    /// The same, as `txn` sees the log (to read it in one snapshot with other things).
    ///
    /// The stream index is checked as it is read, so that an edited index cannot make a stream
    /// look shorter, longer or reordered: its keys must run through versions `version`, +1, +2…
    /// with no gap, up to the stream's last version in `streams` (when read to the end), and the
    /// envelope each names must be that version of that stream at that position. Otherwise
    /// `EventLogError.brokenChain` (rule 9).
    public func read(stream: StreamID, from version: UInt64 = 1, maxCount: Int = Int.max, in txn: Transaction) throws -> [RecordedEvent] {
        try wrapped {
            let prefix = Array(stream.rawValue.utf8) + [0]
            let first = max(version, 1)
            var positions: [UInt64] = []
            try txn.withCursor(databases.streamIndex) { cursor in
                var entry = try cursor.seek(atLeast: LedgerDatabases.streamIndexKey(stream, first))
                while let e = entry, positions.count < maxCount, e.key.starts(with: prefix) {
                    let wanted = first + UInt64(positions.count)
                    let found = e.key.count == prefix.count + 8 ? UInt64(bigEndian: e.key.loadUnaligned(fromByteOffset: prefix.count, as: UInt64.self)) : nil
                    guard found == wanted else {
                        throw Self.indexProblem(0, "stream-index has no entry for version \(wanted) of stream \(stream)" + (found.map { " (the next is \($0))" } ?? ""))
                    }
                    guard e.value.count == 8 else { throw Self.indexProblem(0, "the stream-index entry for version \(wanted) of stream \(stream) is not a position") }
                    positions.append(UInt64(bigEndian: e.value.loadUnaligned(as: UInt64.self)))
                    entry = try cursor.next()
                }
            }
            if positions.count < maxCount {
                let last = try databases.version(of: stream, txn)
                let end = first - 1 + UInt64(positions.count)
                guard end == max(last, first - 1) else {
                    throw Self.indexProblem(0, "stream-index holds stream \(stream) up to version \(end) but streams says \(last)")
                }
            }
            let stored = try positions.map { position in
                try txn.withValue(databases.events, position) { bytes in
                    guard let bytes else {
                        throw Self.indexProblem(position, "the stream index points to a missing event")
                    }
                    return StoredEnvelope(position: position, bytes: bytes)
                }
            }
            let events = try PayloadOpener.openAll(stored, keyStore: keyStore)
            for (i, event) in events.enumerated() where event.streamID != stream || event.streamVersion != first + UInt64(i) {
                throw Self.indexProblem(
                    event.position,
                    "stream-index names this position for version \(first + UInt64(i)) of stream \(stream), but the event is version \(event.streamVersion) of stream \(event.streamID)")
            }
            return events
        }
    }

    static func indexProblem(_ position: UInt64, _ detail: String) -> EventLogError {
        .brokenChain(VerificationProblem(position: position, rule: .indexMismatch, detail: detail))
    }

    /// Up to `maxCount` events of the whole log from global position `position` on.
    public func read(from position: UInt64 = 1, maxCount: Int = 1_000) throws -> [RecordedEvent] {
        try wrapped { try environment.read { try recordedEvents(from: position, maxCount: maxCount, $0) } }
    }

    /// The same, as `txn` sees the log (to read it in one snapshot with other things).
    public func read(from position: UInt64, maxCount: Int, in txn: Transaction) throws -> [RecordedEvent] {
        try wrapped { try recordedEvents(from: position, maxCount: maxCount, txn) }
    }

    func recordedEvents(from position: UInt64, maxCount: Int, _ txn: Transaction) throws -> [RecordedEvent] {
        try PayloadOpener.openAll(try storedEnvelopes(from: position, maxCount: maxCount, txn), keyStore: keyStore)
    }

    /// The leaf hashes (`TreeHash.leaf`) of up to `maxCount` envelopes from `position` on, hashed
    /// in place in the map on every core.
    func leafHashes(from position: UInt64, maxCount: Int, _ txn: Transaction) throws -> [TreeHash] {
        try Parallel.map(try storedEnvelopes(from: position, maxCount: maxCount, txn), threshold: 1_024, state: ()) { _, stored in
            TreeHash.leaf(stored.bytes)
        }
    }

    /// Up to `maxCount` envelopes from `position` on, as bytes in the map (valid in `txn`).
    func storedEnvelopes(from position: UInt64, maxCount: Int, _ txn: Transaction) throws -> [StoredEnvelope] {
        var stored: [StoredEnvelope] = []
        stored.reserveCapacity(min(maxCount, 16_384))
        try txn.withCursor(databases.events) { cursor in
            var expected = max(position, 1)
            var entry = try cursor.seek(atLeast: expected)
            while let e = entry, stored.count < maxCount {
                // Positions run on without a gap: a reader that goes on from the last position it
                // read (catch-up, a subscription) would otherwise read the same events forever.
                let key = try Self.position(e, expected: expected)
                stored.append(StoredEnvelope(position: key, bytes: e.value))
                expected += 1
                entry = try cursor.next()
            }
        }
        return stored
    }

    /// The key of an `events` entry, which must be `expected` (rule 1).
    static func position(_ entry: Cursor.Entry, expected: UInt64) throws -> UInt64 {
        guard entry.key.count == 8 else {
            throw EventLogError.brokenChain(VerificationProblem(position: expected, rule: .undecodable, detail: "a key of \(entry.key.count) bytes is not a position"))
        }
        let key = UInt64(bigEndian: entry.key.loadUnaligned(as: UInt64.self))
        guard key == expected else {
            throw EventLogError.brokenChain(VerificationProblem(position: expected, rule: .gap, detail: "the next stored position is \(key)"))
        }
        return key
    }

    /// Up to `maxCount` envelopes as stored (payloads sealed) from global position `position` on.
    public func envelopes(from position: UInt64 = 1, maxCount: Int = 1_000) throws -> [Envelope] {
        try wrapped {
            try environment.read { txn in
                var out: [Envelope] = []
                try txn.withCursor(databases.events) { cursor in
                    var expected = max(position, 1)
                    var entry = try cursor.seek(atLeast: expected)
                    while let e = entry, out.count < maxCount {
                        let key = try Self.position(e, expected: expected)
                        let envelope: Envelope
                        do { envelope = try Envelope(bytes: e.value) } catch let error as EnvelopeDecodingError {
                            throw EventLogError.corruptEnvelope(position: key, reason: error.reason)
                        }
                        guard envelope.position == key else { throw PayloadOpener.positionMismatch(key, envelope.position) }
                        out.append(envelope)
                        expected += 1
                        entry = try cursor.next()
                    }
                }
                return out
            }
        }
    }

    /// Every event from `position` to the end of the log as it is when each batch is read, read in
    /// batches of `batchSize`: no read transaction is held while the consumer awaits.
    public func events(from position: UInt64 = 1, batchSize: Int = 1_024) -> EventBatches {
        EventBatches(log: self, start: position, batchSize: batchSize)
    }

    /// A catch-up subscription: history from `position`, then `.caughtUp`, then new events as they
    /// are committed, by this process or any other.
    public func subscribe(from position: UInt64 = 1, batchSize: Int = 1_024) -> Subscription {
        Subscription(from: position, batchSize: batchSize, signal: signal, pollInterval: pollInterval) { [self] from, maxCount in
            try read(from: from, maxCount: maxCount)
        }
    }
}
