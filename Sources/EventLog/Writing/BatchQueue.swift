import Synchronization

/// Group commit, the one way Reel batches writes: concurrent callers queue up, and one drainer
/// commits a batch of their requests in one write transaction (one commit, one fsync), each
/// caller getting its own answer or its own error as if it had run alone. The log's appends
/// (`GroupCommitter`, PostgreSQL's `PostgresGroupCommitter`) and the account commands
/// (`CommandCommitter`) are its users.
///
/// The first caller to arrive while no batch is running schedules a drain (`schedule`: on a
/// serial queue, as a write transaction blocks its thread until the fsync); whoever arrives while
/// a batch commits joins the next one. `commit` runs one batch in one transaction and gives each
/// request's outcome; when it throws, the transaction failed as a whole and `recover` says what
/// each request gets: by default each runs again in a transaction of its own, so one bad request
/// cannot fail the others.
public final class BatchQueue<Request: Sendable, Answer: Sendable>: Sendable {
    public typealias Outcome = Result<Answer, any Error>

    /// What a batch whose transaction failed gives its callers: `error` the batch's failure,
    /// `alone` commits one request in a transaction of its own.
    public typealias Recovery = @Sendable (_ error: any Error, _ batch: [Request], _ alone: (Request) -> Outcome) -> [Outcome]

    private struct Pending {
        let request: Request
        let continuation: CheckedContinuation<Answer, any Error>
    }
    private struct State {
        var queue: [Pending] = []
        var draining = false
        /// Requests in the transaction being committed.
        var running = 0
    }

    /// A batch's transaction as `commitAhead` leaves it: committed, each request's outcome known;
    /// or its commit sent, the outcomes given once it is durable (`wait`: throws when the
    /// transaction failed as a whole, nothing of it committed).
    public enum Commitment {
        case committed([Outcome])
        case sent(wait: () throws -> [Outcome])
    }

    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let batchSize: @Sendable ([Request]) -> Int
    private let commitAhead: @Sendable ([Request]) throws -> Commitment
    private let pipelines: @Sendable ([Request]) -> Bool
    private let recover: Recovery
    private let state = Mutex(State())

    /// - Parameters:
    ///   - schedule: Runs a drain where writes run (a serial queue).
    ///   - batchSize: How many of the waiting requests (in arrival order, never none) the next
    ///     transaction takes.
    ///   - commit: Commits a batch in one transaction: each request's outcome, in order; throws
    ///     when the transaction failed as a whole (nothing of it was committed).
    ///   - recover: What each request of a failed batch gets (by default: each alone; a batch of
    ///     one gets the batch's error).
    public convenience init(
        schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        batchSize: @escaping @Sendable ([Request]) -> Int,
        commit: @escaping @Sendable ([Request]) throws -> [Outcome],
        recover: @escaping Recovery = BatchQueue.eachAlone
    ) {
        self.init(schedule: schedule, batchSize: batchSize, pipelines: { _ in false }, commitAhead: { .committed(try commit($0)) }, recover: recover)
    }

    /// A queue whose batches may commit in a pipeline: `commitAhead` runs a batch's transaction up
    /// to its commit and may return before the commit is durable (`Commitment.sent`); the next
    /// batch then begins at once if `pipelines` says it may (else the one before is answered
    /// first), and the callers of the one before get their answers once it is durable (its
    /// `wait`), in order, before those of the next. A batch that fails before its commit, or
    /// whose commit fails, is recovered as `recover` says (each alone).
    public init(
        schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        batchSize: @escaping @Sendable ([Request]) -> Int,
        pipelines: @escaping @Sendable ([Request]) -> Bool,
        commitAhead: @escaping @Sendable ([Request]) throws -> Commitment,
        recover: @escaping Recovery = BatchQueue.eachAlone
    ) {
        self.schedule = schedule
        self.batchSize = batchSize
        self.pipelines = pipelines
        self.commitAhead = commitAhead
        self.recover = recover
    }

