import EndToEndSupport
import Foundation
import Processes
import ReelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Output that cannot be written (`> /dev/full`, a closed stdout, a reader that went away) is one
/// line and exit 74, or a quiet SIGPIPE; never a trap, a backtrace, or exit 0 with the output lost.
@Suite struct OutputFailureTests {
    struct Run {
        let status: Int32
        let signalled: Bool
        let stderr: String

        /// stderr without the catalog's notes (`reel: note: …`).
        var problems: [Substring] { stderr.split(separator: "\n").filter { !$0.hasPrefix("reel: note: ") } }
    }

    /// Runs `reel ARGUMENTS` with stdout going to `stdout` (a path such as /dev/full, or nil for a
    /// pipe nobody reads: its reading end is closed before the process starts).
    static func run(_ arguments: [String], data: String, stdout: String?, stdin: String? = nil,
                    environment extra: [String: String] = [:]) throws -> Run {
        var env = ProcessInfo.processInfo.environment.filter { !Home.inherited.contains($0.key) }
        env["NO_COLOR"] = "1"
        env["REEL_DATA_DIR"] = data
        env["XDG_CONFIG_HOME"] = data + "/config"
        for (k, v) in extra { env[k] = v }
        let errors = temporaryDirectory("reel-run") + "/stderr"
        var input = Redirection.null
        if let stdin {
            let path = temporaryDirectory("reel-run") + "/stdin"
            try Data(stdin.utf8).write(to: URL(fileURLWithPath: path))
            input = .read(path)
        }
        // Without a file: a pipe whose reading end is closed before the process starts.
        var ends: [Int32] = [-1, -1]
        if stdout == nil {
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            // Not inherited by what other threads start meanwhile (the child gets its end by dup2).
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            close(ends[0])
        }
        defer { if ends[1] >= 0 { close(ends[1]) } }
        let ended = try ChildProcess.spawn(
            [Harness.binaries + "/reel"] + arguments, environment: env, standardInput: input,
            standardOutput: stdout.map { .write($0) } ?? .descriptor(ends[1]), standardError: .write(errors)
        ).wait()
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        // `status` is the exit code, or the signal that ended it.
        return switch ended {
        case .exited(let code): Run(status: code, signalled: false, stderr: stderr)
        case .signalled(let signal): Run(status: signal, signalled: true, stderr: stderr)
        }
    }

