@_spi(Stores) import EventLog
import Failures
import Dispatch

/// Group commit for a PostgreSQL store (a `BatchQueue`): concurrent appends of this process
/// wait in a queue, and a serial queue of its own commits everything waiting in one transaction
/// (one round of `reel_head`'s lock and one durable commit for all), each caller getting its own
/// result or error as if it had appended alone. A request refused by its checks (expected
/// version, a duplicate id) leaves nothing behind, so the others go on; should the transaction
/// itself fail, each request is tried again alone, so one request's trouble is never another's —
/// unless the store could not be reached, which every request would meet again: then all get
/// that error at once (and once a request alone meets that or a time limit, the ones after it get
/// that error).
final class PostgresGroupCommitter: Sendable {
    private struct Request: Sendable {
        let sealed: SealedEvents
        let expected: ExpectedVersion
    }

    /// Requests committed together at most.
    static let maximumBatch = 256

    private let queue: BatchQueue<Request, AppendResult>

    /// Drained on a serial queue of its own (a write blocks its thread until the commit); weak:
    /// the store owns its committer.
    init(store: PostgresEventStore) {
        let writer = DispatchQueue(label: "reel-postgres-commit", qos: .userInitiated)
        queue = BatchQueue(
            schedule: { writer.async(execute: $0) },
            batchSize: { min($0.count, Self.maximumBatch) },
            commit: { [weak store] batch in
                guard let store else { throw Failure(.unavailable, "the store was closed") }
                return try store.write { w in
                    // Each is tried again alone should the transaction fail (`recover`).
                    try w.append(all: batch.map { ($0.sealed, $0.expected) }, idsChecked: batch.count == 1).map { $0.map(\.0) }
                }
            },
            recover: { error, batch, alone in
                // The store out of reach: every request would fail the same way alone, one
                // connection attempt after another, so each caller gets the batch's error at once
                // (an event retried with its id is stored once, should the commit have gone through).
                guard batch.count > 1, !Self.isSystemic(error, unavailableOnly: true) else { return batch.map { _ in .failure(error) } }
                // Else each alone. A time limit may be the batch's size, or the server's state:
                // once one request alone meets the store out of reach or a time limit too, the
                // rest get that error rather than one limit after another.
                var systemic: (any Error)?
                return batch.map { request in
                    if let systemic { return .failure(systemic) }
                    let result = alone(request)
                    if case .failure(let failure) = result, Self.isSystemic(failure, unavailableOnly: false) { systemic = failure }
                    return result
                }
            })
    }

    func submit(_ sealed: SealedEvents, expected: ExpectedVersion) async throws -> AppendResult {
        try await queue.submit(Request(sealed: sealed, expected: expected))
    }

    /// Whether `error` is the store's state rather than one request's: the server's or the
    /// connection's failure (`PostgresFailure`, never a request's own refusal such as a wrong
    /// expected version) that is out of reach (`.unavailable`) or, unless `unavailableOnly`, a
    /// time limit or lock wait (`.temporary`).
    private static func isSystemic(_ error: any Error, unavailableOnly: Bool) -> Bool {
        guard let failure = error as? Failure else { return false }
        return failure.kind == .unavailable || (!unavailableOnly && failure.kind == .temporary)
    }
}
