#if canImport(Glibc)
public import Glibc
#endif
import Foundation

/// A program started with `posix_spawn` and waited for with `waitpid`: the one way Reel, its
/// benchmarks and its tests start a process.
///
/// What the child gets, whatever the thread that starts it: every signal unblocked and at its
/// default (the test runtime blocks SIGHUP, SIGINT and SIGTERM, and a tmux server that inherited
/// that mask ignored `kill-server`); no descriptor of this process's but the three it is given
/// (a server that outlived its command kept a test runner's pipe open, and the runner waited);
/// standard input from /dev/null unless it is given one.
///
/// Waiting never runs a run loop (Foundation's `Process.waitUntilExit` polls one, and added 5–20
/// ms to a 20 ms command) and never blocks a thread of Swift's concurrency pool: `exit()` waits
/// on a thread of its own, so a test waiting for a child leaves the pool's threads (two on a
/// 2-core machine) to the tests beside it.
public struct ChildProcess: Sendable {
    public let pid: pid_t
    /// When it was started (when this value was made, for a process started elsewhere).
    public let started: ContinuousClock.Instant

    /// Starts `arguments` (a path, or a name looked up in `PATH`) with `environment` (this
    /// process's when nil), its three standard descriptors set up as given and `more` as its
    /// descriptors 3, 4, …, in a session of its own when `newSession` (its standard input then
    /// opened after `setsid`: a terminal becomes its controlling terminal), in `directory` (this
    /// process's when nil; a relative path in `arguments` or a redirection is taken from there).
    public static func spawn(
        _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil, standardInput: Redirection = .null,
        standardOutput: Redirection = .null, standardError: Redirection = .null, more: [Redirection] = [],
        newSession: Bool = false
    ) throws(SpawnFailure) -> ChildProcess {
        guard let program = arguments.first else { throw SpawnFailure(program: "", code: EINVAL) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let directory {
            guard let addChdir = Self.addChdir else { throw SpawnFailure(program: program, code: ENOSYS) }
            let code = addChdir(&actions, directory)
            guard code == 0 else { throw SpawnFailure(program: program, code: code) }
        }
        for (descriptor, redirection) in ([standardInput, standardOutput, standardError] + more).enumerated() {
            redirection.add(to: &actions, as: Int32(descriptor))
        }
        Self.closeFrom(Int32(3 + more.count), &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID (glibc 2.26), which the Glibc module lacks
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (newSession ? setsid : 0)))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in argv + (envp ?? []) { free(pointer) } }
        var pid: pid_t = 0
        let started = ContinuousClock.now
        let code: Int32 =
            if let envp {
                program.contains("/")
                    ? posix_spawn(&pid, program, &actions, &attributes, argv, envp)
                    : posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            } else {
                program.contains("/")
                    ? posix_spawn(&pid, program, &actions, &attributes, argv, environ)
                    : posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
            }
        guard code == 0 else { throw SpawnFailure(program: program, code: code) }
        return ChildProcess(pid: pid, started: started)
    }

    public init(pid: pid_t, started: ContinuousClock.Instant = .now) {
        self.pid = pid
        self.started = started
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29), which the Glibc module lacks.
    private static let addChdir: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
    }()

    /// Waits for the child to end, blocking this thread: for code that is not async.
    public func wait() -> Termination { reap().termination }

    /// Waits for the child to end: how it ended, and the processor time it used (user and system).
    private func reap() -> (termination: Termination, processorTime: Duration) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        func duration(_ time: timeval) -> Duration { .seconds(time.tv_sec) + .microseconds(time.tv_usec) }
        return (Termination(waitStatus: status), duration(usage.ru_utime) + duration(usage.ru_stime))
    }

    /// How it ended, if it has: never waits.
    public func poll() -> Termination? {
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { return Termination(waitStatus: status) }
        // Not a child of ours (any more): nothing will ever come.
        if reaped == -1 && errno == ECHILD { return .exited(127) }
        return nil
    }

    /// Waits, blocking this thread, until the child ends or `deadline` passes (nil: still running).
    public func wait(until deadline: ContinuousClock.Instant) -> Termination? {
        var pause: Duration = .milliseconds(1)
        while true {
            if let ended = poll() { return ended }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            let nap = min(pause, left)
            usleep(UInt32(nap.components.seconds * 1_000_000 + nap.components.attoseconds / 1_000_000_000_000))
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    /// Waits for the child to end on a thread of its own: no thread of the concurrency pool waits.
    /// How long it ran is read on that thread as it is reaped, so a busy pool resuming the caller
    /// late does not lengthen it.
    public func exit() async -> Exit {
        let child = self
        return await withCheckedContinuation { (ended: CheckedContinuation<Exit, Never>) in
            Thread.detachNewThread { ended.resume(returning: child.waitForExit()) }
        }
    }

    /// Waits for the child to end, blocking this thread (one of its own: see `exit()`); how it
    /// ended, how long it ran and the processor time it used.
    public func waitForExit() -> Exit {
        let (termination, processorTime) = reap()
        return Exit(termination: termination, ranFor: .now - started, processorTime: processorTime)
    }

    /// How a child ended, how long it ran (from its start to its being reaped) and the processor
    /// time it used: what a check that it does not do too much work bounds, however loaded the
    /// machine is (its wall time grows with the load, its processor time does not).
    public struct Exit: Sendable {
        public let termination: Termination
        public let ranFor: Duration
        public let processorTime: Duration
        /// The shell's number for how it ended (`Termination.status`).
        public var status: Int32 { termination.status }
        /// `ranFor` in seconds.
        public var seconds: Double { Self.seconds(ranFor) }
        /// `processorTime` in seconds.
        public var processorSeconds: Double { Self.seconds(processorTime) }

        static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }

    /// Sends `signal` (SIGKILL unless told).
    public func signal(_ signal: Int32 = SIGKILL) {
        _ = kill(pid, signal)
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), which Swift's Glibc module does
    /// not declare, found at run time: the child closes every descriptor from `first` on.
    static func closeFrom(_ first: Int32, _ actions: inout posix_spawn_file_actions_t) {
        _ = addCloseFrom?(&actions, first)
    }

    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
}