    /// The default recovery: a batch of one gets its error; the requests of a larger batch each
    /// run again in a transaction of their own, unless the batch's commit may have been made
    /// (`CommitUnknown`): then each gets that error, as running one again could do it twice.
    public static var eachAlone: Recovery {
        { error, batch, alone in batch.count == 1 || error is CommitUnknown ? batch.map { _ in .failure(error) } : batch.map(alone) }
    }

    /// How many requests wait for the next transaction (a service's queue depth), and how many
    /// are in the ones being committed.
    public var load: (queued: Int, running: Int) { state.withLock { ($0.queue.count, $0.running) } }

    /// Commits `request` with whatever other requests are waiting; its answer once committed.
    public func submit(_ request: Request) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { s -> Bool in
                s.queue.append(Pending(request: request, continuation: continuation))
                if s.draining { return false }
                s.draining = true
                return true
            }
            if start { schedule { self.drain() } }
        }
    }

    /// Runs where `schedule` put it until no caller is waiting. At most one batch's commit is in
    /// flight while the next batch runs.
    private func drain() {
        var inFlight: (batch: [Pending], wait: () throws -> [Outcome])?
        /// Whether the last batch answered failed as a whole: the one sent behind it, begun from
        /// what it left, is answered before the next begins (should it have to run again, what
        /// its new run leaves is where the next begins).
        var failed = false
        /// Answers the batch in flight, if any.
        func land() {
            guard let sent = inFlight else { return }
            inFlight = nil
            failed = !answer(sent.batch, sent.wait)
        }
        while true {
            let flying = inFlight?.batch.count ?? 0
            let batch = state.withLock { s -> [Pending] in
                let taken = s.queue.isEmpty ? 0 : min(max(batchSize(s.queue.map(\.request)), 1), s.queue.count)
                let batch = Array(s.queue.prefix(taken))
                s.queue.removeFirst(taken)
                s.running = taken + flying
                if batch.isEmpty, flying == 0 { s.draining = false }
                return batch
            }
            if batch.isEmpty {
                guard inFlight != nil else { return }
                // Nobody waits: the batch in flight is answered, then the queue looked at again.
                land()
                continue
            }
            let requests = batch.map(\.request)
            if !pipelines(requests) || failed {
                land()
                // Nothing in flight now: this batch begins from what is committed.
                failed = false
            }
            let commitment: Commitment
            do {
                commitment = try commitAhead(requests)
            } catch {
                land()
                failed = !answer(batch) { throw error }
                continue
            }
            land()
            switch commitment {
            case .committed(let outcomes): answer(batch) { outcomes }
            case .sent(let wait): inFlight = (batch, wait)
            }
        }
    }

    /// Gives `batch`'s callers their outcomes once `wait` says them; should it throw (the
    /// transaction failed), `recover` says them, each alone committed before anything else.
    /// Returns whether the transaction committed.
    @discardableResult
    private func answer(_ batch: [Pending], _ wait: () throws -> [Outcome]) -> Bool {
        let requests = batch.map(\.request)
        let outcomes: [Outcome]
        var committed = true
        do {
            outcomes = try wait()
        } catch {
            committed = false
            outcomes = recover(error, requests) { request in
                // Begun from a memory another commit made stale (nothing committed), it runs
                // once more, from what the store holds.
                let alone = { Result { try Self.committed(try self.commitAhead([request])) }.flatMap { $0.first ?? .failure(error) } }
                let first = alone()
                if case .failure(let failure) = first, failure is StaleStart { return alone() }
                return first
            }
        }
        for (pending, outcome) in zip(batch, outcomes) { pending.continuation.resume(with: outcome) }
        return committed
    }

    /// The outcomes of a commitment, waited for.
    private static func committed(_ commitment: Commitment) throws -> [Outcome] {
        switch commitment {
        case .committed(let outcomes): return outcomes
        case .sent(let wait): return try wait()
        }
    }
}
