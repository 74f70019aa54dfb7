import Foundation
import Processes
import ReelTestSupport

/// Runs the built executables and the repository's tools, as a person or a script would.
package enum Harness {
    /// The package root, found from this file's path.
    package static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    /// Where `swift build` put the executables: beside the test bundle, else `.build/debug`.
    package static let binaries: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        for candidate in [beside, root + "/.build/debug"] where FileManager.default.isExecutableFile(atPath: candidate + "/reel") {
            return candidate
        }
        return root + "/.build/debug"
    }()

    package struct Output {
        /// The exit status, or 128 + the signal that ended it (as a shell says it).
        package let status: Int32
        package let stdout: String
        package let stderr: String
        /// How long the command ran, from its start to its end: not the wait for a place to run
        /// it (`ChildLimit`). What a check that a command does not hang bounds.
        package var seconds: Double = 0

        package init(status: Int32, stdout: String, stderr: String, seconds: Double = 0) {
            (self.status, self.stdout, self.stderr, self.seconds) = (status, stdout, stderr, seconds)
        }
    }

    /// The state directory every command run by the tests shares (`ShownNotices` keeps its file
    /// there, keyed by data directory).
    package static let stateHome = temporaryDirectory("state")

    /// The keyring directory every command run by the tests shares (`REEL_KEYRING`), as every host
    /// of one PostgreSQL store shares its keyring: tests run commands on one store from many data
    /// directories. A test may name another.
    package static let keyring = temporaryDirectory("keyring")

    /// Runs `executable` (a path, or a name looked up in the child's PATH) to completion; the
    /// wait is a thread's of its own (`ChildProcess.exit()`), so a test waiting here leaves the
    /// concurrency pool to the tests beside it. At most `ChildLimit.shared.limit` run at once.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> Output {
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        // Which routine notes were shown today goes here, not into the home directory.
        env["XDG_STATE_HOME"] = stateHome
        // Text output shows local times: the same on every machine unless a test names a zone.
        env["TZ"] = "UTC"
        env["REEL_UTC"] = nil
        env["REEL_KEYRING"] = keyring
        for (k, v) in environment { env[k] = v }
        let command =
            executable == "python3" ? Python.command(arguments)
            : executable.contains("/") ? [executable] + arguments : ["/usr/bin/env", executable] + arguments
        return try await complete(command, environment: env)
    }

    /// Runs `command` with exactly `environment`, in `directory` (this process's when nil), with
    /// the file `stdin` as its standard input (nil: /dev/null), once `ChildLimit` gives it a place;
    /// what it printed, how it ended, how long it ran. Its wait holds no thread of the pool.
    package static func complete(
        _ command: [String], environment: [String: String], directory: String? = nil, stdin: String? = nil
    ) async throws -> Output {
        let outputs = temporaryDirectory("out")
        let (outPath, errPath) = (outputs + "/stdout", outputs + "/stderr")
        let ended = try await ChildLimit.shared.withPlace {
            try await ChildProcess.spawn(
                command, environment: environment, directory: directory, standardInput: stdin.map { .read($0) } ?? .null,
                standardOutput: .write(outPath), standardError: .write(errPath)
            ).exit()
        }
        ChildProfile.record(command, ended)
        return Output(
            status: ended.status,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "", seconds: ended.seconds)
    }


    /// Runs `executable ARGUMENTS` (a path, or a name looked up in PATH) to its end, blocking this
    /// thread: only for a `defer`, which cannot await, and a command that ends at once (`umount`).
    @discardableResult
    package static func runInDefer(_ executable: String, _ arguments: [String]) -> Int32 {
        let command = executable.contains("/") ? [executable] + arguments : ["/usr/bin/env", executable] + arguments
        return (try? ChildProcess.spawn(command).wait().status) ?? 127
    }

    package static func reel(_ arguments: [String], environment: [String: String] = [:]) async throws -> Output {
        try await run(binaries + "/reel", arguments, environment: environment)
    }

    package static func python(_ tool: String, _ arguments: [String]) async throws -> Output {
        try await run("python3", [root + "/Tools/" + tool] + arguments)
    }

    package static func json(_ text: String) throws -> [String: Any] {
        (try JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// The tokens `reel token list --json` printed (`{"tokens": [...]}`); nil when it printed no such list.
    package static func tokens(_ text: String) -> [[String: Any]]? {
        (try? json(text))?["tokens"] as? [[String: Any]]
    }

    /// Validates `document` (JSON text) against a schema in `Schemas/` with Python's `jsonschema`
    /// (Draft 2020-12, formats checked); a list is checked entry by entry against an object schema.
    /// One Python process serves the whole test run (`SchemaValidator`): starting one per
    /// document cost a third of a second each, five hundred times a run.
    package static func validate(_ document: String, against schema: String) throws -> Output {
        try SchemaValidator.shared.validate(document, against: root + "/Schemas/" + schema)
    }
}

extension Harness {
    /// Runs `executable` with exactly `environment` (Harness.run adds NO_COLOR=1 and the outer
    /// environment).
    package static func runClean(_ executable: String, _ arguments: [String], environment: [String: String]) async throws -> Output {
        try await complete([executable] + arguments, environment: environment)
    }
}
