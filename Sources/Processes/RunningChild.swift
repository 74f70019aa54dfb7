#if canImport(Glibc)
public import Glibc
#endif
import Synchronization

/// A child process watched while it runs: how it ended is remembered once seen, since `waitpid`
/// reaps it (asked again, the kernel no longer knows it, and its status would be lost).
public final class RunningChild: Sendable {
    public let child: ChildProcess
    private let ended = Mutex<Termination?>(nil)

    public init(_ child: ChildProcess) {
        self.child = child
    }

    public var pid: pid_t { child.pid }

    /// How it ended, once it has; never waits.
    public var termination: Termination? {
        ended.withLock { ended in
            if ended == nil { ended = child.poll() }
            return ended
        }
    }

    /// Whether it still runs.
    public var isRunning: Bool { termination == nil }

    /// Waits for it to end, blocking this thread: how it ended.
    @discardableResult
    public func wait() -> Termination {
        ended.withLock { ended in
            if ended == nil { ended = child.wait() }
            return ended!
        }
    }

    /// Sends `signal` (SIGKILL unless told) while it runs.
    public func signal(_ signal: Int32 = SIGKILL) {
        if isRunning { child.signal(signal) }
    }
}
