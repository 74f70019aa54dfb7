/// Spaces request starts `1.02/rate` apart, so no window of one second ever holds more than
/// `rate` starts — also as the server counts arrivals: the 2% margin absorbs the jitter between
/// leaving here and arriving there (spaced exactly `1/rate`, the fake server counted 31 arrivals
/// in one second at 30/s). Callers take their turns in arrival order, and the spacing is kept
/// from when each one actually started: on a busy machine a caller wakes late, and the ones
/// behind it, woken on time, would otherwise start less than an interval after it (the fake
/// server counted 21 arrivals in one second at 20/s while the tests loaded both cores).
public actor RateLimiter {
    public nonisolated let requestsPerSecond: Double
    private let interval: Duration
    private var nextSlot: ContinuousClock.Instant
    /// When the last caller actually started.
    private var lastStart: ContinuousClock.Instant?
    private let clock = ContinuousClock()

    /// `requestsPerSecond` of `.infinity` (or ≤ 0) never waits.
    public init(requestsPerSecond: Double) {
        self.requestsPerSecond = requestsPerSecond
        if requestsPerSecond.isFinite && requestsPerSecond > 0 {
            interval = .nanoseconds(Int64((1.02e9 / requestsPerSecond).rounded(.up)))
        } else {
            interval = .zero
        }
        nextSlot = clock.now
    }

    /// Returns when the caller may start its request.
    public func acquire() async throws {
        guard interval > .zero else { return }
        let now = clock.now
        let slot = max(now, nextSlot)
        nextSlot = slot + interval
        if slot > now { try await Task.sleep(until: slot, clock: clock) }
        // Never sooner than an interval after the start before this one, however late that one woke.
        while let last = lastStart, clock.now < last + interval {
            try await Task.sleep(until: last + interval, clock: clock)
        }
        let started = clock.now
        lastStart = started
        nextSlot = max(nextSlot, started + interval)
    }
}
