public import Foundation
import Processes

#if canImport(Glibc)
import Glibc
#endif

/// A program in a real terminal: a detached session of a set size on a tmux server of its own
/// (its socket in a temporary directory, no configuration file), read with `capture-pane` and
/// typed into with `send-keys`, as a person at a terminal meets it. The one way the tests start
/// tmux and read a screen; `end()` (or `deinit`) kills this server and no other.
public final class TerminalSession {
    public enum SessionError: Error, CustomStringConvertible {
        case tmux(String), timedOut(waitingFor: String, screen: String)

        public var description: String {
            switch self {
            case .tmux(let what): "tmux: \(what)"
            case .timedOut(let text, let screen): "the terminal never showed \"\(text)\":\n\(screen)"
            }
        }
    }

    /// How long a wait goes on by default before it gives up: a bound on a hang, not a judge of
    /// speed (a wait that is one says so). A loaded run once took 20 s to show a command's end.
    public static let patience: Double = 60

    public let name: String
    private let socket: String

    /// Where a pane running `stty -a` before and after a program left the two (see
    /// `TerminalAppTests.session`).
    public var sttyDirectory: String?

    /// Starts `command` (argv) with `environment` added to the server's in a new `width`×`height`
    /// terminal; when it ends the pane shows `exit <status>` and stays open to be read.
    public init(_ command: [String], environment: [String: String] = [:], width: Int = 100, height: Int = 30) async throws {
        name = "reel-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        socket = temporaryDirectory("tmux") + "/socket"
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
        // The pane stays ten minutes to be read, then the session and its server end by themselves
        // should `end()` not be reached.
        let line = "env \(assignments) \(command.map(Self.quoted).joined(separator: " ")); echo \"exit $?\"; exec sleep 600"
        let (status, _) = try await run(["-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", line])
        guard status == 0 else { throw SessionError.tmux("new-session exited \(status)") }
    }

    /// A shell line in a new terminal, with `LANG=C.UTF-8` so block characters are characters.
    public convenience init(shell line: String, width: Int = 80, height: Int = 24) async throws {
        try await self.init(["sh", "-c", line], environment: ["LANG": "C.UTF-8"], width: width, height: height)
    }

    deinit { end() }

    /// Ends the session and its server and removes the socket (which tmux leaves behind): at once,
    /// so it blocks this thread (for a `defer` and `deinit`, which cannot await).
    public func end() {
        _ = try? ChildProcess.spawn(["tmux", "-S", socket, "kill-server"], environment: Self.environment).wait()
        unlink(socket)
    }

    /// What the terminal shows now.
    public func screen() async throws -> String {
        try await run(["capture-pane", "-p", "-t", name]).stdout
    }

    /// What the terminal shows now, with its colours (`capture-pane -e`: SGR sequences kept), and
    /// with each line's trailing spaces when `trailingSpaces` (`-N`: a picture's last cells may
    /// be coloured spaces).
    public func colouredScreen(trailingSpaces: Bool = false) async throws -> String {
        try await run(["capture-pane", "-p", "-e"] + (trailingSpaces ? ["-N"] : []) + ["-t", name]).stdout
    }

    /// Waits (up to `seconds`, counted as `WaitBudget` does) until `done` holds for the coloured
    /// screen; the screen then (the last one seen, when the time is up: the caller's expectations
    /// then say what was wrong).
    @discardableResult
    public func waitForColours(
        seconds: Double = TerminalSession.patience, trailingSpaces: Bool = false, until done: (String) -> Bool
    ) async throws -> String {
        var budget = WaitBudget(seconds: seconds)
        while true {
            let shown = try await colouredScreen(trailingSpaces: trailingSpaces)
            if done(shown) || budget.isSpent { return shown }
            try await budget.pause()
        }
    }

    /// Waits (up to `seconds`, counted as `WaitBudget` does) until the screen holds `text`, then
    /// until it is settled; that screen. Settled: two captures in a row alike. tmux (3.3 has no
    /// synchronized output) may be read halfway through a redraw — a CI run once read the Saved
    /// tab's header over the Movies tab's rows — so a screen is taken as drawn only once it stops
    /// changing. When the text goes away meanwhile (a passing message), the last screen that held it.
    @discardableResult
    public func waitFor(_ text: String, seconds: Double = TerminalSession.patience) async throws -> String {
        var budget = WaitBudget(seconds: seconds)
        while true {
            let shown = try await screen()
            if shown.contains(text) { return try await settled(shown, holding: text) }
            if budget.isSpent { throw SessionError.timedOut(waitingFor: text, screen: shown) }
            try await budget.pause()
        }
    }

    /// Waits (up to `seconds`, counted as `WaitBudget` does) until `done` holds for the screen;
    /// the screen then (the last one seen, when the time is up: the caller's expectations then
    /// say what was wrong).
    @discardableResult
    public func waitForScreen(seconds: Double = TerminalSession.patience, until done: (String) -> Bool) async throws -> String {
        var budget = WaitBudget(seconds: seconds)
        while true {
            let shown = try await screen()
            if done(shown) || budget.isSpent { return shown }
            try await budget.pause()
        }
    }

    /// The screen once it stops changing (two captures in a row alike, up to two seconds): what a
    /// key's redraw left.
    public func settledScreen() async throws -> String {
        try await settled(try await screen(), holding: "")
    }

    /// `shown` once the screen stops changing (up to two seconds more), as long as it holds `text`.
    private func settled(_ shown: String, holding text: String) async throws -> String {
        var last = shown
        for _ in 0..<25 {
            // A poll: the next capture is compared with this one.
            try await Task.sleep(for: .milliseconds(80))
            let again = try await screen()
            if again == last { return again }
            guard again.contains(text) else { return last }
            last = again
        }
        return last
    }

    /// The process the pane runs (the shell a session's command starts in).
    public func panePID() async throws -> pid_t {
        pid_t(try await run(["display-message", "-p", "-t", name, "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// What `TMUX` holds for a program in this server's session: socket, server pid, session.
    public func environmentValue() async throws -> String {
        try await run(["display-message", "-p", "#{socket_path},#{pid},0"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The processor time (user and system, in seconds) a process the pane runs, named
    /// `command`, has used so far: what a check that a key does not cost too much bounds, however
    /// loaded the machine is. Nil when no such process runs there.
    public func processorSeconds(of command: String = "reel") async throws -> Double? {
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
    public func resize(width: Int, height: Int) async throws {
        _ = try await run(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Types `keys` (tmux key names, e.g. "2", "Enter").
    public func type(_ keys: String...) async throws {
        _ = try await run(["send-keys", "-t", name] + keys)
    }

    /// Runs a tmux command on this server to its end, off the concurrency pool
    /// (`ChildProcess.exit()`): its status and what it printed. `ChildProcess` passes on no
    /// descriptor and no blocked signal (an inherited pipe kept `swift test` waiting, an
    /// inherited mask made the server and its pane ignore `kill-server` and Ctrl-C), and the
    /// server is named by its socket alone, not this process's `TMUX`.
    @discardableResult
    public func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String) {
        let output = temporaryDirectory("tmux-out") + "/stdout"
        let ended = try await ChildProcess.spawn(["tmux", "-S", socket] + arguments, environment: Self.environment, standardOutput: .write(output)).exit()
        return (ended.status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    private static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { $0.key != "TMUX" && $0.key != "TMUX_PANE" }
    }

    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
