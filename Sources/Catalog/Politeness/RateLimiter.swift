/// Spaces request starts `1.02/rate` apart, so no window of one second ever holds more than
/// `rate` starts — also as the server counts arrivals: the 2% margin absorbs the jitter between
/// leaving here and arriving there (spaced exactly `1/rate`, the fake server counted 31 arrivals
/// in one second at 30/s). Callers take their turns in arrival order, and the spacing is kept
/// from when each one actually started: on a busy machine a caller wakes late, and the ones
/// behind it, woken on time, would otherwise start less than an interval after it (the fake
/// server counted 21 arrivals in one second at 20/s while the tests loaded both cores).
///
/// Paced by `clock` (the continuous clock; a test gives it a clock it moves itself, so the spacing
/// is checked without the wall clock).
public actor RateLimiter<C: Clock> where C.Duration == Duration {
    public nonisolated let requestsPerSecond: Double
    /// The interval kept between starts (1.02/rate).
    public nonisolated let interval: Duration
    private var nextSlot: C.Instant
    /// When the last caller actually started.
    private var lastStart: C.Instant?
    private let clock: C

    /// `requestsPerSecond` of `.infinity` (or ≤ 0) never waits.
    public init(requestsPerSecond: Double, clock: C) {
        self.requestsPerSecond = requestsPerSecond
        self.clock = clock
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
        nextSlot = slot.advanced(by: interval)
        if slot > now { try await clock.sleep(until: slot, tolerance: nil) }
        // Never sooner than an interval after the start before this one, however late that one woke.
        while let last = lastStart, clock.now < last.advanced(by: interval) {
            try await clock.sleep(until: last.advanced(by: interval), tolerance: nil)
        }
        let started = clock.now
        lastStart = started
        nextSlot = max(nextSlot, started.advanced(by: interval))
    }
}

extension RateLimiter where C == ContinuousClock {
    /// A limiter on the continuous clock.
    public init(requestsPerSecond: Double) {
        self.init(requestsPerSecond: requestsPerSecond, clock: ContinuousClock())
    }
}
