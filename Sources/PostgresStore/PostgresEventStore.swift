import Crypto
@_spi(Stores) public import EventLog
import Failures
public import Foundation
import NIOCore
import PostgresNIO
import Synchronization

/// The PostgreSQL store behind the store boundary (`EventStore`): the same log as the LMDB store
/// — positions, stream versions, envelopes byte for byte, the hash chain — in the tables of
/// `Schemas/postgres-layout.md`, so several processes on several hosts can write one ledger.
///
/// - Appends hold `reel_head`'s row `FOR UPDATE` (see `PostgresWrite`): positions are gapless
///   and in commit order across processes, and a reader never sees N+1 committed before N.
/// - Keys live in `reel_stream_keys`, wrapped under the keyring's key-encryption key, which lives
///   outside the database (`PostgresKeyring`); a deletion deletes its key row in the closing
///   transaction and then rotates the keyring, so no copy of the database can open the key again.
/// - Calls block their thread, as LMDB's do: call them off the event loops (any thread of
///   Reel's own, or a task's).
public final class PostgresEventStore: EventStore {
    public typealias Write = PostgresWrite
    public typealias Snapshot = PostgresSnapshot

    public let location: PostgresLocation
    /// The local directory for what lives beside the log (the response cache).
    public let directory: String
    /// The event type that closes a stream for good.
    let closingType: String
    let pool: PostgresPool
    /// Connections for reads a standby may answer (`read(atLeast:)`), when the URL names more
    /// than one server: `prefer-standby`, so a pair with its standby gone reads from the primary.
    let standbyPool: PostgresPool?
    /// Reads answered by a standby and reads a standby could not answer (it lacked the position
    /// asked for): for `reel store status` and the tests.
    public var standbyReads: (answered: Int, declined: Int) { standbyCounts.withLock { $0 } }
    private let standbyCounts = Mutex((answered: 0, declined: 0))
    /// Key operations get their own connections, so a write transaction that needs a key made
    /// (committed at once, as `prepareKey` promises) never waits for one of its own pool.
    let keyPool: PostgresPool
    /// The key-encryption keys the stored keys are wrapped under (kept outside the database).
    let keyring: PostgresKeyring
    /// Live keys, for sealing only: a key destroyed by another process is found by the append's
    /// own check (the stream is closed). Payloads are always opened under keys read in the reading
    /// transaction, so a deletion anywhere is seen at once.
    private let sealingKeys = Mutex<[StreamID: SymmetricKey]>([:])
    private let committer = Mutex<PostgresGroupCommitter?>(nil)
    /// Woken by this process's commits and, through `listener`, by every other process's.
    let signal = CommitSignal()
    private let listener: PostgresListener
    /// Why the last purge of destroyed keys (the keyring's rotation) did not run (`nil` after one
    /// that did): the keys' rows are gone, but every copy of the database holds them wrapped under
    /// a key-encryption key that still exists until a rotation succeeds.
    public var purgeProblem: String? { lastPurgeProblem.withLock { $0 } }
    private let lastPurgeProblem = Mutex<String?>(nil)
    /// The deletions whose purge an earlier process left pending and this one's open finished
    /// (the keyring rotated), for a front end to say so.
    public var purgesFinishedAtOpen: [StreamID] { finishedAtOpen.withLock { $0 } }
    private let finishedAtOpen = Mutex<[StreamID]>([])
    /// While set, a write that destroys keys leaves their purge pending (`deferPurges`).
    private let purgesDeferred = Mutex(false)

    /// Runs `body` with the purge after each key's destruction left pending, then purges once
    /// for all of them (a purge rewrites the key table and cycles the WAL: once for many keys
    /// instead of once each, as `reel store move --all` destroys many). Pending purges are
    /// crash-safe: the next process to open the store runs them. Returns what `body` returns and
    /// whether the purge ran (else `purgeProblem` says why).
    public func deferPurges<T>(_ body: () throws -> T) throws -> (T, purged: Bool) {
        purgesDeferred.withLock { $0 = true }
        let value: T
        do {
            defer { purgesDeferred.withLock { $0 = false } }
            value = try body()
        } catch {
            // The keys destroyed before the failure are purged all the same.
            purgeNow()
            throw error
        }
        return (value, purgeNow())
    }
    /// How long a subscription waits for a notification before it reads anyway.
    public static let pollInterval = Duration.seconds(1)

