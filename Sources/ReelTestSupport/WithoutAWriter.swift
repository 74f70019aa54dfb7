import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` (blocking work that opens the FIFO at `fifo` and must not wait for a writer to
/// come) on a thread of its own, and answers what it returned. No writer ever opens the FIFO
/// meanwhile, so a body that waits would wait for ever: `waitFor` gives up on it after `seconds`
/// (of looking), a writer then opens the FIFO so the body's open (or read) ends, and the wait is
/// thrown (without waiting for the body). What is checked is that the body returned with no writer there, never how long it took.
public func withoutAWriter<T: Sendable>(
    at fifo: String, seconds: Double = 60, _ body: @escaping @Sendable () throws -> T
) async throws -> T {
    let work = Task { try await offThread(body) }
    let finished = FinishedFlag()
    Task {
        _ = await work.result
        finished.raise()
    }
    do {
        try await waitFor("\(fifo) to be read without a writer (something waits for one)", seconds: seconds) { finished.isRaised }
    } catch {
        // A writer that comes and goes: a waiting open returns, a waiting read sees the end.
        let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if writer >= 0 { close(writer) }
        throw error
    }
    return try await work.value
}

/// Raised once, read from any thread.
private final class FinishedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    func raise() { lock.withLock { raised = true } }
    var isRaised: Bool { lock.withLock { raised } }
}
