import Foundation
import Synchronization

/// The threads that run the lanes of `Parallel.map` and of the verifier.
///
/// `DispatchQueue.concurrentPerform` gives a call only the pool threads dispatch thinks are free:
/// called from a thread dispatch already counts as busy (a read-ahead on a global queue, a Swift
/// task), it ran every lane on the calling thread, one after the other. These threads belong to
/// Reel, so a batch gets its lanes wherever it is called from. The caller runs the first lane
/// itself and, once done, takes back any lane no worker has started, so a nested call (a lane
/// that spreads work of its own) never waits on a lane nobody runs.
package final class LanePool: Sendable {
    package static let shared = LanePool(workers: Parallel.maximumLanes - 1)

    /// A lane waiting for a thread, and the batch it belongs to.
    private struct Job: @unchecked Sendable {
        let batch: Batch
        let lane: Int
    }

    /// One call's lanes: what they run, and how many are still running. The last lane to finish
    /// lets go of `body` before it signals, so the caller's closure never outlives the call (a
    /// worker may still hold the batch for a moment).
    private final class Batch: @unchecked Sendable {
        private var body: ((Int) -> Void)?
        private let remaining: Mutex<Int>
        let finished = DispatchSemaphore(value: 0)

        init(lanes: Int, body: @escaping (Int) -> Void) {
            self.body = body
            remaining = Mutex(lanes)
        }

        package func run(_ lane: Int) {
            body!(lane)
            if remaining.withLock({ $0 -= 1; return $0 }) == 0 {
                body = nil
                finished.signal()
            }
        }
    }

    private let pending = Mutex<[Job]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let workers: Int
    private let started = Mutex(false)

    init(workers: Int) {
        self.workers = max(0, workers)
    }

    /// Runs `body(0)` … `body(lanes - 1)`, spread over the calling thread and the pool's threads,
    /// and returns when every one has returned. `body(0)` always runs on the calling thread: callers
    /// rely on it for work bound to that thread (a write transaction, the verifier's read cursor).
    package func run(lanes: Int, _ body: (Int) -> Void) {
        guard lanes > 1, workers > 0 else {
            for lane in 0..<lanes { body(lane) }
            return
        }
        startWorkers()
        withoutActuallyEscaping(body) { body in
            let batch = Batch(lanes: lanes, body: body)
            pending.withLock { queue in
                for lane in 1..<lanes { queue.append(Job(batch: batch, lane: lane)) }
            }
            for _ in 1..<lanes { wake.signal() }
            batch.run(0)
            // Lanes no worker has taken yet run here.
            while let job = pending.withLock({ queue -> Job? in
                guard let index = queue.firstIndex(where: { $0.batch === batch }) else { return nil }
                return queue.remove(at: index)
            }) {
                job.batch.run(job.lane)
            }
            batch.finished.wait()
        }
    }

    private func startWorkers() {
        let start = started.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        guard start else { return }
        for index in 0..<workers {
            let thread = Thread { [self] in
                while true {
                    wake.wait()
                    if let job = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { job.batch.run(job.lane) }
                }
            }
            thread.name = "reel-lane-\(index + 1)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
