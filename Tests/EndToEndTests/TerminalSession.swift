import Foundation
import Processes
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `reel` in a real terminal: a detached tmux session of a set size, read with `capture-pane`
/// and typed into with `send-keys`, as a person at a terminal meets it.
final class TerminalSession {
    /// How long a wait goes on by default before it gives up: a bound on a hang, not a judge of
    /// speed (a wait that is one says so). A loaded run once took 20 s to show a command's end.
    static let patience: Double = 60

    let name: String
    private let socket: String

    /// Starts `command` (argv) with `environment` in a new `width`×`height` terminal; when it ends
    /// the pane shows `exit <status>` and stays open to be read.
    init(_ command: [String], environment: [String: String], width: Int = 100, height: Int = 30) async throws {
        name = "reel-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        socket = temporaryDirectory("tmux") + "/socket"
        let assignments = environment.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
        // The pane stays ten minutes to be read, then the session and its server end by themselves
        // should `end()` not be reached.
        let line = "env \(assignments) \(command.map(Self.quoted).joined(separator: " ")); echo \"exit $?\"; exec sleep 600"
        let (status, _) = try await Self.tmux(["-S", socket, "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", line])
        guard status == 0 else { throw SessionError.tmux("new-session exited \(status)") }
    }

    deinit { end() }

    /// Ends the session and its server: at once, so it blocks this thread (for a `defer` and
    /// `deinit`, which cannot await).
    func end() { _ = try? ChildProcess.spawn(["tmux", "-S", socket, "kill-server"]).wait() }

    /// What the terminal shows now.
    func screen() async throws -> String {
        try await Self.tmux(["-S", socket, "capture-pane", "-p", "-t", name]).stdout
    }

    /// What the terminal shows now, with its colours (`capture-pane -e`: SGR sequences kept).
    func colouredScreen() async throws -> String {
        try await Self.tmux(["-S", socket, "capture-pane", "-p", "-e", "-t", name]).stdout
    }

    /// Waits (up to `seconds`, counted as `WaitBudget` does) until `done` holds for the coloured screen; the screen then (the
    /// last one seen, when the time is up: the caller's expectations then say what was wrong).
    @discardableResult
    func waitForColours(seconds: Double = TerminalSession.patience, until done: (String) -> Bool) async throws -> String {
        var budget = WaitBudget(seconds: seconds)
        while true {
            let shown = try await colouredScreen()
            if done(shown) || budget.isSpent { return shown }
            try await budget.pause()
        }
    }

    /// Waits (up to `seconds`, counted as `WaitBudget` does) until the screen holds `text`, then until it is settled; that
    /// screen. Settled: two captures in a row alike. tmux (3.3 has no synchronized output) may
    /// be read halfway through a redraw — a CI run once read the Saved tab's header over the
    /// Movies tab's rows — so a screen is taken as drawn only once it stops changing. When the
    /// text goes away meanwhile (a passing message), the last screen that held it.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = TerminalSession.patience) async throws -> String {
        var budget = WaitBudget(seconds: seconds)
        while true {
            let shown = try await screen()
            if shown.contains(text) { return try await settled(shown, holding: text) }
            if budget.isSpent { throw SessionError.timedOut(waitingFor: text, screen: shown) }
            try await budget.pause()
        }
    }

    /// `shown` once the screen stops changing (up to two seconds more), as long as it holds `text`.
    private func settled(_ shown: String, holding text: String) async throws -> String {
        var last = shown
        for _ in 0..<25 {
            try await Task.sleep(for: .milliseconds(80))
            let again = try await screen()
            if again == last { return again }
            guard again.contains(text) else { return last }
            last = again
        }
        return last
    }

    /// The process the pane runs (the shell a session's command starts in).
    func panePID() async throws -> pid_t {
        pid_t(try await Self.tmux(["-S", socket, "display-message", "-p", "-t", name, "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The processor time (user and system, in seconds) a process the pane runs, named
    /// `command`, has used so far: what a check that a key does not cost too much bounds, however
    /// loaded the machine is. Nil when no such process runs there.
    func processorSeconds(of command: String = "reel") async throws -> Double? {
        var pending = [try await panePID()]
        while let pid = pending.popLast() {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            // pid (comm) state ppid … utime stime: fields 14 and 15, counted after the ")".
            if let close = stat.lastIndex(of: ")"), stat.contains("(\(command))") {
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) {
                    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
                }
            }
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            pending += children.split(separator: " ").compactMap { pid_t($0) }
        }
        return nil
    }

    /// Resizes the window (the program in it gets SIGWINCH).
    func resize(width: Int, height: Int) async throws {
        _ = try await Self.tmux(["-S", socket, "resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
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
    func type(_ keys: String...) async throws {
        _ = try await Self.tmux(["-S", socket, "send-keys", "-t", name] + keys)
    }

    /// Runs tmux to its end, off the concurrency pool (`ChildProcess.exit()`); its status and
    /// what it printed. Nothing of this process's is inherited and no signal is blocked: the server
    /// outlives the client, and an inherited pipe (the test runner's) kept `swift test` waiting, a
    /// signal mask passed on (the test runtime blocks SIGHUP, SIGINT and SIGTERM) made the server
    /// and the program in its pane ignore `kill-server` and Ctrl-C.
    private static func tmux(_ arguments: [String]) async throws -> (status: Int32, stdout: String) {
        let output = temporaryDirectory("tmux-out") + "/stdout"
        let ended = try await ChildProcess.spawn(["tmux"] + arguments, standardOutput: .write(output)).exit()
        return (ended.status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    enum SessionError: Error { case tmux(String), timedOut(waitingFor: String, screen: String) }
}
