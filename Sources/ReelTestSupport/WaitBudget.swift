/// The time a wait may take, counted only while the waiter was awake to look: each pause counts
/// as at most four times the pause asked for, so a waiter that the busy cooperative pool resumes
/// late does not lose its budget to the gap (see `waitFor`). A wall-clock ceiling of ten times
/// the budget still ends a wait that never sees its condition.
public struct WaitBudget {
    public let seconds: Double
    private let budget: Duration
    private let ceiling: ContinuousClock.Instant
    private var counted = Duration.zero

    public init(seconds: Double) {
        self.seconds = seconds
        budget = .milliseconds(Int(seconds * 1000))
        ceiling = .now + budget * 10
    }

    /// Whether the wait has had its time.
    public var isSpent: Bool { counted >= budget || ContinuousClock.now >= ceiling }

    /// Sleeps `pause` (off the thread) and counts it.
    public mutating func pause(_ pause: Duration = .milliseconds(50)) async throws {
        let asleep = ContinuousClock.now
        try await Task.sleep(for: pause)
        counted += min(ContinuousClock.now - asleep, pause * 4)
    }
}
