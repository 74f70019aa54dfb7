import Dispatch
import EventLog
import Failures
import Ledger
import Synchronization

/// The one way an account command reaches the log, from every face. Concurrent callers (an HTTP
/// service's requests) queue up (`submit`), and one drainer runs a batch of their commands in one
/// write transaction, so the batch shares one commit, one fsync; a command of a face that runs one
/// at a time (`reel fav add`, the terminal app) is a batch of one, committed on its caller's
/// thread (`commitAlone`), with the steps of a deletion told as they happen. Each command is decided on the state the ones before it in the batch left
/// (the transaction reads its own writes), its projections saved as it goes; each caller gets its
/// own report or its own error, as if it had run alone.
///
/// - A command that fails to decide (the domain refuses it: a deleted account, a key used for
///   another request) has written nothing: it fails alone and the batch goes on.
/// - A failure that breaks the transaction (storage, an append that failed midway, a failure
///   after a command's first write) aborts the batch; each of its commands then runs again in a
///   transaction of its own, so one bad command cannot fail the others. The queue is EventLog's
///   `BatchQueue`, as the log's own group commit of raw appends (`GroupCommitter`) is.
/// - Deleting an account and setting a photo run alone (`CommandRequest.runsAlone`).
///
/// The drainer runs on a serial queue of its own, never on the callers' tasks: a write
/// transaction blocks its thread until the fsync, and LMDB's single writer (shared with other
/// processes) serializes it with every other write of the ledger. On a store whose commit is a
/// round trip (PostgreSQL) batches commit in a pipeline (`writeAhead`): the next batch is decided
/// from the states the one before left while that one's commit is made durable, and each batch's
/// callers are answered once it is, in commit order.
final class CommandCommitter: Sendable {
    /// What a batch committed ahead left (`commitAhead`): where the store was left
    /// (`EventStoreWrite.leaves`), and the accounts' states.
    struct Left: Sendable {
        let leaves: UInt64
        let states: [StreamID: AccountState]
    }

    /// The last batch's `Left`, for the drainer's next batch.
    final class Box: Sendable {
        private let left = Mutex<Left?>(nil)
        func withLock<R>(_ body: (inout Left?) -> R) -> R { left.withLock { body(&$0) } }
    }

    /// At most this many commands share a transaction: a bound on the answer time of the first.
    static let defaultMaximumBatch = 256

    private let queue: BatchQueue<CommandRequest, CommandReport>
    /// What the last batch committed ahead left, for the next one.
    private let left = Box()
    private let service: AccountService
    private let committed: @Sendable (CommitFigures, [CommandReport]) -> Void

    /// `committed` is told of each committed transaction: its figures and the reports of its
    /// commands that succeeded (the accounts' states as committed), before any of its callers
    /// resumes.
    init(
        service: AccountService, maximumBatch: Int = defaultMaximumBatch,
        committed: @escaping @Sendable (CommitFigures, [CommandReport]) -> Void
    ) {
        self.service = service
        self.committed = committed
        let writer = DispatchQueue(label: "reel.command-commit", qos: .userInitiated)
        let maximum = max(1, maximumBatch)
        let left = self.left
        queue = BatchQueue(
            schedule: { writer.async(execute: $0) },
            batchSize: { Self.batchSize($0, maximum: maximum) },
            // A command that runs alone (a deletion, a photo) waits for the batch before it.
            pipelines: { !$0.contains(where: \.runsAlone) },
            commitAhead: { batch in try Self.commitAhead(batch, on: service, after: left, committed: committed) },
            recover: { error, batch, alone in
                // Begun from what a commit that did not count left (another process wrote
                // first, or the batch before failed): nothing of it was committed, and it runs
                // again as a whole, from what the store holds.
                guard error is StaleStart else { return BatchQueue.eachAlone(error, batch, alone) }
                left.withLock { $0 = nil }
                do {
                    return try Self.commit(batch, on: service, committed: committed)
                } catch {
                    return BatchQueue.eachAlone(error, batch, alone)
                }
            })
    }

    /// How many commands wait for the next transaction (a service's queue depth), and how many
    /// are in the one being committed.
    var load: (queued: Int, running: Int) { queue.load }