    /// How many connections a store opens at most, unless told.
    public static let defaultConnections = 8

    /// Opens the store at `location`, whose schema must be this Reel's (`reel store migrate`),
    /// with its keyring from `keyring` (by default `keyrings/` in `directory`; made there for a
    /// store that has none yet).
    public static func open(
        _ location: PostgresLocation, directory: String, keyring: String? = nil, closingType: String = "account-deleted",
        connections: Int = defaultConnections
    ) throws -> PostgresEventStore {
        // Writes, keys and notifications need the primary whatever the URL asks for its reads.
        let location = location.endpoints.count > 1 ? location.targeting(.readWrite) : location
        let keyPool = PostgresPool(location, capacity: 2)
        let keys: PostgresKeyring
        do {
            let version = try keyPool.with { link -> Int in
                guard try link.run("SELECT to_regclass('public.reel_migrations') IS NOT NULL").first?.decode(Bool.self) == true else { return 0 }
                return Int(try link.run("SELECT coalesce(max(version), 0)::bigint FROM reel_migrations").first?.decode(Int64.self) ?? 0)
            }
            guard version <= PostgresMigration.latest else { throw PostgresMigrator.newer(version, location) }
            guard version == PostgresMigration.latest else {
                throw Failure(
                    .unavailable,
                    "the store \(location) has schema version \(version), this Reel needs \(PostgresMigration.latest): run 'reel store migrate' first")
            }
            keys = try keyPool.with { try PostgresKeyring.open($0, directory: keyring ?? PostgresKeyring.defaultDirectory(in: directory)) }
        } catch {
            keyPool.closeIdle()  // a connection is closed before it is let go
            throw error
        }
        let store = PostgresEventStore(
            location: location, directory: directory, closingType: closingType, connections: connections, keyPool: keyPool, keyring: keys)
        // A deletion whose purge did not run (refused, or its process stopped) is purged by the
        // next process that opens the store; refused again, it stays pending (see `purgeProblem`).
        let pending = try store.keyPool.with { link in
            try link.run("SELECT EXISTS (SELECT 1 FROM reel_streams WHERE purge_pending)").first?.decode(Bool.self) ?? false
        }
        if pending {
            do {
                let purged = try store.purgePending()
                store.finishedAtOpen.withLock { $0 = purged }
            } catch {
                store.lastPurgeProblem.withLock { $0 = (error as? any KindedError)?.summary ?? "\(error)" }
            }
        }
        return store
    }

    private init(
        location: PostgresLocation, directory: String, closingType: String, connections: Int, keyPool: PostgresPool, keyring: PostgresKeyring
    ) {
        self.location = location
        self.directory = directory
        self.closingType = closingType
        pool = PostgresPool(location, capacity: connections)
        standbyPool = location.endpoints.count > 1 ? PostgresPool(location.targeting(.preferStandby), capacity: connections) : nil
        self.keyPool = keyPool
        self.keyring = keyring
        listener = PostgresListener(location: location, signal: signal)
    }

    deinit {
        listener.stop()
        pool.closeIdle()
        standbyPool?.closeIdle()
        keyPool.closeIdle()
    }

    // MARK: Transactions

    public func read<T>(_ body: (PostgresSnapshot) throws -> T) throws -> T {
        try pool.with { link in
            try link.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { try body(PostgresSnapshot(link: link, store: self)) }
        }
    }

