import Foundation
import Processes

#if canImport(Glibc)
import Glibc
#endif

/// Child processes (`ChildProcess`: `posix_spawn` and a blocking `waitpid`, not Foundation's
/// `Process`, whose `waitUntilExit` polls a run loop and added 5–20 ms to a 20 ms process), stdin
/// from /dev/null.
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

    struct Output { let status: Int32; let stdout: String; let stderr: String }

    /// `executable ARGUMENTS` with this process's environment: its status, stdout and stderr.
    static func captured(_ executable: String, _ arguments: [String]) -> Output {
        captured([executable] + arguments, environment: nil)
    }

    /// `command` with `environment` (this process's when nil): its status, stdout and stderr.
    static func captured(_ command: [String], environment: [String: String]?) -> Output {
        let base = NSTemporaryDirectory() + "reel-bench-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(base + ".out"); unlink(base + ".err") }
        let child = try? ChildProcess.spawn(command, environment: environment, standardOutput: .write(base + ".out"), standardError: .write(base + ".err"))
        let status = child?.wait().status ?? 127
        return Output(
            status: status, stdout: (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? "")
    }

    private static func run(_ command: [String], environment: [String: String], stdout: String?, stderr: String? = nil) -> Int32 {
        let child = try? ChildProcess.spawn(
            command, environment: environment,
            standardOutput: stdout.map { .write($0) } ?? .null, standardError: stderr.map { .write($0) } ?? .null)
        return child?.wait().status ?? 127
    }
}
