import EventLog
import Foundation
import ReelTestSupport
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
        let meeting = LaneMeeting()
        defer { meeting.end() }
        // Dispatch's threads spin until the lanes have met (or the test gave up on them), and no
        // longer: spinning past the meeting took two cores from the rest of a test run.
        for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
            DispatchQueue.global().async { while !meeting.isOver && meeting.arrived < lanes {} }
        }
        let results = Task.detached {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                Thread {
                    // Each lane waits until every lane has started: only lanes that run at once
                    // get past the wait (lanes run one by one would wait for ever; the test
                    // ends their wait when it gives up).
                    let results = try? Parallel.map(Array(0..<(lanes * 300)), state: false) { started, _ -> Bool in
                        if !started {
                            started = true
                            meeting.arrive()
                        }
                        return meeting.waitForAll(lanes)
                    }
                    continuation.resume(returning: results?.allSatisfy { $0 } ?? false)
                }.start()
            }
        }
        do {
            try await waitFor("all \(lanes) lanes to run at once") { meeting.arrived >= lanes }
        } catch {
            meeting.end()
            _ = await results.value
            throw error
        }
        #expect(await results.value)
    }

    /// Where the lanes meet: each arrives, then waits until all have, or until the meeting ends.
    final class LaneMeeting: Sendable {
        private let condition = NSCondition()
        private let state = Mutex((arrived: 0, over: false))

        var arrived: Int { state.withLock { $0.arrived } }
        var isOver: Bool { state.withLock { $0.over } }

        func arrive() {
            condition.lock()
            state.withLock { $0.arrived += 1 }
            condition.broadcast()
            condition.unlock()
        }

        /// Whether `lanes` arrived (false when the meeting ended first).
        func waitForAll(_ lanes: Int) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while true {
                let (arrived, over) = state.withLock { ($0.arrived, $0.over) }
                if arrived >= lanes { return true }
                if over { return false }
                condition.wait()
            }
        }

        func end() {
            condition.lock()
            state.withLock { $0.over = true }
            condition.broadcast()
            condition.unlock()
        }
    }

    @Test func aLaneThatSpreadsWorkOfItsOwnDoesNotWaitForever() throws {
        let sums = try Parallel.map(Array(0..<600), state: ()) { _, i in
            try Parallel.map(Array(0..<300), state: ()) { _, j in i + j }.reduce(0, +)
        }
        #expect(sums == (0..<600).map { i in (0..<300).reduce(0) { $0 + i + $1 } })
    }
}
