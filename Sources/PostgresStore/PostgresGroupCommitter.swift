@_spi(Stores) import EventLog
import Failures
import Foundation

/// Group commit for a PostgreSQL store: concurrent appends of this process wait in a queue, and a
/// thread of its own commits everything waiting in one transaction (one round of `reel_head`'s
/// lock and one durable commit for all), each caller getting its own result or error as if it had
/// appended alone. A request refused by its checks (expected version, a duplicate id) leaves
/// nothing behind, so the others go on; should the transaction itself fail, each request is tried
/// again alone, so one request's trouble is never another's — unless the store could not be
/// reached, which every request would meet again: then all get that error at once (and once a
/// request alone meets that or a time limit, the ones after it get that error).
final class PostgresGroupCommitter: @unchecked Sendable {
    private struct Waiting {
        let sealed: SealedEvents
        let expected: ExpectedVersion
        let continuation: CheckedContinuation<AppendResult, any Error>
    }

    private unowned let store: PostgresEventStore
    private let condition = NSCondition()
    private var queue: [Waiting] = []
    private var stopped = false
    /// Requests committed together at most.
    static let maximumBatch = 256

    init(store: PostgresEventStore) {
        self.store = store
        let thread = Thread { [weak self] in self?.run() }
        thread.name = "reel-postgres-commit"
        thread.start()
    }

    func submit(_ sealed: SealedEvents, expected: ExpectedVersion) async throws -> AppendResult {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            queue.append(Waiting(sealed: sealed, expected: expected, continuation: continuation))
            condition.signal()
            condition.unlock()
        }
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopped { condition.wait() }
            if queue.isEmpty && stopped {
                condition.unlock()
                return
            }
            let batch = Array(queue.prefix(Self.maximumBatch))
            queue.removeFirst(batch.count)
            condition.unlock()
            commit(batch)
        }
    }

    /// Whether `error` is the store's state rather than one request's: the server's or the
    /// connection's failure (`PostgresFailure`, never a request's own refusal such as a wrong
    /// expected version) that is out of reach (`.unavailable`) or, unless `unavailableOnly`, a
    /// time limit or lock wait (`.temporary`).
    private static func isSystemic(_ error: any Error, unavailableOnly: Bool) -> Bool {
        guard let failure = error as? Failure else { return false }
        return failure.kind == .unavailable || (!unavailableOnly && failure.kind == .temporary)
    }

    private func commit(_ batch: [Waiting]) {
        var results: [Result<AppendResult, any Error>] = []
        do {
            results = try store.write { w in
                try w.append(all: batch.map { ($0.sealed, $0.expected) }).map { $0.map(\.0) }
            }
        } catch {
            // The store out of reach: every request would fail the same way alone, one
            // connection attempt after another, so each caller gets the batch's error at once (an
            // event retried with its id is stored once, should the commit have gone through).
            guard batch.count > 1, !Self.isSystemic(error, unavailableOnly: true) else {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
                return
            }
            // Else each alone. A time limit may be the batch's size, or the server's state: once
            // one request alone meets the store out of reach or a time limit too, the rest get
            // that error rather than one limit after another.
            var systemic: (any Error)?
            for waiting in batch {
                if let systemic {
                    waiting.continuation.resume(throwing: systemic)
                    continue
                }
                let result = Result { try store.write { w in try w.append(waiting.sealed, expected: waiting.expected).0 } }
                if case .failure(let failure) = result, Self.isSystemic(failure, unavailableOnly: false) { systemic = failure }
                waiting.continuation.resume(with: result)
            }
            return
        }
        for (waiting, result) in zip(batch, results) { waiting.continuation.resume(with: result) }
    }
}
