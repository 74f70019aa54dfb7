/// Spaces request starts `1.02/rate` apart, so no window of one second ever holds more than
/// `rate` starts — also as the server counts arrivals: the 2% margin absorbs the jitter between
/// leaving here and arriving there (spaced exactly `1/rate`, the fake server counted 31 arrivals
/// in one second at 30/s). Callers wait their turn in arrival order.
public actor RateLimiter {
    public nonisolated let requestsPerSecond: Double
    private let interval: Duration
    private var nextSlot: ContinuousClock.Instant
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
    }
}