    /// From a standby when one holds `floor` already (in the snapshot: `reel_head` at or past the
    /// position, or the stream at or past the version), else from the primary: a caller never
    /// reads older than what it knows is committed. A read that fails on a standby for any reason
    /// (none answers, it lacks the database yet) is made on the primary.
    public func read<T>(atLeast floor: ReadFloor, _ body: (PostgresSnapshot) throws -> T) throws -> T {
        guard let standbyPool else { return try read(body) }
        var value: T?
        var answered = false
        var byStandby = false
        do {
            try standbyPool.with { link in
                try link.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                    // What the server holds of the floor, and whether it is a standby (prefer-standby
                    // connects to the primary when none answers: current anyway), in one statement.
                    let (wanted, query): (UInt64, PostgresQuery) =
                        switch floor {
                        case .position(let position): (position, "SELECT (SELECT position FROM reel_head), pg_is_in_recovery()")
                        case .version(let version, let stream):
                            (version, "SELECT (SELECT version FROM reel_streams WHERE stream = \(stream.rawValue)), pg_is_in_recovery()")
                        }
                    guard let row = try link.run(query).first else { return }
                    let (held, standby) = try row.decode((Int64?, Bool).self)
                    byStandby = standby
                    guard UInt64(max(0, held ?? 0)) >= wanted else { return }
                    value = try body(PostgresSnapshot(link: link, store: self))
                    answered = true
                }
            }
        } catch {
            // No standby answers, or one that lacks the database yet (made on the primary a
            // moment ago), or what it holds fails the read: the primary is asked instead.
            answered = false
        }
        if answered, let value {
            standbyCounts.withLock { if byStandby { $0.answered += 1 } }
            return value
        }
        standbyCounts.withLock { $0.declined += 1 }
        return try read(body)
    }

    /// Whether the URL names standbys a read may be answered by.
    public var readsFromCopies: Bool { standbyPool != nil }

    /// It waits for the lock: a body that ran twice would make anew what it cannot take back
    /// (a new account's key is committed at once, so a second run, which opens the account under
    /// a new stream, would leave the first one's key unused).
    public func write<T>(shredding step: (ShreddingStep) -> Void, _ body: (PostgresWrite) throws -> T) throws -> T {
        let (value, commit) = try begin(speculating: false, durableLater: false, body)
        try commit.wait(step)
        return value
    }

    /// The transaction's `COMMIT` is sent and not waited for: `wait` waits for it. Meanwhile
    /// the next write transaction of this process may begin, from what this one leaves
    /// (`WriteMemory`): its lock is granted when this one commits, and should this one fail, or
    /// another process write meanwhile, it finds so and runs again (`PostgresWrite`'s
    /// `speculating`). A new account's key made by the run that did not count stays unused, as
    /// one made by a transaction that failed does.
    ///
    /// One caller at a time, on one thread (a service's committing thread): a transaction waits
    /// for the commit of the one before it on that one's connection.
    public func writeAhead<T>(_ body: (PostgresWrite) throws -> T) throws -> (value: T, wait: (() throws -> Void)?) {
        let (value, commit) = try begin(body)
        return (value, { try commit.wait { _ in } })
    }

    /// Runs `body` in a write transaction up to its `COMMIT`, sent. `body` may run twice: a
    /// transaction begun from this process's last one without waiting for the lock that finds
    /// another generation is rolled back and runs again, waiting.
    private func begin<T>(_ body: (PostgresWrite) throws -> T) throws -> (T, SentCommit) {
        do {
            return try begin(speculating: true, durableLater: true, body)
        } catch is StaleStart {
            lastWrite.withLock { $0 = nil }
            return try begin(speculating: false, durableLater: true, body)
        }
    }

    /// `durableLater`: the transaction commits without waiting for its `COMMIT` to be durable
    /// (`synchronous_commit = off` for it alone), so the lock passes to the next writer at once;
    /// a transaction of its own sent right behind it, committed synchronously, is durable (on
    /// disk, and on the synchronous standby) only once everything before it in the server's WAL
    /// is, this one included: `SentCommit.wait` waits for that one too.
    private func begin<T>(speculating: Bool, durableLater: Bool, _ body: (PostgresWrite) throws -> T) throws -> (T, SentCommit) {
        let link = try pool.borrow()
        link.prepare(Self.preparedTexts)
        do {
            let write: PostgresWrite
            if speculating, let memory = lastWriteMemory() {
                write = PostgresWrite(store: self, link: link, from: memory, before: { [self] in try awaitTheOneBefore() })
            } else {
                // Behind the one before on the server too, should this one's lock reach it first.
                if durableLater { try? awaitTheOneBefore() }
                try link.begin()
                write = try PostgresWrite(store: self, link: link, durableLater: durableLater)
            }
            let value: T
            let last: PostgresLink.Answer?
            do {
                _ = try write.finishPendingDestruction()
                value = try body(write)
                if let broken = write.brokenBy ?? link.preludeFailure { throw broken }
                last = try write.sendLast()
            } catch {
                // What the body met counts only if it met what the server holds.
                try write.confirm()
                throw error
            }
            let unconfirmed = write.unconfirmed()
            let memory = write.memory()
            let commit = try write.wroteAlone ? last ?? link.sendCommit() : link.sendCommit()
            let durable: PostgresLink.Answer?
            do {
                durable = durableLater ? try Self.sendDurabilityMark(link) : nil
            } catch {
                // The commit is on its way: it may be made.
                throw CommitUnknown(store: "\(location)")
            }
            if durableLater {
                lastAhead.withLock { $0 = (link, commit) }
                // The next write transaction of this process starts from it (and sends nothing
                // before it is committed: `awaitTheOneBefore`); forgotten should the commit fail.
                remember(memory)
            }
            return (
                value,
                SentCommit(
                    store: self, link: link, speculative: write.speculative, durableLater: durableLater, unconfirmed: unconfirmed,
                    commit: commit, durable: durable, memory: memory, appended: write.appended, destroyed: write.destroyed)
            )
        } catch {
            link.prelude = nil
            if link.inTransaction { link.rollBack() }
            pool.giveBack(link)
            throw error
        }
    }

    /// Waits for the commit of the last transaction begun by `writeAhead` (not for its
    /// durability), if it is not waited for yet: the next one sends nothing before, so that it
    /// reaches the lock after it, and reads what it committed. `StaleStart` when it failed (the
    /// next one began from what it would have left).
    private func awaitTheOneBefore() throws {
        guard let before = lastAhead.withLock({ $0 }) else { return }
        // Its failure, if any, stays for whoever waits for it (`SentCommit.wait`).
        guard before.link.awaitAnswerOnly(before.commit) else { throw StaleStart() }
    }

    /// The last transaction begun by `writeAhead` and its commit (its `COMMIT`, or its one
    /// statement), until its commit is waited for (`SentCommit.wait`): the next one begun waits
    /// for that answer before it sends anything (`awaitTheOneBefore`). Both run on the thread of
    /// the caller of `writeAhead`, which waits for each commit in turn.
    private let lastAhead = Mutex<(link: PostgresLink, commit: PostgresLink.Answer)?>(nil)

    /// Sends, behind a transaction committed without waiting for durability, a transaction that
    /// waits for it: one statement, committed on its own (as every statement outside a
    /// transaction block is) and synchronously, that writes a record to the WAL (a logical
    /// decoding message, prefix `reel`, empty, in a transaction of its own). So its commit
    /// record follows the one before in the WAL, and is flushed, and acknowledged by a
    /// synchronous standby, only after it. (A transaction that only takes an id writes no
    /// record, and PostgreSQL then commits it without waiting for anything.) The server's
    /// statement time limit does not cut that wait short: PostgreSQL lifts it before it commits.
    private static func sendDurabilityMark(_ link: PostgresLink) throws -> PostgresLink.Answer {
        try link.send(PreparedText(durabilityMark), settling: false)
    }

    static let durabilityMark = "SELECT pg_logical_emit_message(true, 'reel', '')"

    /// The statements every write transaction sends, prepared on its connection once.
    private static let preparedTexts = PostgresWrite.preparedTexts + [durabilityMark]

    /// A write transaction whose `COMMIT` is sent (`begin`): `wait` waits for it, once.
    private final class SentCommit {
        let store: PostgresEventStore
        let link: PostgresLink
        /// Whether it began from a memory without waiting for the lock (`PostgresWrite`).
        let speculative: Bool
        /// Whether it commits without waiting for its durability (`writeAhead`): its memory is
        /// remembered when its commit is sent, else once it is committed.
        let durableLater: Bool
        /// The lock not waited for (`PostgresWrite.unconfirmed`): confirmed before the commit.
        let unconfirmed: (lock: PostgresLink.Answer, generation: Int64)?
        let commit: PostgresLink.Answer
        /// The transaction whose commit says this one is durable (`sendDurabilityMark`).
        let durable: PostgresLink.Answer?
        let memory: WriteMemory
        let appended: Bool
        let destroyed: [StreamID]
        private var waited = false

        init(
            store: PostgresEventStore, link: PostgresLink, speculative: Bool, durableLater: Bool,
            unconfirmed: (lock: PostgresLink.Answer, generation: Int64)?, commit: PostgresLink.Answer, durable: PostgresLink.Answer?,
            memory: WriteMemory, appended: Bool, destroyed: [StreamID]
        ) {
            (self.store, self.link, self.speculative, self.durableLater) = (store, link, speculative, durableLater)
            (self.unconfirmed, self.commit, self.durable) = (unconfirmed, commit, durable)
            (self.memory, self.appended, self.destroyed) = (memory, appended, destroyed)
        }

        /// Whether the lock's answer (answered by now) finds another generation than `unconfirmed`'s.
        private func isStale(_ unconfirmed: (lock: PostgresLink.Answer, generation: Int64)) -> Bool {
            do {
                try PostgresWrite.confirm(unconfirmed.lock, at: unconfirmed.generation, link)
                return false
            } catch {
                return error is StaleStart
            }
        }

        /// Never left unanswered: a commit nobody waited for is waited for here.
        deinit {
            if !waited { try? wait { _ in } }
        }

        /// Returns once the transaction is committed and durable. Throws `StaleStart` when it
        /// began from a memory another commit had made stale (the server rolled it back),
        /// `CommitUnknown` when the answer of its commit, or of its durability, was lost.
        func wait(_ step: (ShreddingStep) -> Void) throws {
            guard !waited else { return }
            waited = true
            // The link goes back to the pool: nobody else waits on it from now.
            store.lastAhead.withLock { if $0?.link === link { $0 = nil } }
            do {
                do {
                    // Every answer up to the commit, the lock's among them: a lost one is
                    // `CommitUnknown`. A commit that succeeded passed its check of the memory.
                    try link.finish(commit)
                } catch let error where !(error is CommitUnknown) {
                    // Failed on the server: begun from a stale memory if its check failed
                    // (`PostgresWrite.sendLast`), or if the lock found another generation.
                    let stale = speculative && link.lastServerState == "22012" || unconfirmed.map(isStale) == true
                    guard stale else { throw error }
                    throw StaleStart()
                }
                if let durable { try link.awaitDurability(durable) }
            } catch {
                store.forget(memory)
                // Nothing of it is left unread for the link's next user, and no transaction open.
                if link.isUsable { _ = try? link.finish(durable ?? commit) }
                store.pool.giveBack(link)
                throw error
            }
            // A transaction that waited for its lock is remembered once committed: a transaction
            // begun from a memory may send its one statement as soon as that memory's own
            // transaction is committed (`awaitTheOneBefore` knows only of `writeAhead`'s).
            if !durableLater { store.remember(memory) }
            store.pool.giveBack(link)
            try store.committed(appended: appended, destroyed: destroyed, step)
        }
    }

    /// What follows a commit: the store's subscribers woken, destroyed keys forgotten and purged.
    private func committed(appended: Bool, destroyed: [StreamID], _ step: (ShreddingStep) -> Void) throws {
        if appended { signal.notify() }
        guard !destroyed.isEmpty else { return }
        sealingKeys.withLock { keys in for stream in destroyed { keys[stream] = nil } }
        step(.committed)
        // The keys' rows are gone with the commit; the purge removes their bytes from the
        // server's files. Should it fail (the server's settings, a standby holding WAL back),
        // the streams stay marked, `purgeProblem` says why, and the next process to open the
        // store (or `completeShredding`) purges.
        if !purgesDeferred.withLock({ $0 }), purgeNow() {
            step(.keyStoreRewritten)
            step(.recorded)
        }
    }

    /// The memory of a transaction whose commit failed, forgotten if it is the one kept.
    private func forget(_ memory: WriteMemory) {
        lastWrite.withLock { kept in
            if kept?.generation == memory.generation { kept = nil }
        }
    }

    /// The memory of the last write transaction, whatever the generation now.
    func lastWriteMemory() -> WriteMemory? {
        lastWrite.withLock { $0 }
    }

    /// What the last write transaction of this process left (`WriteMemory`), kept once its
    /// `COMMIT` is sent, forgotten should the commit fail.
    private let lastWrite = Mutex<WriteMemory?>(nil)

    /// The memory of the last write transaction if it was left at `generation` (nobody has
    /// written since), else `nil`.
    func writeMemory(at generation: Int64) -> WriteMemory? {
        lastWrite.withLock { memory in memory?.generation == generation ? memory : nil }
    }

    /// Keeps `memory`: the last transaction's (transactions of a process take turns at the lock,
    /// and each keeps its memory before the next can begin from it).
    private func remember(_ memory: WriteMemory) {
        lastWrite.withLock { $0 = memory }
    }

    public func projectionTable(named name: String) throws -> ProjectionTableName {
        ProjectionTableName(name: name, storeHandle: 0)
    }

    // MARK: Appending

    public func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) throws -> AppendResult {
        let sealed = try SealedEvents(events, stream: stream, key: try sealingKey(for: stream))
        return try write { w in try w.append(sealed, expected: expected).0 }
    }

    public func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion) async throws -> AppendResult {
        let sealed = try SealedEvents(events, stream: stream, key: try sealingKey(for: stream))
        let committer = committer.withLock { committer in
            if let committer { return committer }
            let made = PostgresGroupCommitter(store: self)
            committer = made
            return made
        }
        return try await committer.submit(sealed, expected: expected)
    }

    public func reserveRoom(forAppending events: [ProposedEvent], to stream: StreamID) throws {}

    public func reserveRoom(bytes: Int) throws {}

    // MARK: Reading

    public func head() throws -> LogHead? {
        try pool.with { try PostgresReader(link: $0, store: self).head() }
    }

    public func version(of stream: StreamID) throws -> UInt64 {
        try pool.with { link in
            UInt64(try link.run("SELECT version FROM reel_streams WHERE stream = \(stream.rawValue)").first?.decode(Int64.self) ?? 0)
        }
    }

    public func streams() throws -> [StreamSummary] {
        try pool.with { link in
            try link.run(#"SELECT stream, version FROM reel_streams ORDER BY stream COLLATE "C""#).map { row in
                let (stream, version) = try row.decode((String, Int64).self)
                return StreamSummary(stream: try StreamID(stream), version: UInt64(version))
            }
        }
    }

    public func position(of eventID: UUID) throws -> UInt64? {
        try pool.with { link in
            try link.run("SELECT position FROM reel_events WHERE event_id = \(eventID)").first.map { UInt64(try $0.decode(Int64.self)) }
        }
    }

    public func read(from position: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        try read { try $0.read(from: position, maxCount: maxCount) }
    }

    public func read(stream: StreamID, from version: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        try read { try $0.read(stream: stream, from: version, maxCount: maxCount) }
    }

    public func subscribe(from position: UInt64, batchSize: Int) -> Subscription {
        listener.start()
        return Subscription(from: position, batchSize: max(1, batchSize), signal: signal, pollInterval: Self.pollInterval) {
            [self] from, maxCount in try read(from: from, maxCount: maxCount)
        }
    }

    /// Events read at a time by a replay.
    static let replayBatch = 4_096

    public func replay(
        _ positions: Range<UInt64>, verifying check: ReplayCheck, _ body: @Sendable (_ partition: Int, EventView) throws -> Void
    ) throws {
        guard !positions.isEmpty else { return }
        try read { snapshot in
            let reader = snapshot.reader
            let anchored = try check.begin(positions) {
                let rows = try reader.link.run("SELECT envelope FROM reel_events WHERE position = \(Int64(positions.lowerBound - 1))")
                guard let envelope = try rows.first?.decode(ByteBuffer.self) else { return nil }
                let decoded = try envelope.withUnsafeReadableBytes { try Envelope(bytes: $0) }
                return (decoded.hash.bytes, decoded.recordedAtMicroseconds)
            }
            var next = positions.lowerBound
            while next < positions.upperBound {
                let count = Int(min(UInt64(Self.replayBatch), positions.upperBound - next))
                let events = try reader.read(from: next, maxCount: count)
                if events.isEmpty { break }
                guard anchored else { throw ReplayCheck.broken(next - 1, .gap, "no event at position \(next - 1)") }
                try check.check(events)
                try Self.dispatch(events, lanes: check.partitions, body)
                next += UInt64(events.count)
                if events.count < count { break }
            }
        }
    }

    /// Gives each event to its stream's lane, in order, the lanes at once. When lanes fail, the
    /// error at the earliest position is thrown.
    static func dispatch(_ events: [RecordedEvent], lanes: Int, _ body: @Sendable (Int, EventView) throws -> Void) throws {
        let partitions = events.map { EventView.partition(of: $0.streamID, partitions: lanes) }
        let failures = Mutex<[(position: UInt64, error: any Error)]>([])
        Parallel.lanes(lanes) { lane in
            for (index, event) in events.enumerated() where partitions[index] == lane {
                do {
                    try EventView.of(event) { try body(lane, $0) }
                } catch {
                    failures.withLock { $0.append((event.position, error)) }
                    return
                }
            }
        }
        if let first = failures.withLock({ $0.min { $0.position < $1.position } }) { throw first.error }
    }

    // MARK: Audit

    public func verify(expectedHead: ChainHash?, progress: ((UInt64, UInt64) -> Void)?) throws -> VerificationReport {
        try read { snapshot in
            let report = try PostgresVerifier(reader: snapshot.reader, closingType: closingType).verify(expectedHead: expectedHead, progress: progress)
            guard report.isIntact, let problem = try TreeVerification.problem(in: snapshot) else { return report }
            return VerificationReport(eventsChecked: report.eventsChecked, head: report.head, problem: problem)
        }
    }

    // MARK: Keys and shredding

    /// The stream's key for sealing, made (and committed) on first use; refused for a stream that
    /// has events but no key (`missingKey`) or is closed (`streamShredded`).
    func sealingKey(for stream: StreamID) throws -> SymmetricKey {
        if let key = sealingKeys.withLock({ $0[stream] }) { return key }
        let key = try keyPool.with { link -> SymmetricKey in
            if let key = try liveKey(of: stream, link) { return key }
            if let row = try link.run("SELECT closed_at IS NOT NULL FROM reel_streams WHERE stream = \(stream.rawValue)").first {
                if try row.decode(Bool.self) { throw EventLogError.streamShredded(stream) }
                throw EventLogError.missingKey(stream)
            }
            let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
            try keyring.insert([(stream.rawValue, fresh)], at: SealedEvents.nowMicroseconds(), link)
            guard let key = try liveKey(of: stream, link) else { throw EventLogError.missingKey(stream) }
            return key
        }
        sealingKeys.withLock { $0[stream] = key }
        return key
    }

    /// Takes `key` as `stream`'s sealing key ahead of the commit that stores it (a move laying an
    /// account here with the key it has on another shard): what seals under it in the same
    /// transaction (the projections) must not look for the key on another connection, which
    /// would wait for this transaction's uncommitted row. The stream can have no other key here.
    func takeSealingKey(_ key: SymmetricKey, for stream: StreamID) {
        sealingKeys.withLock { $0[stream] = key }
    }

    /// `stream`'s live key, unwrapped; `nil` when it has none. `link` must not be in a
    /// transaction: a row read just before a rotation is read again.
    func liveKey(of stream: StreamID, _ link: PostgresLink) throws -> SymmetricKey? {
        for _ in 0..<3 {
            guard let row = try link.run("SELECT key, generation FROM reel_stream_keys WHERE stream = \(stream.rawValue)").first else { return nil }
            let (key, generation) = try row.decode((ByteBuffer, Int64?).self)
            do {
                return try keyring.unwrap(key, generation: generation, stream: stream.rawValue)
            } catch PostgresKeyring.UnwrapProblem.rotated {
                continue
            }
        }
        throw Failure(.temporary, "the keyring of the store \(location) rotated again and again while the key of \(stream) was read; try again")
    }

    public func prepareKey(for stream: StreamID) throws {
        _ = try sealingKey(for: stream)
    }

    public func shreddedStreams() throws -> Set<StreamID> {
        try pool.with { link in
            Set(
                try link.run(
                    """
                    SELECT stream FROM reel_streams s WHERE closed_at IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM reel_stream_keys k WHERE k.stream = s.stream)
                    """
                ).map { try StreamID(try $0.decode(String.self)) })
        }
    }

    @discardableResult
    public func completeShredding(step: (ShreddingStep) -> Void) throws -> [StreamID] {
        let destroyed = try pool.with { link in
            try link.transaction {
                let write = try PostgresWrite(store: self, link: link)
                return try write.finishPendingDestruction()
            }
        }
        if !destroyed.isEmpty { step(.committed) }
        sealingKeys.withLock { keys in for stream in destroyed { keys[stream] = nil } }
        let purged = try purgePending()
        if !purged.isEmpty {
            step(.keyStoreRewritten)
            step(.recorded)
        }
        return Array(Set(destroyed).union(purged)).sorted()
    }

    /// Purges what waits for it; whether it ran (else `purgeProblem` says why).
    @discardableResult
    func purgeNow() -> Bool {
        do {
            try purgePending()
            lastPurgeProblem.withLock { $0 = nil }
            return true
        } catch {
            lastPurgeProblem.withLock { $0 = (error as? any KindedError)?.summary ?? "\(error)" }
            return false
        }
    }

    /// Rotates the keyring when destroyed keys wait for it (`PostgresKeyring.rotate`), on a
    /// connection of its own; returns the streams it covered.
    @discardableResult
    func purgePending() throws -> [StreamID] {
        let waiting = try keyPool.with { link in
            try link.run("SELECT EXISTS (SELECT 1 FROM reel_streams WHERE purge_pending)").first?.decode(Bool.self) ?? false
        }
        guard waiting else { return [] }
        let link = try PostgresLink.open(location, id: 1)
        defer { link.close() }
        return try keyring.rotate(link)
    }

    // MARK: Data kept beside the log

    public func sealBlob(_ plaintext: [UInt8], for stream: StreamID, context: String) throws -> [UInt8] {
        try BlobSealing.seal(plaintext, stream: stream, context: context, key: try sealingKey(for: stream))
    }

    public func blobName(_ bytes: [UInt8], for stream: StreamID, context: String) throws -> String {
        BlobSealing.name(bytes, context: context, key: try sealingKey(for: stream))
    }

    public func sealBlobs(_ plaintexts: [[UInt8]], for stream: StreamID, context: String) throws -> [[UInt8]] {
        if plaintexts.isEmpty { return [] }
        return try BlobSealing.seal(all: plaintexts, stream: stream, context: context, key: try sealingKey(for: stream))
    }

    public func openBlobs(_ sealed: [[UInt8]], for stream: StreamID, context: String) throws -> [[UInt8]]? {
        if sealed.isEmpty { return [] }
        guard let key = try keyPool.with({ try liveKey(of: stream, $0) }) else { return nil }
        return try BlobSealing.open(all: sealed, stream: stream, context: context, key: key)
    }

    public func openBlob(_ sealed: RawSpan, for stream: StreamID, context: String) throws -> [UInt8]? {
        guard let key = try keyPool.with({ try liveKey(of: stream, $0) }) else { return nil }
        return try sealed.withUnsafeBytes { try BlobSealing.open($0, stream: stream, context: context, key: key) }
    }
}
