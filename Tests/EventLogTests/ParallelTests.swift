import EventLog
import Foundation
import Synchronization
import Testing

/// `Parallel.map` runs its lanes on Reel's own threads, wherever it is called from.
@Suite struct ParallelTests {
    @Test func resultsComeBackInOrderAndTheEarliestErrorWins() throws {
        struct Failed: Error, Equatable { let index: Int }
        let items = Array(0..<10_000)
        #expect(try Parallel.map(items, state: 0) { count, i in count += 1; return i * 2 } == items.map { $0 * 2 })
        #expect(throws: Failed(index: 4_000)) {
            try Parallel.map(items, state: ()) { _, i -> String in
                if i == 4_000 || i == 9_000 { throw Failed(index: i) }
                return String(i)  // a result to destroy when the call fails
            }
        }
    }

    /// Called while dispatch's threads are all busy (here: spinning blocks on a global queue, as a
    /// read-ahead and a Swift task were during a rebuild), every lane still gets a thread of its
    /// own: lanes that wait for each other finish instead of running one by one.
    @Test func lanesRunAtOnceWhileDispatchsThreadsAreBusy() async throws {
        let lanes = min(ProcessInfo.processInfo.activeProcessorCount, 4)
        guard lanes > 1 else { return }
        let arrived = Mutex(0)
        let finished = Mutex(false)
        defer { finished.withLock { $0 = true } }
        for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
            DispatchQueue.global().async {
                let deadline = Date().addingTimeInterval(5)
                while !finished.withLock({ $0 }), Date() < deadline {}
            }
        }
        let done: Bool = await withCheckedContinuation { continuation in
            Thread {
                // Each lane waits (up to 2 s, while the blocks spin for 5) until every lane has
                // started: only lanes that run at once get past the wait.
                let results = try? Parallel.map(Array(0..<(lanes * 300)), state: false) { started, _ -> Bool in
                    if !started {
                        started = true
                        arrived.withLock { $0 += 1 }
                    }
                    let deadline = Date().addingTimeInterval(2)
                    while arrived.withLock({ $0 }) < lanes, Date() < deadline { usleep(100) }
                    return arrived.withLock { $0 } >= lanes
                }
                finished.withLock { $0 = true }
                continuation.resume(returning: results?.allSatisfy { $0 } ?? false)
            }.start()
        }
        #expect(done)
    }

    @Test func aLaneThatSpreadsWorkOfItsOwnDoesNotWaitForever() throws {
        let sums = try Parallel.map(Array(0..<600), state: ()) { _, i in
            try Parallel.map(Array(0..<300), state: ()) { _, j in i + j }.reduce(0, +)
        }
        #expect(sums == (0..<600).map { i in (0..<300).reduce(0) { $0 + i + $1 } })
    }
}
