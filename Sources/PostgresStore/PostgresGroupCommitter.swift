@_spi(Stores) import EventLog
import Failures
import Foundation

/// Group commit for a PostgreSQL store: concurrent appends of this process wait in a queue, and a
/// thread of its own commits everything waiting in one transaction (one round of `reel_head`'s
/// lock and one durable commit for all), each caller getting its own result or error as if it had
/// appended alone. A request refused by its checks (expected version, a duplicate id) leaves
/// nothing behind, so the others go on; should the transaction itself fail, each request is tried
/// again alone, so one request's trouble is never another's — unless the store could not be
/// reached or a time limit ended it, which every request would meet again: then all get that error.
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

    private func commit(_ batch: [Waiting]) {
        var results: [Result<AppendResult, any Error>] = []
        do {
            results = try store.write { w in
                try w.append(all: batch.map { ($0.sealed, $0.expected) }).map { $0.map(\.0) }
            }
        } catch {
            // The store out of reach, or a time limit: every request would fail the same way
            // alone, one limit after another, so each caller gets the batch's error at once (an
            // event retried with its id is stored once, should the commit have gone through).
            let everyones = [.unavailable, .temporary].contains((error as? any KindedError)?.kind)
            guard batch.count > 1, !everyones else {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
                return
            }
            for waiting in batch {
                waiting.continuation.resume(with: Result { try store.write { w in try w.append(waiting.sealed, expected: waiting.expected).0 } })
            }
            return
        }
        for (waiting, result) in zip(batch, results) { waiting.continuation.resume(with: result) }
    }
}
