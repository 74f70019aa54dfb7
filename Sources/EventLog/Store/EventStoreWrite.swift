public import Foundation

/// One write transaction of an `EventStore` (`EventStore.write`): appends, closes and the caller's
/// projection tables, committed together or not at all. Valid only inside the closure it is lent
/// to; reads through it see its own writes.
public protocol EventStoreWrite: EventStoreSnapshot {
    /// The last event's position in this transaction (0 for an empty log).
    var headPosition: UInt64 { get }

    /// The stream's version in this transaction.
    func version(of stream: StreamID) throws -> UInt64

    /// Where this transaction began, where a store can tell: equal to an earlier transaction's
    /// `leaves` only if this one began where that one left the store (it committed, and nobody
    /// wrote since). `nil` where not told (LMDB: there a transaction begins after the last one
    /// committed, and a caller knows what that left).
    var origin: UInt64? { get }

    /// Where this transaction leaves the store should it commit having written (see `origin`).
    var leaves: UInt64? { get }

    /// The global position of an event id in this transaction (its own appends included), if
    /// stored: how a caller that derives ids from a request's idempotency key finds a retry before
    /// deciding anything.
    func position(of eventID: UUID) throws -> UInt64?

    /// Appends `events` to `stream` atomically and returns them as recorded (payloads in the
    /// clear); a retry appends nothing and returns the events as first stored. Throws as
    /// `EventStore.append` does; an append that fails midway fails the whole transaction.
    @discardableResult
    func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) throws -> [RecordedEvent]

    /// Appends like `append`, returning only where each event went (for a large batch whose
    /// caller holds the events already).
    func appendEvents(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) throws -> [AppendedEvent]

    /// Closes `stream` for good: it accepts no more events, and its key is destroyed by the next
    /// write unless `destroyKeysOnCommit` destroys it with this one.
    func close(_ stream: StreamID, atMicroseconds time: Int64) throws

    /// Prepares, now, the destruction of the keys of `streams` (closed in this transaction), done
    /// once this transaction commits. Throws `unauthorizedShredding` for a stream not closed here;
    /// a failure to prepare (no space) fails the transaction with nothing changed.
    func destroyKeysOnCommit(_ streams: [StreamID], atMicroseconds time: Int64) throws

    /// Reads the versions of `streams` ahead, where each read is a round trip (PostgreSQL: one
    /// statement for all of them), so `version(of:)` of them later in the transaction costs
    /// nothing. Changes nothing a read returns; nothing elsewhere.
    func prefetchVersions(of streams: [StreamID]) throws

    /// Appends several requests in order, each as `append(_:to:expected:)` would, each seeing the
    /// ones before it: each request's events as recorded, or the refusal of that request alone
    /// (an `EventLogError`: a wrong expected version, a duplicate id, a closed stream), which left
    /// nothing behind. A store where an append is a round trip does them in a fixed number of
    /// statements (PostgreSQL: one read, the rows going with the transaction's last statement); any
    /// other failure is thrown and breaks the transaction.
    ///
    /// `checkingIDs: false`: the caller needs no request refused alone for an id stored already,
    /// because no stored event can have its ids (new ones, as a command without an idempotency
    /// key makes) or because it tries each request again alone, in a transaction of its own,
    /// should this one fail (a group commit), where it is checked. A store where reading which
    /// ids are stored is a round trip may then leave an id stored already to its unique index,
    /// which fails the whole transaction rather than refusing the one request (PostgreSQL, when it
    /// holds every stream's version already).
    func append(batch: [AppendRequest], checkingIDs: Bool) throws -> [Result<[RecordedEvent], any Error>]
}

extension EventStoreWrite {
    public var origin: UInt64? { nil }
    public var leaves: UInt64? { nil }

    public func prefetchVersions(of streams: [StreamID]) throws {}

    /// `append(batch:checkingIDs:)`, each request's ids checked.
    public func append(batch: [AppendRequest]) throws -> [Result<[RecordedEvent], any Error>] {
        try append(batch: batch, checkingIDs: true)
    }

    public func append(batch: [AppendRequest], checkingIDs: Bool) throws -> [Result<[RecordedEvent], any Error>] {
        try batch.map { request in
            do {
                return .success(try append(request.events, to: request.stream, expected: request.expected))
            } catch let refused as EventLogError where refused.refusesOneAppend {
                return .failure(refused)
            }
        }
    }

    /// Appends with no expectation of the stream's version.
    @discardableResult
    public func append(_ events: [ProposedEvent], to stream: StreamID) throws -> [RecordedEvent] {
        try append(events, to: stream, expected: .any)
    }
}

extension EventStoreWrite {
    /// Up to `maxCount` events from `position` on, none past this transaction's head, all of which
    /// the log must hold: a log that ends before its head was cut short (`brokenChain`). Written
    /// once for every store, over `read(from:maxCount:)` and `headPosition`.
    public func readToHead(from position: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        let head = headPosition
        guard position <= head, maxCount > 0 else { return [] }
        let wanted = Int(clamping: min(UInt64(maxCount), head - position + 1))
        let events = try read(from: position, maxCount: wanted)
        guard events.count == wanted else {
            let end = position + UInt64(events.count) - 1
            throw EventLogError.brokenChain(
                VerificationProblem(position: end, rule: .headMismatch, detail: "the log's head names position \(head) but the log ends at \(end)"))
        }
        return events
    }
}