    /// Runs `request` with whatever other requests are waiting, durably committed on return.
    func submit(_ request: CommandRequest) async throws -> CommandReport {
        try await queue.submit(request)
    }

    /// Runs `request` alone, now, on the caller's thread: a batch of one, in a write transaction of
    /// its own, told to `committed` as a batch is. `step` is told of a deletion's steps (the key
    /// store's replacement, the commit, the purge) as they happen.
    func commitAlone(_ request: CommandRequest, step: (DeletionStep) -> Void = { _ in }) throws -> CommandReport {
        // The states a batch in flight left are not what the next batch starts from after this
        // (a deletion's account among them stays nowhere).
        defer { left.withLock { $0 = nil } }
        return try Self.commitAlone(request, on: service, step: step, committed: committed)
    }

    /// The same on `service`, for a caller with no committer (nothing to tell of the commit).
    static func commitAlone(
        _ request: CommandRequest, on service: AccountService, step: (DeletionStep) -> Void = { _ in },
        committed: @Sendable (CommitFigures, [CommandReport]) -> Void = { _, _ in }
    ) throws -> CommandReport {
        try commit([request], on: service, step: step, committed: committed)[0].get()
    }

    /// How many of the waiting `requests` (in arrival order) the next transaction takes: one that
    /// runs alone on its own, else the ones up to the next that runs alone, at most `maximum`.
    static func batchSize(_ requests: [CommandRequest], maximum: Int) -> Int {
        guard let first = requests.first else { return 0 }
        if first.runsAlone { return 1 }
        return requests.prefix(maximum).prefix { !$0.runsAlone }.count
    }

    /// Runs `batch` in one write transaction of `service`'s log: each command planned on the
    /// state the ones before it left and carried out; throws when the transaction broke. `step`
    /// is told of a deletion's steps (a deletion runs alone).
    private static func commit(
        _ batch: [CommandRequest], on service: AccountService, step: (DeletionStep) -> Void = { _ in },
        committed: @Sendable (CommitFigures, [CommandReport]) -> Void
    ) throws -> [Result<CommandReport, any Error>] {
        let started = ContinuousClock.now
        let (results, events, _) = try service.log.write(shredding: { step(.init($0)) }) { w in try run(batch, on: service, w, step: step) }
        return settled(batch, results, events: events, since: started, on: service, committed: committed)
    }

    /// The same, for the queue: a batch of commands that may share a transaction is committed in
    /// a pipeline (`writeAhead`: the next batch is decided while this one commits, on a store
    /// whose commit is a round trip), its callers answered once it is durable. A batch with a
    /// command that runs alone commits before returning.
    ///
    /// The batch before it may still be committing: its accounts' states are not remembered yet
    /// (`AccountStates`), so what it left (`left`) is where this batch begins deciding, when the
    /// store says this transaction began where that one left it (`EventStoreWrite.origin`).
    private static func commitAhead(
        _ batch: [CommandRequest], on service: AccountService, after left: Box,
        committed: @escaping @Sendable (CommitFigures, [CommandReport]) -> Void
    ) throws -> BatchQueue<CommandRequest, CommandReport>.Commitment {
        guard !batch.contains(where: \.runsAlone) else {
            left.withLock { $0 = nil }
            return .committed(try commit(batch, on: service, committed: committed))
        }
        let started = ContinuousClock.now
        let before = left.withLock { $0 }
        let ((results, events, states, leaves), wait) = try service.log.writeAhead { w in
            var from: [StreamID: AccountState] = [:]
            if let before, w.origin == before.leaves { from = before.states }
            let (results, events, states) = try run(batch, on: service, w, from: from)
            return (results, events, states, w.leaves)
        }
        left.withLock { $0 = leaves.map { Left(leaves: $0, states: states) } }
        guard let wait else { return .committed(settled(batch, results, events: events, since: started, on: service, committed: committed)) }
        return .sent(wait: {
            try wait()
            return settled(batch, results, events: events, since: started, on: service, committed: committed)
        })
    }

