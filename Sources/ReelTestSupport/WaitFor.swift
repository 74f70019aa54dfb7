import Foundation

/// Waits until `condition` holds, asking every 50 ms, for at most `seconds`; then fails, naming
/// `what` it waited for. A wait on a condition, never a fixed delay.
///
/// The time counted is time this waiter was awake to look: each pause counts as at most four
/// times the 50 ms asked for. In a full test run the two threads of the cooperative pool are
/// often held for minutes by tests that wait for processes; a waiter (and the task it waits on)
/// may then resume only after that. Counted in wall time, one such gap used the whole budget, and
/// the condition, asked once after it, failed before the other task had had its turn (issue 41:
/// a client test "timed out after 30 s" 7 minutes into a run it passes alone). A condition that
/// never holds still fails, after at least `seconds` (and at most ten times as long).
public func waitFor(_ what: String, seconds: Double = 30, _ condition: () async -> Bool) async throws {
    var budget = WaitBudget(seconds: seconds)
    while !(await condition()) {
        guard !budget.isSpent else { throw WaitTimedOut(what: what, seconds: seconds) }
        try await budget.pause()
    }
}

/// A condition that did not hold in time.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let what: String
    public let seconds: Double
    public var description: String { "timed out after \(seconds) s waiting for \(what)" }

    public init(what: String, seconds: Double) {
        self.what = what
        self.seconds = seconds
    }
}
