import Foundation
import Processes
import ReelTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A tmux server of the test's own (`-L reel-graphics-<pid>-<random>`, no configuration file),
/// with one detached session of a set size; `deinit` kills this server and no other.
final class PrivateTmux {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let name: String
    private var socket = ""

    /// Starts the server with one session running `command` (a shell line) in a `width`×`height`
    /// window, with `LANG=C.UTF-8` so block characters are characters.
    init(command: String = "sleep 60", width: Int = 80, height: Int = 24) throws {
        name = "reel-graphics-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let (status, _) = try run(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "env LANG=C.UTF-8 " + command])
        guard status == 0 else { throw Failure(description: "tmux new-session exited \(status)") }
        socket = try run(["display-message", "-p", "#{socket_path}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The server killed, and its socket (which tmux leaves behind) removed.
    deinit {
        _ = try? run(["kill-server"])
        if socket.contains("reel-graphics-") { unlink(socket) }
    }

    /// What `TMUX` holds for a program in this server's session: socket, server pid, session.
    func environmentValue() throws -> String {
        try run(["display-message", "-p", "#{socket_path},#{pid},0"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a tmux command on this server: its exit status and standard output.
    @discardableResult
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        try Self.tmux(["-L", name] + arguments)
    }

    /// The pane's screen with its colours and trailing spaces (`capture-pane -p -e -N`: a
    /// picture's last cells may be coloured spaces), once `ready` says it is drawn.
    func screen(waitingUntil ready: (String) -> Bool, seconds: Double = 10) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let shown = try run(["capture-pane", "-p", "-e", "-N"]).stdout
            if ready(shown) { return shown }
            guard Date() < deadline else { throw Failure(description: "the pane never showed what was awaited:\n\(shown)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// tmux with every signal at its default and none blocked (the test runtime blocks some, and
    /// a server inheriting that ignored `kill-server`), no descriptor of this process's but the
    /// output file (a server holding the test runner's pipe kept it waiting), and not this
    /// process's TMUX: the server is named by -L alone. A tmux client ends at once.
    private static func tmux(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let output = temporaryDirectory("tmux-out") + "/stdout"
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "TMUX" && $0.key != "TMUX_PANE" }
        let ended = try ChildProcess.spawn(["tmux"] + arguments, environment: environment, standardOutput: .write(output)).wait()
        return (ended.status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }
}
