import Foundation
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `reel` in a real terminal: a detached tmux session of a set size, read with `capture-pane`
/// and typed into with `send-keys`, as a person at a terminal meets it.
final class TerminalSession {
    let name: String
    private let socket: String

    /// Starts `command` (argv) with `environment` in a new `width`×`height` terminal; when it ends
    /// the pane shows `exit <status>` and stays open to be read.
    init(_ command: [String], environment: [String: String], width: Int = 100, height: Int = 30) throws {
        name = "reel-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        socket = temporaryDirectory("tmux") + "/socket"
        let assignments = environment.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
        // The pane stays a minute to be read, then the session and its server end by themselves
        // should `end()` not be reached.
        let line = "env \(assignments) \(command.map(Self.quoted).joined(separator: " ")); echo \"exit $?\"; exec sleep 60"
        let (status, _) = try Self.tmux(["-S", socket, "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", line])
        guard status == 0 else { throw SessionError.tmux("new-session exited \(status)") }
    }

    deinit { end() }

    /// Ends the session and its server.
    func end() { _ = try? Self.tmux(["-S", socket, "kill-server"]) }

    /// What the terminal shows now.
    func screen() throws -> String {
        try Self.tmux(["-S", socket, "capture-pane", "-p", "-t", name]).stdout
    }

    /// What the terminal shows now, with its colours (`capture-pane -e`: SGR sequences kept).
    func colouredScreen() throws -> String {
        try Self.tmux(["-S", socket, "capture-pane", "-p", "-e", "-t", name]).stdout
    }

    /// Waits (up to `seconds`) until `done` holds for the coloured screen; the screen then (the
    /// last one seen, when the time is up: the caller's expectations then say what was wrong).
    @discardableResult
    func waitForColours(seconds: Double = 20, until done: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let shown = try colouredScreen()
            if done(shown) || Date() > deadline { return shown }
            usleep(50_000)
        }
    }

    /// Waits (up to `seconds`) until the screen holds `text`, then until it is settled; that
    /// screen. Settled: two captures in a row alike. tmux (3.3 has no synchronized output) may
    /// be read halfway through a redraw — a CI run once read the Saved tab's header over the
    /// Movies tab's rows — so a screen is taken as drawn only once it stops changing. When the
    /// text goes away meanwhile (a passing message), the last screen that held it.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 20) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let shown = try screen()
            if shown.contains(text) { return try settled(shown, holding: text) }
            if Date() > deadline { throw SessionError.timedOut(waitingFor: text, screen: shown) }
            usleep(50_000)
        }
    }

    /// `shown` once the screen stops changing (up to two seconds more), as long as it holds `text`.
    private func settled(_ shown: String, holding text: String) throws -> String {
        var last = shown
        for _ in 0..<25 {
            usleep(80_000)
            let again = try screen()
            if again == last { return again }
            guard again.contains(text) else { return last }
            last = again
        }
        return last
    }

    /// The process the pane runs (the shell a session's command starts in).
    func panePID() throws -> pid_t {
        pid_t(try Self.tmux(["-S", socket, "display-message", "-p", "-t", name, "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Resizes the window (the program in it gets SIGWINCH).
    func resize(width: Int, height: Int) throws {
        _ = try Self.tmux(["-S", socket, "resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Where a pane running `stty -a` before and after a program left the two (see
    /// `TerminalAppTests.session`).
    private(set) var sttyDirectory: String?

    func remembering(sttyDirectory: String) -> TerminalSession {
        self.sttyDirectory = sttyDirectory
        return self
    }

    /// The terminal's settings after the program are the ones before it.
    func expectTerminalRestored(sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let directory = sttyDirectory else { return }
        let before = try String(contentsOfFile: directory + "/before", encoding: .utf8)
        let after = try String(contentsOfFile: directory + "/after", encoding: .utf8)
        #expect(!before.isEmpty && before == after, "stty -a before:\n\(before)\nafter:\n\(after)", sourceLocation: sourceLocation)
    }

    /// Types `keys` (tmux key names, e.g. "2", "Enter").
    func type(_ keys: String...) throws {
        _ = try Self.tmux(["-S", socket, "send-keys", "-t", name] + keys)
    }

    /// Runs tmux with `posix_spawnp` and `waitpid`, not `Process`: the tmux client that starts a
    /// server exits at once, and `Process` was seen never to reap it (the wait hung on a zombie).
    /// The session is ended by `deinit` (`kill-server`).
    private static func tmux(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let output = temporaryDirectory("tmux-out") + "/stdout"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of this process's: the server outlives the client, and an inherited pipe
        // (the test runner's) held open by it kept `swift test` waiting.
        closeFrom3(&actions)
        // No signal blocked and every one at its default: `posix_spawn` otherwise passes on this
        // thread's mask, where the test runtime blocks SIGHUP, SIGINT and SIGTERM, so the tmux
        // server and the program in its pane ignored `kill-server` (both lived on until the
        // pane's `sleep 60` ended) and Ctrl-C.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = (["tmux"] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw SessionError.tmux("cannot run tmux: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xFF, text)
    }

    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// `posix_spawn_file_actions_addclosefrom_np(actions, 3)` (glibc 2.34), which Swift's Glibc
    /// module does not declare: found at run time.
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }

    enum SessionError: Error { case tmux(String), timedOut(waitingFor: String, screen: String) }
}
