import LMDB
import Synchronization

/// Batches concurrent appenders into one write transaction: one commit (one fsync) for the group,
/// and each caller gets its own positions or its own error.
///
/// The first caller to arrive while no batch is running schedules a drain on the environment's
/// serial writer queue; whoever arrives while a batch commits joins the next one.
final class GroupCommitter: Sendable {
    private struct Pending {
        let request: AppendRequest
        let continuation: CheckedContinuation<AppendResult, any Error>
    }
    private struct State {
        var queue: [Pending] = []
        var draining = false
    }

    private let environment: Environment
    private let writer: LedgerWriter
    private let maximumBatchEvents: Int
    private let committed: @Sendable () -> Void
    private let state = Mutex(State())

    init(environment: Environment, writer: LedgerWriter, maximumBatchEvents: Int, committed: @escaping @Sendable () -> Void) {
        self.environment = environment
        self.writer = writer
        self.maximumBatchEvents = maximumBatchEvents
        self.committed = committed
    }

    func submit(_ request: AppendRequest) async throws -> AppendResult {
        try await withCheckedThrowingContinuation { continuation in
            let schedule = state.withLock { s -> Bool in
                s.queue.append(Pending(request: request, continuation: continuation))
                if s.draining { return false }
                s.draining = true
                return true
            }
            if schedule { environment.enqueueOnWriter { self.drain() } }
        }
    }

    /// Runs on the writer queue until no caller is waiting.
    private func drain() {
        while true {
            let batch = state.withLock { s -> [Pending] in
                var taken = 0
                var events = 0
                while taken < s.queue.count && (taken == 0 || events + s.queue[taken].request.batch.count <= maximumBatchEvents) {
                    events += s.queue[taken].request.batch.count
                    taken += 1
                }
                let batch = Array(s.queue.prefix(taken))
                s.queue.removeFirst(taken)
                if batch.isEmpty { s.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            commit(batch)
        }
    }

    private func commit(_ batch: [Pending]) {
        var results: [Result<AppendResult, EventLogError>] = []
        do {
            try environment.write { txn in
                results = []  // the closure is replayed after the map grows
                var head = try writer.databases.head(txn)
                for pending in batch {
                    do {
                        results.append(.success(try writer.append(pending.request, txn, head: &head)))
                    } catch let error as EventLogError {
                        if case .storage = error { throw error }
                        results.append(.failure(error))
                    }
                }
                try writer.writeHead(head, txn)
            }
        } catch {
            if batch.count == 1 {
                batch[0].continuation.resume(throwing: EventLogError.wrap(error))
            } else {
                // A storage failure aborted the whole group: give each caller its own transaction,
                // so one bad request cannot fail the others.
                for pending in batch { commit([pending]) }
            }
            return
        }
        committed()
        for (pending, result) in zip(batch, results) {
            pending.continuation.resume(with: result.mapError { $0 as any Error })
        }
    }
}