    /// What a committed batch's transaction did, told: the states remembered, the caches of a
    /// deleted account forgotten, `committed` called; its outcomes.
    private static func settled(
        _ batch: [CommandRequest], _ results: [Result<CommandReport, any Error>], events: Int, since started: ContinuousClock.Instant,
        on service: AccountService, committed: @Sendable (CommitFigures, [CommandReport]) -> Void
    ) -> [Result<CommandReport, any Error>] {
        let elapsed = (ContinuousClock.now - started).components
        let figures = CommitFigures(
            commands: batch.count, events: events, seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        service.states.remember(results.lazy.compactMap { try? $0.get() })
        for case .success(let report) in results { service.forgetCachesIfDeleted(report) }
        committed(figures, results.compactMap { try? $0.get() })
        return results
    }

    /// The batch's commands in the write transaction `w`: each one's outcome, the events
    /// appended, and the states of the accounts its commands changed. Runs again from the start
    /// should the store run the transaction again.
    private static func run(
        _ batch: [CommandRequest], on service: AccountService, _ w: some EventStoreWrite, from states: [StreamID: AccountState] = [:],
        step: (DeletionStep) -> Void = { _ in }
    ) throws -> ([Result<CommandReport, any Error>], Int, [StreamID: AccountState]) {
        var events = 0
        var changed: [StreamID: AccountState] = [:]
        try service.catchUp(w)
        if batch.count > 1 { try service.prefetch(batch, w) }
        // The states the batch's commands leave, for the next command on the same account
        // (from the states the batch before left, where this one began from it).
        var decided = states
        var outcomes = [Result<CommandReport, any Error>?](repeating: nil, count: batch.count)
        // Appends planned and not yet made: made together (`append(batch:)`: on PostgreSQL one
        // read at most, the rows going with the transaction's last statement), then each
        // one's projections, in the batch's order. Each command is tried again alone should
        // the transaction fail (`BatchQueue`'s recovery), so the store may leave an id stored
        // already to its unique index. A batch of one takes the same way when its request has
        // no idempotency key: its events' ids are new (`newEventID`), so no stored event has
        // them, and its append need not read the store to check (on PostgreSQL that read sent
        // the transaction's `BEGIN` and lock and waited for them, where the batch is otherwise
        // one statement). A keyed one, alone, is appended checking its ids (`carryOut`).
        var pending: [(index: Int, plan: CommandPlan.Appending)] = []
        func settle(_ index: Int, _ report: CommandReport) {
            if !report.replayed { events += report.appended.count }
            if !report.replayed, let stream = report.stream {
                decided[stream] = report.state
                changed[stream] = report.state
            }
            outcomes[index] = .success(report)
        }
        func flush() throws {
            guard !pending.isEmpty else { return }
            let planned = pending
            pending = []
            let appended = try w.append(
                batch: planned.map { AppendRequest(events: $0.plan.proposed, to: $0.plan.stream, expected: $0.plan.expected) }, checkingIDs: false)
            for ((index, plan), result) in zip(planned, appended) {
                switch result {
                case .success(let recorded): settle(index, try service.project(plan, recorded: recorded, w, step: step))
                case .failure(let refused):
                    if Self.breaksTransaction(refused) { throw refused }
                    outcomes[index] = .failure(refused)
                }
            }
        }
        for (index, request) in batch.enumerated() {
            // A command on an account with an append pending is decided on what that left.
            if pending.contains(where: { $0.plan.request.handle == request.handle }) { try flush() }
            let plan: CommandPlan
            do {
                plan = try service.plan(request, w, decided: decided)
            } catch where !Self.breaksTransaction(error) {
                outcomes[index] = .failure(error)
                continue
            }
            if case .append(let appending) = plan, appending.joinsBatch, batch.count > 1 || request.key == nil {
                pending.append((index, appending))
                continue
            }
            try flush()
            settle(index, try service.carryOut(plan, w, step: step))
        }
        try flush()
        return (outcomes.map { $0! }, events, changed)
    }

    /// Whether a failure to decide a command must abort its transaction rather than fail the
    /// command alone: the store failing (its transaction may be unusable), or an error that does
    /// not say what it is.
    static func breaksTransaction(_ error: any Error) -> Bool {
        guard let kinded = error as? any KindedError else { return true }
        return kinded.kind == .storage || kinded.kind == .noSpace
    }
}
