import Foundation
import Synchronization

/// A clock that moves only when the test moves it (`advance(to:)`), so what is paced by time is
/// checked without the wall clock. Sleepers wake, in deadline order, when it reaches their deadline.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Hashable, Sendable {
        public let offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [(deadline: Instant, wake: CheckedContinuation<Void, Never>)] = []
    }
    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many callers are asleep on the clock.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }
    /// The earliest deadline a sleeper waits for.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        await withCheckedContinuation { (wake: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard deadline > state.now else { return true }
                state.sleepers.append((deadline, wake))
                return false
            }
            if now { wake.resume() }
        }
    }

    /// Moves the clock to `instant` (never back) and wakes every sleeper whose deadline it reached.
    public func advance(to instant: Instant) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if instant > state.now { state.now = instant }
            let due = state.sleepers.filter { $0.deadline <= state.now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due.map(\.wake)
        }
        for wake in woken { wake.resume() }
    }
}
