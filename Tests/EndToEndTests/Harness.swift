import Foundation
import ReelTestSupport

/// Runs the built executables and the repository's tools, as a person or a script would.
enum Harness {
    /// The package root, found from this file's path.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    /// Where `swift build` put the executables: beside the test bundle, else `.build/debug`.
    static let binaries: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        for candidate in [beside, root + "/.build/debug"] where FileManager.default.isExecutableFile(atPath: candidate + "/reel") {
            return candidate
        }
        return root + "/.build/debug"
    }()

    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `executable` (a path, or a name looked up in PATH) to completion.
    /// The state directory every command run by the tests shares (`ShownNotices` keeps its file
    /// there, keyed by data directory).
    static let stateHome = temporaryDirectory("state")

    /// The keyring directory every command run by the tests shares (`REEL_KEYRING`), as every host
    /// of one PostgreSQL store shares its keyring: tests run commands on one store from many data
    /// directories. A test may name another.
    static let keyring = temporaryDirectory("keyring")

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.contains("/") ? executable : "/usr/bin/env")
        process.arguments = executable.contains("/") ? arguments : [executable] + arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        // Which routine notes were shown today goes here, not into the home directory.
        env["XDG_STATE_HOME"] = stateHome
        // Text output shows local times: the same on every machine unless a test names a zone.
        env["TZ"] = "UTC"
        env["REEL_UTC"] = nil
        env["REEL_KEYRING"] = keyring
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let outURL = URL(fileURLWithPath: temporaryDirectory("out") + "/stdout")
        let errURL = URL(fileURLWithPath: outURL.deletingLastPathComponent().path + "/stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// Runs `process` (stdout a pipe) and reads the first line it prints, trimmed: a server's
    /// "listening on …". Should it print none within `seconds`, it is stopped, which ends the read.
    static func firstLine(of process: Process, within seconds: Int) throws -> String {
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let started = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            if started.wait(timeout: .now() + .seconds(seconds)) == .timedOut, process.isRunning { process.terminate() }
        }
        defer { started.signal() }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData  // blocks; empty at end of file (it died)
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func reel(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        try run(binaries + "/reel", arguments, environment: environment)
    }

    static func python(_ tool: String, _ arguments: [String]) throws -> Output {
        try run("python3", [root + "/Tools/" + tool] + arguments)
    }

    static func json(_ text: String) throws -> [String: Any] {
        (try JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// Validates `document` (JSON text) against a schema in `Schemas/` with Python's `jsonschema`
    /// (Draft 2020-12, formats checked); a list is checked entry by entry against an object schema.
    /// One Python process serves the whole test run (`SchemaValidator`): starting one per
    /// document cost a third of a second each, five hundred times a run.
    static func validate(_ document: String, against schema: String) throws -> Output {
        try SchemaValidator.shared.validate(document, against: root + "/Schemas/" + schema)
    }
}
