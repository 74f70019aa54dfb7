import Crypto
@_spi(Stores) public import EventLog
import Failures
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
    /// The projection rows this transaction has read or written (its tables share them).
    private let projections: ProjectionOverlay
    /// Streams' versions and whether they are closed, as read or written here (`streamRow`): kept,
    /// as projection rows are, because no other writer changes them while this one holds the head.
    private var streamRows: [StreamID: (version: UInt64, closed: Bool)] = [:]
    /// The tree's edge as this transaction leaves it (`sendLast`).
    private var committedFrontier: TreeFrontier
    /// The Merkle tree's edge as the transaction began, and the envelopes laid since: the tree
    /// grows by them when the head is written (`sendLast`).
    private let frontier: TreeFrontier
    private var laid: [Envelope] = []

    /// `reel_head.generation` when the head was locked.
    let generation: Int64
    /// The generation this transaction leaves if it writes: a new random one, so no memory of
    /// another transaction — one that failed after its memory was kept included — is ever taken
    /// for its.
    let nextGeneration = Int64.random(in: 0...Int64.max)

    /// Locks the head (the caller has begun the transaction), and starts from what this
    /// process's last write transaction left (`WriteMemory`) when nobody has written since.
    ///
    /// `durableLater`: its `COMMIT` does not wait to be durable (`synchronous_commit = off` for
    /// this transaction, set with the lock): the store waits for that after it.
    init(store: PostgresEventStore, link: PostgresLink, durableLater: Bool = false) throws {
        self.store = store
        reader = PostgresReader(link: link, store: store)
        let locked = try Self.locked(try link.run(durableLater ? Self.lockCommittingLater : Self.lockStatement), link)
        (currentHead, frontier, generation) = (locked.head, locked.frontier, locked.generation)
        let memory = store.writeMemory(at: generation)
        committedFrontier = frontier
        projections = ProjectionOverlay(link: link, rows: memory?.projections ?? [:])
        streamRows = memory?.streams ?? [:]
        pendingDestruction = memory?.closedWithKeys ?? true
        speculative = false
    }

    /// Starts from `memory`, what this process's last write transaction left, as if nobody had
    /// written since, and sends nothing yet (a transaction that commits without waiting for its
    /// durability: `synchronous_commit = off` for it). Before its first statement, `before`
    /// runs (the store waits for the transaction this one follows to commit), then `BEGIN` and
    /// the lock are sent, the lock not waited for. Should nothing need the server before the
    /// end, the transaction is its last statement alone (`sendLast`), committed on its own.
    ///
    /// The memory is checked on the server, once the head is held: the last statement's update
    /// of the head divides by zero at another generation, which fails the transaction as a
    /// whole (`StaleStart`: the store reads it from that error or from the lock's answer). An
    /// error the body throws counts only if the lock's answer confirms the memory (`confirm`).
    /// So a group commit's next batch is decided while the one before it commits.
    init(store: PostgresEventStore, link: PostgresLink, from memory: WriteMemory, before: @escaping () throws -> Void) {
        self.store = store
        reader = PostgresReader(link: link, store: store)
        (currentHead, frontier, generation) = (memory.head, memory.frontier, memory.generation)
        committedFrontier = frontier
        projections = ProjectionOverlay(link: link, rows: memory.projections)
        streamRows = memory.streams
        pendingDestruction = memory.closedWithKeys
        speculative = true
        self.before = before
        link.prelude = { [weak self] in
            try before()
            try link.begin()
            self?.lock = try link.send(Self.lockCommittingLater)
        }
    }

    /// What runs before this transaction's first statement (`init(store:link:from:before:)`).
    private var before: (() throws -> Void)?

    /// Whether the transaction began from a memory without waiting for the lock.
    let speculative: Bool
    /// Whether the transaction is its last statement alone (`sendLast`), which writes the head.
    private(set) var wroteAlone = false

    /// Whether some closed stream may still have its key (a deletion that stopped between its
    /// steps): unless this process's last write transaction is the last one and left none, the
    /// first step of the transaction looks (`finishPendingDestruction`), after the lock, so one
    /// closed by the writer this one waited for is found too.
    private var pendingDestruction: Bool

    /// The lock sent and not yet confirmed (`init(store:link:from:before:)`).
    private var lock: PostgresLink.Answer?

    /// Reads the answer of the lock sent without waiting (sending the lock first, if nothing
    /// was sent yet): the transaction may throw what it met only if nobody wrote since the
    /// memory it started from (`StaleStart` otherwise). Nothing for a transaction that waited
    /// for its lock, or whose lock was handed on (`unconfirmed`).
    func confirm() throws {
        try link.sendPrelude()
        guard let lock else { return }
        self.lock = nil
        try Self.confirm(lock, at: generation, link)
    }

    /// The lock sent without waiting and not yet confirmed, and the generation it must find,
    /// handed to whoever waits for the `COMMIT` (`confirm(_:at:_:)` then): `nil` when the lock
    /// was waited for.
    func unconfirmed() -> (lock: PostgresLink.Answer, generation: Int64)? {
        defer { lock = nil }
        return lock.map { ($0, generation) }
    }

    /// Throws `StaleStart` unless `lock`'s answer finds `generation`.
    static func confirm(_ lock: PostgresLink.Answer, at generation: Int64, _ link: PostgresLink) throws {
        let found = try locked(try link.rows(of: lock), link).generation
        guard found == generation else { throw StaleStart() }
    }

    static let lockStatement: PostgresQuery = "SELECT position, recorded_at, hash, tree, generation FROM reel_head FOR UPDATE"
    /// The same, setting the transaction's `synchronous_commit` to `off` (no round trip of its own).
    static let lockCommittingLater: PostgresQuery =
        "SELECT position, recorded_at, hash, tree, generation FROM reel_head WHERE set_config('synchronous_commit', 'off', true) = 'off' FOR UPDATE"

    /// The head, the tree's edge and the generation in the lock's answer.
    static func locked(_ rows: [PostgresRow], _ link: PostgresLink) throws -> (head: LogHead?, frontier: TreeFrontier, generation: Int64) {
        guard let row = rows.first else {
            throw Failure.tampered("reel_head has no row (the schema is incomplete; was it altered?)", link.location)
        }
        let (position, time, hash, tree, generation) = try row.decode((Int64, Int64, ByteBuffer, ByteBuffer, Int64).self)
        let frontier = try PostgresTree.frontier(tree, link)
        guard position > 0 else { return (nil, frontier, generation) }
        guard hash.readableBytes == 32 else { throw Failure.tampered("reel_head holds a hash of \(hash.readableBytes) bytes", link.location) }
        let head = LogHead(storedPosition: UInt64(position), recordedAtMicroseconds: time, hash: ChainHash(bytes: Array(buffer: hash)))
        return (head, frontier, generation)
    }

    /// What this transaction leaves for the next one of the process, should it commit: its rows,
    /// at the generation it commits (`nextGeneration` if it wrote).
    func memory() -> WriteMemory {
        let closedWithKeys = !closedHere.subtracting(destroyed).isEmpty
        let streams = streamRows.count <= WriteMemory.maximumRows ? streamRows : [:]
        let rows = projections.keptForNext
        return WriteMemory(
            generation: link.wroteInTransaction || wroteAlone ? nextGeneration : generation, head: currentHead, frontier: committedFrontier,
            projections: WriteMemory.fits(rows) ? rows : [:], streams: streams, closedWithKeys: closedWithKeys)
    }

    public var headPosition: UInt64 { currentHead?.position ?? 0 }

    /// The generation it began at (until `confirm`, the one its memory says).
    public var origin: UInt64? { UInt64(bitPattern: generation) }

    public var leaves: UInt64? { UInt64(bitPattern: nextGeneration) }

    public func head() throws -> LogHead? { currentHead }

    public func version(of stream: StreamID) throws -> UInt64 {
        try streamRow(stream).version
    }

    public func position(of eventID: UUID) throws -> UInt64? {
        try sendEvents()
        return try link.run("SELECT position FROM reel_events WHERE event_id = \(eventID)").first.map { UInt64(try $0.decode(Int64.self)) }
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

    /// The batch in one read at most (`append(all:)`): a request refused by its checks fails
    /// alone, having written nothing. Not checking ids, and with every stream's version held
    /// already, with no read (see `append(all:idsChecked:)`).
    public func append(batch: [AppendRequest], checkingIDs: Bool) throws -> [Result<[RecordedEvent], any Error>] {
        let sealed = try batch.map { try SealedEvents($0.events, stream: $0.stream, key: try store.sealingKey(for: $0.stream)) }
        let outcomes = try append(all: zip(sealed, batch).map { ($0, $1.expected) }, idsChecked: checkingIDs)
        if let broken = brokenBy { throw broken }
        return try zip(outcomes, batch).map { outcome, request in
            switch outcome {
            case .failure(let error): return .failure(error)
            case .success(let (result, envelopes)):
                if result.deduplicated { return .success(try stored(at: result.positions)) }
                return .success(zip(envelopes, request.events).map { RecordedEvent(stored: $0, payload: $1.payload) })
            }
        }
    }

    /// Appends events sealed already (see `append(all:)`).
    func append(_ sealed: SealedEvents, expected: ExpectedVersion) throws -> (AppendResult, [Envelope]) {
        try append(all: [(sealed, expected)])[0].get()
    }

    /// Appends several requests in order, in two statements whatever their number: one reads what
    /// they need (their streams' versions, which of their ids are stored), and the transaction's
    /// last statement (`sendLast`) writes every event and stream row. Everything that can refuse
    /// a request is checked before anything is written, so a refused request leaves nothing and
    /// the others go on (group commit relies on it); each request sees the ones before it, as if
    /// appended one after another. A write that fails breaks the transaction.
    ///
    /// Unless `idsChecked`, and when the transaction holds every stream's row already, nothing is
    /// read: an id stored already (by an earlier transaction: the batch's own are checked here)
    /// is then left to `reel_events_event_id`, whose violation fails the transaction at its next
    /// statement waited for, for a caller that tries each request again alone (group commit),
    /// where it is checked.
    func append(all requests: [(sealed: SealedEvents, expected: ExpectedVersion)], idsChecked: Bool = true) throws
        -> [Result<(AppendResult, [Envelope]), any Error>]
    {
        var rows: [String: (version: UInt64, closed: Bool)] = [:]
        for request in requests { if let kept = streamRows[request.sealed.stream] { rows[request.sealed.stream.rawValue] = kept } }
        // The streams' rows this transaction holds already are not read again.
        let streams = Array(Set(requests.map(\.sealed.stream.rawValue)).filter { rows[$0] == nil })
        let ids = requests.flatMap { $0.sealed.events.map(\.id) }
        var known: [UUID: (position: UInt64, stream: String)] = [:]
        let reads = idsChecked || !streams.isEmpty
        if reads { try sendEvents() }
        if reads, let found = try link.run(
            """
            SELECT s.names, s.versions, s.closed, e.ids, e.positions, e.owners FROM
            (SELECT array_agg(stream) AS names, array_agg(version) AS versions, array_agg(closed_at IS NOT NULL) AS closed
             FROM reel_streams WHERE stream = ANY(\(streams))) s,
            (SELECT array_agg(event_id) AS ids, array_agg(position) AS positions, array_agg(stream) AS owners
             FROM reel_events WHERE event_id = ANY(\(ids))) e
            """
        ).first {
            let (names, versions, closed, stored, positions, owners) = try found.decode(
                ([String]?, [Int64]?, [Bool]?, [UUID]?, [Int64]?, [String]?).self)
            for (index, name) in (names ?? []).enumerated() { rows[name] = (UInt64(versions![index]), closed![index]) }
            for (index, id) in (stored ?? []).enumerated() { known[id] = (UInt64(positions![index]), owners![index]) }
        }
        var results: [Result<(AppendResult, [Envelope]), any Error>] = []
        var written: [Envelope] = []
        var head = currentHead
        for (sealed, expected) in requests {
            results.append(
                Result {
                    let stream = sealed.stream, events = sealed.events
                    let row = rows[stream.rawValue] ?? (0, false)
                    if row.closed { throw EventLogError.streamShredded(stream) }
                    var seen = Set<UUID>()
                    for event in events where !seen.insert(event.id).inserted {
                        throw EventLogError.duplicateEventID(id: event.id.uuidString.lowercased(), position: 0)
                    }
                    let stored = events.compactMap { known[$0.id] }
                    if !stored.isEmpty {
                        guard stored.count == events.count, stored.allSatisfy({ $0.stream == stream.rawValue }) else {
                            let first = events.first { known[$0.id] != nil }!
                            throw EventLogError.duplicateEventID(id: first.id.uuidString.lowercased(), position: known[first.id]!.position)
                        }
                        return (AppendResult(stored: stored.map(\.position), streamVersion: row.version, deduplicated: true), [])
                    }
                    guard expected.admits(row.version) else {
                        throw EventLogError.wrongExpectedVersion(stream: stream, expected: expected, actual: row.version)
                    }
                    guard !events.isEmpty else { return (AppendResult(stored: [], streamVersion: row.version, deduplicated: false), []) }
                    let envelopes = try sealed.envelopes(after: head, streamVersion: row.version)
                    head = LogHead(after: envelopes.last!)
                    rows[stream.rawValue] = (envelopes.last!.streamVersion, false)
                    for envelope in envelopes { known[envelope.eventID] = (envelope.position, stream.rawValue) }
                    written += envelopes
                    return (
                        AppendResult(stored: envelopes.map(\.position), streamVersion: envelopes.last!.streamVersion, deduplicated: false), envelopes
                    )
                })
        }
        guard !written.isEmpty else { return results }
        try insert(written, head: head!)
        return results
    }

    /// Lays envelopes after the head (their events and their streams' versions): kept, and
    /// written with the transaction's last statement (`sendLast`), or before a statement that
    /// reads what they change (`sendEvents`); `head` is the head after them.
    private func insert(_ written: [Envelope], head: LogHead) throws {
        for envelope in written { streamRows[envelope.streamID] = (envelope.streamVersion, false) }
        laid += written
        unsent += written
        currentHead = head
        appended = true
        if unsent.count >= Self.unsentEvents { try sendEvents() }
    }

    /// Envelopes laid and not yet sent (`insert`).
    private var unsent: [Envelope] = []
    /// Envelopes kept unsent at most: past it they go in a statement of their own.
    static let unsentEvents = 5_000

    /// The rows of `envelopes`' events and their streams' last versions, as `unnest`'s arrays.
    private struct EventRows {
        var positions: [Int64] = [], streams: [String] = [], versions: [Int64] = [], ids: [UUID] = []
        var types: [String] = [], times: [Int64] = [], envelopes: [ByteBuffer] = []
        var lastStreams: [String] = [], lastVersions: [Int64] = []

        init(_ written: [Envelope]) {
            var last: [String: Int64] = [:]
            for envelope in written {
                positions.append(Int64(envelope.position))
                streams.append(envelope.streamID.rawValue)
                versions.append(Int64(envelope.streamVersion))
                ids.append(envelope.eventID)
                types.append(envelope.type)
                times.append(envelope.recordedAtMicroseconds)
                self.envelopes.append(ByteBuffer(bytes: envelope.bytes))
                last[envelope.streamID.rawValue] = Int64(envelope.streamVersion)
            }
            lastStreams = Array(last.keys)
            lastVersions = lastStreams.map { last[$0]! }
        }
    }

    /// Sends the events laid and not yet sent, with their streams' versions, in one statement
    /// (without waiting: `PostgresLink.send`); before any statement that reads events or streams.
    /// A write that fails breaks the transaction.
    func sendEvents() throws {
        guard !unsent.isEmpty else { return }
        let rows = EventRows(unsent)
        unsent = []
        do {
            try link.send(
                """
                WITH events AS (
                    INSERT INTO reel_events (position, stream, stream_version, event_id, type, recorded_at, envelope)
                    SELECT * FROM unnest(\(rows.positions)::bigint[], \(rows.streams)::text[], \(rows.versions)::bigint[], \(rows.ids)::uuid[],
                        \(rows.types)::text[], \(rows.times)::bigint[], \(rows.envelopes)::bytea[]))
                INSERT INTO reel_streams (stream, version) SELECT * FROM unnest(\(rows.lastStreams)::text[], \(rows.lastVersions)::bigint[])
                ON CONFLICT (stream) DO UPDATE SET version = excluded.version
                """)
        } catch {
            brokenBy = error
            throw error
        }
    }

    /// Lays one account's envelopes from another shard on this store's chain (`reel store move`):
    /// `envelopes` are its whole stream there (versions 1 through n, the source shard's closing
    /// `account-moved-out` not among them), laid anew as format 2 (`MovedEnvelopes`), with the
    /// stream's `key` (its 32 bytes) and, after them, `arrival` (`account-moved-in`) sealed under
    /// it. The stream must be new here and none of its event ids stored. Returns the laid
    /// envelopes and the arrival as recorded.
    public func adopt(_ envelopes: [Envelope], key: [UInt8], arrival: ProposedEvent) throws -> (laid: [Envelope], arrival: RecordedEvent) {
        guard let stream = envelopes.first?.streamID else { throw EventLogError.corruptEnvelope(position: 0, reason: "a move of no events") }
        try sendEvents()
        for (index, envelope) in envelopes.enumerated() where envelope.streamID != stream || envelope.streamVersion != UInt64(index + 1) {
            throw EventLogError.corruptEnvelope(position: envelope.position, reason: "not version \(index + 1) of \(stream)")
        }
        let version = try streamRow(stream).version
        guard version == 0 else { throw EventLogError.wrongExpectedVersion(stream: stream, expected: .noStream, actual: version) }
        if let row = try link.run("SELECT event_id, position FROM reel_events WHERE event_id = ANY(\(envelopes.map(\.eventID))) LIMIT 1").first {
            let (id, position) = try row.decode((UUID, Int64).self)
            throw EventLogError.duplicateEventID(id: id.uuidString.lowercased(), position: UInt64(position))
        }
        guard key.count == 32 else { throw EventLogError.missingKey(stream) }
        let laid = try MovedEnvelopes.laid(envelopes, after: currentHead)
        try store.insertKeys([stream: .live(key)], link)
        store.takeSealingKey(SymmetricKey(data: key), for: stream)
        do {
            try insert(laid, head: LogHead(after: laid.last!))
        } catch {
            brokenBy = error
            throw error
        }
        let sealed = try SealedEvents([arrival], stream: stream, key: SymmetricKey(data: key))
        let (_, arrived) = try append(sealed, expected: .exact(UInt64(laid.count)))
        return (laid, RecordedEvent(stored: arrived[0], payload: arrival.payload))
    }

    /// A retry's events as they were stored the first time, read back and opened.
    private func stored(at positions: [UInt64]) throws -> [RecordedEvent] {
        try sendEvents()
        return try positions.map { position in
            guard let event = try reader.read(from: position, maxCount: 1).first, event.position == position else {
                throw EventLogError.corruptEnvelope(position: position, reason: "missing after append")
            }
            return event
        }
    }

    /// The stream's version and whether it is closed, as this transaction sees them.
    func streamRow(_ stream: StreamID) throws -> (version: UInt64, closed: Bool) {
        if let kept = streamRows[stream] { return kept }
        var row: (version: UInt64, closed: Bool) = (0, false)
        if let found = try link.run("SELECT version, closed_at IS NOT NULL FROM reel_streams WHERE stream = \(stream.rawValue)").first {
            let (version, closed) = try found.decode((Int64, Bool).self)
            row = (UInt64(version), closed)
        }
        streamRows[stream] = row
        return row
    }

    public func prefetchVersions(of streams: [StreamID]) throws {
        let wanted = Set(streams.filter { streamRows[$0] == nil })
        guard !wanted.isEmpty else { return }
        var missing = wanted
        for found in try link.run(
            "SELECT stream, version, closed_at IS NOT NULL FROM reel_streams WHERE stream = ANY(\(wanted.map(\.rawValue)))")
        {
            let (name, version, closed) = try found.decode((String, Int64, Bool).self)
            let stream = try StreamID(name)
            streamRows[stream] = (UInt64(version), closed)
            missing.remove(stream)
        }
        for stream in missing { streamRows[stream] = (0, false) }
    }

    /// Whether `stream` is closed, as this transaction sees it.
    public func isClosed(_ stream: StreamID) throws -> Bool {
        try streamRow(stream).closed
    }

    public func close(_ stream: StreamID, atMicroseconds time: Int64) throws {
        try sendEvents()
        let row = try streamRow(stream)
        guard row.version > 0 else {
            throw EventLogError.unauthorizedShredding(stream: stream, reason: "the stream has no events")
        }
        if !row.closed {
            try link.run("UPDATE reel_streams SET closed_at = \(time) WHERE stream = \(stream.rawValue) AND closed_at IS NULL")
            streamRows[stream] = (row.version, true)
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
        try sendEvents()
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
        guard closing.streamID == stream, closing.streamVersion == version, StreamClosing.mayClose(closing.type, closingType: store.closingType) else {
            throw refuse("its last event (position \(position)) is not an '\(store.closingType)' or '\(StreamClosing.movedOutType)' event of the stream")
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
        guard pendingDestruction else { return [] }
        pendingDestruction = false
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
        try sendEvents()
        return try reader.read(from: position, maxCount: maxCount)
    }

    public func read(stream: StreamID, from version: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        try sendEvents()
        return try reader.read(stream: stream, from: version, maxCount: maxCount)
    }

    public func table(_ name: ProjectionTableName) -> any ProjectionTable {
        PostgresProjectionTable(name: name.name, link: link, overlay: projections)
    }

    /// The tree as this transaction began with it: appends made in it join the tree at its end.
    public func treeFrontier() throws -> TreeFrontier { frontier }

    public func treeHashes(at indexes: [UInt64]) throws -> [TreeHash] { try PostgresTree.hashes(at: indexes, link) }

    public func leafHashes(from position: UInt64, maxCount: Int) throws -> [TreeHash] {
        try sendEvents()
        return try PostgresTree.leafHashes(from: position, maxCount: maxCount, link)
    }

    /// The text of the last statement (`sendLast`): the same at every run, so a connection
    /// prepares it once (`PostgresLink.prepare`). Its parameters: the events' rows (1–7), their
    /// streams' last versions (8–9), the projection rows deleted (10–11) and written (12–14), the
    /// tree's new hashes (15–16), the position told to listeners and whether to tell them
    /// (17–18), the head (19–22, each `NULL` to leave it), the next generation (23), and the
    /// generation the transaction began from when it did not wait for the lock (24, else `NULL`):
    /// the server checks it once it holds the row, a division by zero at another one, which
    /// aborts the transaction (its `COMMIT` rolls back; the lock's answer then says why:
    /// `confirm`). `alone`: the statement is the whole transaction, committed on its own without
    /// waiting for its durability.
    static func lastStatement(alone: Bool) -> String {
        """
        WITH events AS (
            INSERT INTO reel_events (position, stream, stream_version, event_id, type, recorded_at, envelope)
            SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::uuid[], $5::text[], $6::bigint[], $7::bytea[])),
        streams AS (
            INSERT INTO reel_streams (stream, version) SELECT * FROM unnest($8::text[], $9::bigint[])
            ON CONFLICT (stream) DO UPDATE SET version = excluded.version),
        gone AS (
            DELETE FROM reel_projections p USING unnest($10::text[], $11::bytea[]) AS d(t, k)
            WHERE p.table_name = d.t AND p.key = d.k),
        projected AS (
            INSERT INTO reel_projections (table_name, key, value)
            SELECT * FROM unnest($12::text[], $13::bytea[], $14::bytea[])
            ON CONFLICT (table_name, key) DO UPDATE SET value = excluded.value),
        tree AS (
            INSERT INTO reel_tree (stored_index, hash) SELECT * FROM unnest($15::bigint[], $16::bytea[])),
        notified AS (SELECT pg_notify('reel_appended', $17::text) WHERE $18::bool)
        UPDATE reel_head SET position = coalesce($19::bigint, position),
            recorded_at = coalesce($20::bigint, recorded_at),
            hash = coalesce($21::bytea, hash),
            tree = coalesce($22::bytea, tree),
            generation = $23::bigint
        WHERE 1 / (generation = coalesce($24::bigint, generation))::int = 1
        \(alone ? "AND set_config('synchronous_commit', 'off', true) = 'off'" : "")
        RETURNING (SELECT count(*) FROM notified)
        """
    }

    /// The last statement's two texts, made once.
    static let lastAlone = lastStatement(alone: true)
    static let lastInTransaction = lastStatement(alone: false)

    /// The texts a write transaction's connection prepares (`PostgresLink.prepare`).
    static let preparedTexts = [lastAlone, lastInTransaction]

    /// The transaction's last statement before its `COMMIT`, sent without waiting (the `COMMIT`
    /// behind it is waited for): the events laid and not yet sent with their streams' versions,
    /// every projection row written or deleted and not yet sent, the Merkle tree grown up to the
    /// head and the head where this transaction left it, and the write generation raised, in
    /// one statement whatever the batch; it wakes the store's listeners on commit when the head
    /// moved. Nothing is sent by a transaction that wrote nothing (but the check of a memory).
    ///
    /// Returns the statement's answer: for a transaction that sent nothing before, the statement
    /// is the transaction (`wroteAlone`), its answer its commit.
    @discardableResult
    func sendLast() throws -> PostgresLink.Answer? {
        let rows = EventRows(unsent)
        unsent = []
        let projected = projections.takeUnsent()
        // A store written before the tree gets it in its next write transaction, one that
        // appends nothing included.
        var tree: PostgresTree?
        if let head = currentHead, appended || frontier.size < head.position {
            let grown = try PostgresTree.grown(from: frontier, to: head.position, written: laid, link)
            // A catch-up's many hashes go in statements of 50,000 first (a statement's arrays stay
            // far below PostgreSQL's 1 GB limit); the last ones with the head.
            tree = try grown.insertingAllButLast(50_000, link)
            committedFrontier = grown.frontier
        }
        // Begun from a memory without waiting for the lock: the server checks the memory's
        // generation once it holds the lock (`lastStatement`).
        let alone = link.prelude != nil
        if alone {
            // Nothing was sent: the statement is the transaction, committed on its own,
            // without waiting for its durability.
            link.prelude = nil
            try before?()
            wroteAlone = true
        }
        guard tree != nil || !rows.positions.isEmpty || !projected.isEmpty || link.wroteInTransaction || alone else {
            if speculative { return try link.send(PostgresQuery(unsafeSQL: "SELECT 1 FROM reel_head WHERE 1 / (generation = \(generation))::int = 1")) }
            return nil
        }
        let head = tree == nil ? nil : currentHead
        do {
            var statement = PreparedText(alone ? Self.lastAlone : Self.lastInTransaction)
            try statement.bind(rows.positions)
            try statement.bind(rows.streams)
            try statement.bind(rows.versions)
            try statement.bind(rows.ids)
            try statement.bind(rows.types)
            try statement.bind(rows.times)
            try statement.bind(rows.envelopes)
            try statement.bind(rows.lastStreams)
            try statement.bind(rows.lastVersions)
            try statement.bind(projected.deletedTables)
            try statement.bind(projected.deletedKeys)
            try statement.bind(projected.tables)
            try statement.bind(projected.keys)
            try statement.bind(projected.values)
            try statement.bind(tree?.indexes ?? [])
            try statement.bind(tree?.hashes ?? [])
            try statement.bind(String(head?.position ?? 0))
            try statement.bind(appended)
            try statement.bind(head.map { Int64($0.position) })
            try statement.bind(head?.recordedAtMicroseconds)
            try statement.bind(head.map { ByteBuffer(bytes: $0.hash.bytes) })
            try statement.bind(tree.map { ByteBuffer(bytes: $0.frontier.record) })
            try statement.bind(nextGeneration)
            try statement.bind(speculative ? generation : nil)
            return try link.send(statement, settling: !alone)
        } catch {
            brokenBy = error
            throw error
        }
    }
}
