import Foundation
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
    func screen(waitingUntil ready: (String) -> Bool, seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let shown = try run(["capture-pane", "-p", "-e", "-N"]).stdout
            if ready(shown) { return shown }
            guard Date() < deadline else { throw Failure(description: "the pane never showed what was awaited:\n\(shown)") }
            usleep(50_000)
        }
    }

    /// tmux by `posix_spawnp` and `waitpid` with every signal at its default and none blocked
    /// (the test runtime blocks some, and a server inheriting that ignored `kill-server`), no
    /// descriptor of this process's but the output file (a server holding the test runner's
    /// pipe kept it waiting).
    private static func tmux(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let output = temporaryDirectory("tmux-out") + "/stdout"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        }
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
        // Not this process's TMUX: the server is named by -L alone.
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "TMUX" && $0.key != "TMUX_PANE" }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "cannot run tmux: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xFF, text)
    }
}
