import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Child processes by `posix_spawn` and a blocking `waitpid` (not Foundation's `Process`, whose
/// `waitUntilExit` polls a run loop and added 5–20 ms to a 20 ms process), stdin from /dev/null.
enum Spawn {
    /// The exit status (128 + signal when killed by one).
    static func status(_ command: [String], environment: [String: String]) -> Int32 {
        run(command, environment: environment, stdout: nil)
    }

    /// The exit status and, when it is not 0, the last line of standard error (what went wrong).
    static func statusAndError(_ command: [String], environment: [String: String]) -> (status: Int32, error: String) {
        let file = NSTemporaryDirectory() + "reel-bench-err-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(file) }
        let status = run(command, environment: environment, stdout: nil, stderr: file)
        guard status != 0 else { return (0, "") }
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return (status, text.split(separator: "\n").last.map(String.init) ?? "")
    }

    /// The exit status and standard output.
    static func output(_ command: [String], environment: [String: String]) -> (status: Int32, stdout: String) {
        let file = NSTemporaryDirectory() + "reel-bench-out-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(file) }
        let status = run(command, environment: environment, stdout: file)
        return (status, (try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
    }

    private static func run(_ command: [String], environment: [String: String], stdout: String?, stderr: String? = nil) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, command[0], &actions, nil, argv, envp) == 0 else { return 127 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