    /// A data directory with an account that has saved two movies and a series.
    static func ledger() async throws -> String {
        let data = temporaryDirectory("output-failure")
        let out = try await Harness.reel(["fav", "add", "movie", "550", "603", "--data-dir", data])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try await Harness.reel(["fav", "add", "tv", "1399", "--data-dir", data]).status == 0)
        return data
    }

    static func saved(_ data: String) async throws -> [Int] {
        let out = try await Harness.reel(["saved", "--json", "--data-dir", data])
        return (try Harness.json(out.stdout)["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }

    /// Commands that only read: exit 74 and one line saying so, whatever they print.
    @Test(arguments: [
        ["account", "export"], ["account", "export", "--format", "letterboxd"], ["saved", "--json"], ["saved"], ["history"],
        ["history", "--json"], ["accounts"], ["audit", "verify"], ["settings"], ["show", "movie", "550"], ["movies"],
        ["search", "matrix"], ["person"], ["genres"], ["about"], ["cache", "stats"], ["tmdb", "status"], ["--help"], ["--version"],
        ["projections", "rebuild", "--check"],
    ])
    func aFullDeviceIsExit74WithOneLine(_ arguments: [String]) async throws {
        let data = try await Self.ledger()
        let run = try Self.run(arguments, data: data, stdout: "/dev/full")
        #expect(run.status == 74 && !run.signalled, "\(arguments): \(run.status) \(run.stderr)")
        #expect(run.problems == ["reel: cannot write the output: No space left on device"], "\(arguments): \(run.stderr)")
        #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("Backtrac"), "\(run.stderr)")
    }

    /// Commands that change something: the change is made and kept, and the line says so.
    @Test func aChangeWhoseReportCannotBeWrittenIsSavedAndSaysSo() async throws {
        let data = try await Self.ledger()
        func expectSaved(_ run: Run, _ what: String, _ label: String) {
            #expect(run.status == 74 && !run.signalled, "\(label): \(run.status) \(run.stderr)")
            #expect(run.problems == ["reel: cannot write the output: No space left on device (\(what))"], "\(label): \(run.stderr)")
        }
        expectSaved(try Self.run(["fav", "add", "movie", "13"], data: data, stdout: "/dev/full"), "the change was saved", "fav add")
        await #expect(try Self.saved(data).contains(13))
        expectSaved(try Self.run(["fav", "remove", "movie", "603", "--json"], data: data, stdout: "/dev/full"), "the change was saved", "fav remove")
        await #expect(!(try Self.saved(data).contains(603)))
        expectSaved(try Self.run(["settings", "name", "Ann"], data: data, stdout: "/dev/full"), "the change was saved", "settings name")
        let backup = temporaryDirectory("output-failure") + "/copy"
        expectSaved(try Self.run(["backup", backup], data: data, stdout: "/dev/full"), "the backup was written", "backup")
        #expect(try await Harness.reel(["audit", "verify", "--data-dir", backup]).status == 0)
        expectSaved(try Self.run(["projections", "rebuild"], data: data, stdout: "/dev/full"), "the projections were rebuilt", "rebuild")
        let export = temporaryDirectory("output-failure") + "/export.json"
        expectSaved(try Self.run(["account", "export", "--out", export], data: data, stdout: "/dev/full"), "the export was written to \(export)", "export --out")
        expectSaved(try Self.run(["account", "import", export, "--as", "copy"], data: data, stdout: "/dev/full"), "the account was restored", "import")
        expectSaved(try Self.run(["tmdb", "login", "--no-check"], data: data, stdout: "/dev/full", stdin: "token-5150\n"), "the credential was saved", "login")
        expectSaved(try Self.run(["account", "delete", "--yes", "--user", "copy"], data: data, stdout: "/dev/full"), "the account was deleted", "delete")

        // Nothing to change: no claim that something was saved.
        let again = try Self.run(["fav", "add", "movie", "13"], data: data, stdout: "/dev/full")
        #expect(again.status == 74)
        #expect(again.problems == ["reel: cannot write the output: No space left on device"], "\(again.stderr)")
        #expect(try await Harness.reel(["audit", "verify", "--data-dir", data]).status == 0)
    }

    /// A failing command keeps its own status and message when its output is lost too.
    @Test func aCommandThatFailsKeepsItsOwnStatus() async throws {
        let data = try await Self.ledger()
        let run = try Self.run(["fav", "add", "movie", "12abc"], data: data, stdout: "/dev/full")
        #expect(run.status == 64)
        #expect(run.problems.count == 1 && !run.stderr.contains("cannot write the output"), "\(run.stderr)")
    }

    /// `reel history | head -0`: the reader went away. Like `cat`, reel ends quietly by SIGPIPE:
    /// no message, no backtrace (a change is kept).
    @Test func aReaderThatWentAwayEndsItQuietlyBySIGPIPE() async throws {
        let data = try await Self.ledger()
        for arguments in [["history"], ["saved", "--json"], ["account", "export"], ["fav", "add", "movie", "680"]] {
            let run = try Self.run(arguments, data: data, stdout: nil)
            #expect(run.signalled && run.status == SIGPIPE, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.problems.isEmpty, "\(arguments): \(run.stderr)")
        }
        await #expect(try Self.saved(data).contains(680))
        // With TMDb over HTTP, SwiftNIO ignores SIGPIPE for its sockets: the write fails with
        // EPIPE instead, and reel ends the same way (before, it exited 0 with the output lost).
        let server = try FakeTMDbProcess()
        let environment = ["REEL_TMDB_BASE_URL": server.baseURL, "TMDB_API_TOKEN": "any-token"]
        for arguments in [["show", "movie", "550"], ["saved", "--json"], ["fav", "add", "movie", "13"]] {
            let run = try Self.run(arguments, data: data, stdout: nil, environment: environment)
            #expect(run.signalled && run.status == SIGPIPE, "\(arguments) over HTTP: \(run.status) \(run.stderr)")
            #expect(run.problems.isEmpty, "\(arguments): \(run.stderr)")
        }
        await #expect(try Self.saved(data).contains(13))
    }

    /// `reel history >&-`: the ledger opened next must not get descriptor 1 (output would be
    /// written into it); the command fails its output with 74 and the ledger still verifies.
    @Test func aClosedStdoutIsExit74AndNothingIsWrittenIntoTheLedger() async throws {
        let data = try await Self.ledger()
        for arguments in ["fav add movie 680", "history", "saved --json", "audit verify"] {
            let run = try await Harness.run("/bin/sh", ["-c", "exec \"$0\" \(arguments) --data-dir \"$1\" >&-", Harness.binaries + "/reel", data])
            #expect(run.status == 74, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("reel: cannot write the output: Bad file descriptor"), "\(arguments): \(run.stderr)")
        }
        await #expect(try Self.saved(data).contains(680))
        let verify = try await Harness.reel(["audit", "verify", "--data-dir", data])
        #expect(verify.status == 0, "\(verify.stdout) \(verify.stderr)")
        #expect(try await Harness.reel(["projections", "rebuild", "--check", "--data-dir", data]).status == 0)
    }

    /// Notes and errors to a full stderr are dropped (there is nowhere to report them), never a trap.
    @Test func aFullStderrChangesNothing() async throws {
        let data = try await Self.ledger()
        let run = try await Harness.run("/bin/sh", ["-c", "exec \"$0\" history --data-dir \"$1\" 2>/dev/full", Harness.binaries + "/reel", data])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("added movie 550"))
        let failing = try await Harness.run("/bin/sh", ["-c", "exec \"$0\" fav add movie x --data-dir \"$1\" 2>/dev/full", Harness.binaries + "/reel", data])
        #expect(failing.status == 64)
    }
}
