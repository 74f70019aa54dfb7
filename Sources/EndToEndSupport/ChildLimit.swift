import Foundation
import Testing

/// A bound on how many commands the tests run at once (`Harness.complete`). The harness waits
/// for a child off the concurrency pool, so nothing else bounds how many children the tests
/// start: unbounded, every test of the run starts its commands at once, hundreds of processes
/// share two cores and each test's own commands take minutes.
///
/// A place that comes free goes to the waiting command of the test that asked first: the tests
/// begun earliest go on and end, rather than every test taking one step in turn. In turn, a
/// test's commands came minutes apart when the run was busy, and a cached answer that lives five
/// minutes had expired between two commands of one test. A test waiting for a place holds no
/// thread.
package actor ChildLimit {
    /// Two a core: a child is mostly processor time (starting the binary); a write's fsync is
    /// the rest.
    package static let shared = ChildLimit(limit: 2 * ProcessInfo.processInfo.activeProcessorCount)

    package let limit: Int
    private var running = 0
    /// Each test's turn: the order in which the tests first asked for a place.
    private var turns: [String: Int] = [:]
    private var waiters: [(turn: Int, continuation: CheckedContinuation<Void, Never>)] = []

    package init(limit: Int) { self.limit = max(1, limit) }

    /// Runs `body` holding a place; the place is given back however `body` ends.
    package nonisolated func withPlace<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        let test = Test.current.map { "\($0.id)" } ?? ""
        await acquire(for: test)
        do {
            let value = try await body()
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }

    private func acquire(for test: String) async {
        let turn = turns[test] ?? turns.count
        turns[test] = turn
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiters.append((turn, $0)) }
    }

    /// Hands the place to the waiter whose test asked first, else frees it.
    private func release() {
        guard let first = waiters.indices.min(by: { waiters[$0].turn < waiters[$1].turn }) else {
            running -= 1
            return
        }
        waiters.remove(at: first).continuation.resume()
    }
}
