import Dispatch
import EventLog
import Failures
import Ledger
import Synchronization

/// Group commit of account commands: concurrent callers (an HTTP service's requests) queue up, and
/// one drainer runs a batch of their commands in one write transaction, so the batch shares one
/// commit, one fsync. Each command is decided on the state the ones before it in the batch left
/// (the transaction reads its own writes), its projections saved as it goes; each caller gets its
/// own report or its own error, as if it had run alone.
///
/// - A command that fails to decide (the domain refuses it: a deleted account, a key used for
///   another request) has written nothing: it fails alone and the batch goes on.
/// - A failure that breaks the transaction (storage, an append that failed midway, a failure
///   after a command's first write) aborts the batch; each of its commands then runs again in a
///   transaction of its own, so one bad command cannot fail the others. This mirrors the log's
///   own group commit of raw appends (EventLog's `GroupCommitter`).
/// - Deleting an account and setting a photo run alone (`CommandRequest.runsAlone`).
///
/// The drainer runs on a serial queue of its own, never on the callers' tasks: a write
/// transaction blocks its thread until the fsync, and LMDB's single writer (shared with other
/// processes) serializes it with every other write of the ledger.
final class CommandCommitter: Sendable {
    private struct Pending {
        let request: CommandRequest
        let continuation: CheckedContinuation<CommandReport, any Error>
    }
    private struct State {
        var queue: [Pending] = []
        var draining = false
        /// Commands in the transaction being committed.
        var running = 0
    }

    /// At most this many commands share a transaction: a bound on the answer time of the first.
    static let defaultMaximumBatch = 256

    private let service: AccountService
    private let maximumBatch: Int
    /// Told of each committed transaction: its figures and the reports of its commands that
    /// succeeded (the accounts' states as committed), before any of its callers resumes.
    private let committed: @Sendable (CommitFigures, [CommandReport]) -> Void
    private let writer = DispatchQueue(label: "reel.command-commit", qos: .userInitiated)
    private let state = Mutex(State())

    init(
        service: AccountService, maximumBatch: Int = defaultMaximumBatch,
        committed: @escaping @Sendable (CommitFigures, [CommandReport]) -> Void
    ) {
        self.service = service
        self.maximumBatch = max(1, maximumBatch)
        self.committed = committed
    }

    /// How many commands wait for the next transaction (a service's queue depth), and how many
    /// are in the one being committed.
    var load: (queued: Int, running: Int) { state.withLock { ($0.queue.count, $0.running) } }

    /// Runs `request` with whatever other requests are waiting, durably committed on return.
    func submit(_ request: CommandRequest) async throws -> CommandReport {
        try await withCheckedThrowingContinuation { continuation in
            let schedule = state.withLock { s -> Bool in
                s.queue.append(Pending(request: request, continuation: continuation))
                if s.draining { return false }
                s.draining = true
                return true
            }
            if schedule { writer.async { self.drain() } }
        }
    }

    /// Runs on the writer queue until no caller is waiting.
    private func drain() {
        while true {
            let batch = state.withLock { s -> [Pending] in
                let taken = Self.batchSize(s.queue.map(\.request), maximum: maximumBatch)
                let batch = Array(s.queue.prefix(taken))
                s.queue.removeFirst(taken)
                s.running = taken
                if batch.isEmpty { s.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            commit(batch)
        }
    }

    /// How many of the waiting `requests` (in arrival order) the next transaction takes: one that
    /// runs alone on its own, else the ones up to the next that runs alone, at most `maximum`.
    static func batchSize(_ requests: [CommandRequest], maximum: Int) -> Int {
        guard let first = requests.first else { return 0 }
        if first.runsAlone { return 1 }
        return requests.prefix(maximum).prefix { !$0.runsAlone }.count
    }

    private func commit(_ batch: [Pending]) {
        let started = ContinuousClock.now
        var results: [Result<CommandReport, any Error>] = []
        var events = 0
        do {
            try service.log.write { w in
                // The body runs again when the map grows: everything it makes is made afresh.
                results = []
                events = 0
                try service.catchUp(w)
                if batch.count > 1 { try service.prefetch(batch.map(\.request), w) }
                // The states the batch's commands leave, for the next command on the same account.
                var decided: [StreamID: AccountState] = [:]
                for pending in batch {
                    let plan: CommandPlan
                    do {
                        plan = try service.plan(pending.request, w, decided: decided)
                    } catch where !Self.breaksTransaction(error) {
                        results.append(.failure(error))
                        continue
                    }
                    let report = try service.carryOut(plan, w, step: { _ in })
                    if !report.replayed { events += report.appended.count }
                    if !report.replayed, let stream = report.stream { decided[stream] = report.state }
                    results.append(.success(report))
                }
            }
        } catch {
            if batch.count == 1 {
                batch[0].continuation.resume(throwing: error)
            } else {
                // The whole batch was rolled back: give each command its own transaction, so the
                // one that broke it fails alone.
                for pending in batch { commit([pending]) }
            }
            return
        }
        let elapsed = (ContinuousClock.now - started).components
        let figures = CommitFigures(
            commands: batch.count, events: events, seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        service.recent.remember(results.lazy.compactMap { try? $0.get() })
        committed(figures, results.compactMap { try? $0.get() })
        for (pending, result) in zip(batch, results) {
            pending.continuation.resume(with: result)
        }
    }

    /// Whether a failure to decide a command must abort its transaction rather than fail the
    /// command alone: the store failing (its transaction may be unusable), or an error that does
    /// not say what it is.
    static func breaksTransaction(_ error: any Error) -> Bool {
        guard let kinded = error as? any KindedError else { return true }
        return kinded.kind == .storage || kinded.kind == .noSpace
    }
}
