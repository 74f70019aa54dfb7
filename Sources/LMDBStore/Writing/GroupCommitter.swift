@_spi(Stores) import EventLog
import LMDB

/// Batches concurrent appenders into one write transaction: one commit (one fsync) for the group,
/// and each caller gets its own positions or its own error.
///
/// A `BatchQueue` drained on the environment's serial writer queue, batches of at most
/// `maximumBatchEvents` events; a request refused by its checks fails alone, a storage failure
/// fails the batch (each request then runs alone).
final class GroupCommitter: Sendable {
    private let queue: BatchQueue<AppendRequest, AppendResult>

    init(environment: Environment, writer: LedgerWriter, maximumBatchEvents: Int, committed: @escaping @Sendable () -> Void) {
        queue = BatchQueue(
            schedule: { environment.enqueueOnWriter($0) },
            batchSize: { requests in
                // As many as fit in `maximumBatchEvents` events (the first, however many it has).
                var taken = 0
                var events = 0
                while taken < requests.count && (taken == 0 || events + requests[taken].batch.count <= maximumBatchEvents) {
                    events += requests[taken].batch.count
                    taken += 1
                }
                return taken
            },
            commit: { batch in
                var results: [Result<AppendResult, any Error>] = []
                do {
                    try environment.write { txn in
                        results = []  // the closure is replayed after the map grows
                        var head = try writer.databases.head(txn)
                        var leaves: [TreeHash] = []
                        for request in batch {
                            do {
                                results.append(.success(try writer.append(request, txn, head: &head, leaves: &leaves)))
                            } catch let error as EventLogError {
                                if case .storage = error { throw error }
                                results.append(.failure(error))
                            }
                        }
                        try writer.writeHead(head, txn, leaves: leaves)
                    }
                } catch {
                    throw EventLogError.wrap(error)
                }
                committed()
                return results
            })
    }

    func submit(_ request: AppendRequest) async throws -> AppendResult {
        try await queue.submit(request)
    }
}
