import Foundation

/// Waits until `condition` holds, asking every 50 ms, for at most `seconds`; then fails, naming
/// `what` it waited for. A wait on a condition, never a fixed delay.
public func waitFor(_ what: String, seconds: Double = 30, _ condition: () async -> Bool) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !(await condition()) {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: what, seconds: seconds) }
        try await Task.sleep(for: .milliseconds(50))
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
