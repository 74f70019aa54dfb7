import Catalog
import Synchronization
import Testing

/// Callers of the same key and result type share one run; the same key asked for another type
/// is another flight (it was one flight whose result was force-cast to each caller's type).
@Suite struct SingleFlightTests {
    /// A count shared with flights' work.
    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// A gate a flight's work waits at until the test opens it.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    @Test func callersOfOneKeyAndTypeShareOneRun() async throws {
        let flights = SingleFlight()
        let gate = Gate()
        let runs = Counter()
        let joins = Counter()
        let first = Task {
            try await flights.run("/movie/603") {
                runs.add()
                await gate.wait()
                return "The Matrix"
            }
        }
        while runs.value == 0 { await Task.yield() }
        let second = Task {
            try await flights.run("/movie/603", onJoin: { joins.add() }) {
                runs.add()
                return "another run"
            }
        }
        while joins.value == 0 { await Task.yield() }
        gate.open()
        #expect(try await first.value == "The Matrix")
        #expect(try await second.value == "The Matrix")
        #expect(runs.value == 1)
    }

    @Test func anotherTypeOfTheSameKeyIsAnotherFlight() async throws {
        let flights = SingleFlight()
        let gate = Gate()
        let started = Counter()
        let joins = Counter()
        let details = Task {
            try await flights.run("/movie/603") {
                started.add()
                await gate.wait()
                return "The Matrix"
            }
        }
        while started.value == 0 { await Task.yield() }
        // While the string flight is in the air: the same key, an Int result.
        let runtime = try await flights.run("/movie/603", onJoin: { joins.add() }) { 136 }
        gate.open()
        #expect(runtime == 136)
        #expect(try await details.value == "The Matrix")
        #expect(joins.value == 0)
    }
}
