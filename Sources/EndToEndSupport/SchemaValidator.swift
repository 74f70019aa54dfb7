import Foundation
import Processes
import Testing

/// One Python process, started on first use and kept for the test run, that validates JSON
/// documents against schema files with `jsonschema` (Draft 2020-12, formats checked). Requests
/// go one at a time (a lock); if the process dies it is started again for the next request.
package final class SchemaValidator: @unchecked Sendable {
    package static let shared = SchemaValidator()

    /// Reads one request a line, `{"schema": path, "document": text}`, and answers one line,
    /// `{"status": 0|1, "stdout": …, "stderr": …}` as the one-shot script printed them.
    private static let server = """
        import json, os, sys, traceback, jsonschema
        from referencing import Registry, Resource
        validators = {}
        registries = {}
        def registry(path):
            # Every schema under Schemas/ by its $id, so one may $ref another ("../envelope.schema.json").
            root = path[:path.rindex("/Schemas/") + len("/Schemas")] if "/Schemas/" in path else os.path.dirname(path)
            if root not in registries:
                resources = []
                for directory, _, names in os.walk(root):
                    for name in names:
                        if name.endswith(".schema.json"):
                            contents = json.load(open(os.path.join(directory, name)))
                            if "$id" in contents: resources.append((contents["$id"], Resource.from_contents(contents)))
                registries[root] = Registry().with_resources(resources)
            return registries[root]
        for line in sys.stdin:
            request = json.loads(line)
            try:
                path = request["schema"]
                if path not in validators:
                    schema = json.load(open(path))
                    jsonschema.Draft202012Validator.check_schema(schema)
                    validators[path] = (schema, jsonschema.Draft202012Validator(schema, registry=registry(path), format_checker=jsonschema.FormatChecker()))
                schema, validator = validators[path]
                doc = json.loads(request["document"])
                docs = doc if isinstance(doc, list) and schema.get("type") == "object" else [doc]
                for d in docs: validator.validate(d)
                answer = {"status": 0, "stdout": "valid %d\\n" % len(docs), "stderr": ""}
            except Exception:
                answer = {"status": 1, "stdout": "", "stderr": traceback.format_exc()}
            sys.stdout.write(json.dumps(answer) + "\\n")
            sys.stdout.flush()
        """

    private let lock = NSLock()
    private var process: RunningChild?
    private var input: FileHandle?
    private var output: FileHandle?
    private var buffered = Data()

    package func validate(_ document: String, against schemaPath: String) throws -> Harness.Output {
        try lock.withLock {
            let request = try JSONSerialization.data(withJSONObject: ["schema": schemaPath, "document": document]) + Data("\n".utf8)
            if let answer = try? exchange(request) { return answer }
            stop()  // A server that died (or never started) is started again, once.
            return try exchange(request)
        }
    }

    private func exchange(_ request: Data) throws -> Harness.Output {
        // Checked first: writing to a pipe nobody reads would end this process with SIGPIPE.
        if process?.isRunning != true { stop(); try start() }
        guard let input, let output else { throw ValidatorError.notRunning }
        try input.write(contentsOf: request)
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffered[buffered.startIndex..<newline]
                buffered = Data(buffered[(newline + 1)...])
                let answer = try JSONSerialization.jsonObject(with: line) as? [String: Any] ?? [:]
                return Harness.Output(
                    status: Int32(answer["status"] as? Int ?? 1), stdout: answer["stdout"] as? String ?? "",
                    stderr: answer["stderr"] as? String ?? "")
            }
            let more = output.availableData
            if more.isEmpty { throw ValidatorError.notRunning }
            buffered.append(more)
        }
    }

    private func start() throws {
        var toServer: [Int32] = [0, 0], fromServer: [Int32] = [0, 0]
        guard pipe(&toServer) == 0 else { throw ValidatorError.notRunning }
        guard pipe(&fromServer) == 0 else {
            for end in toServer { close(end) }
            throw ValidatorError.notRunning
        }
        // Not inherited by what other threads start meanwhile (the child gets its ends by dup2).
        for end in toServer + fromServer { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer {
            close(toServer[0])
            close(fromServer[1])
        }
        do {
            process = RunningChild(
                try ChildProcess.spawn(
                    ["/usr/bin/env", "python3", "-c", Self.server], standardInput: .descriptor(toServer[0]), standardOutput: .descriptor(fromServer[1]),
                    standardError: .sameAs(STDERR_FILENO)))
        } catch {
            close(toServer[1])
            close(fromServer[0])
            throw error
        }
        input = FileHandle(fileDescriptor: toServer[1], closeOnDealloc: true)
        output = FileHandle(fileDescriptor: fromServer[0], closeOnDealloc: true)
        buffered = Data()
    }

    private func stop() {
        input = nil
        output = nil
        if let process {
            process.signal(SIGTERM)
            process.wait()
        }
        process = nil
    }

    package enum ValidatorError: Error { case notRunning }
}

/// The shared validator must still be able to say no, and go on after a document it rejects.
@Suite package struct SchemaValidatorTests {
    @Test package func itPassesAConformingDocumentAndFailsOthersNamingWhy() async throws {
        let schema = "cli/cache-clear.schema.json"
        let good = try Harness.validate(#"{"path": "/data/cache", "cleared": 3}"#, against: schema)
        #expect(good.status == 0 && good.stdout == "valid 1\n", "\(good)")
        let extra = try Harness.validate(#"{"path": "/data/cache", "cleared": 3, "secret": 1}"#, against: schema)
        #expect(extra.status == 1 && extra.stderr.contains("secret"), "\(extra)")
        let notJSON = try Harness.validate("{", against: schema)
        #expect(notJSON.status == 1, "\(notJSON)")
        let list = try Harness.validate(#"[{"path": "/a/cache", "cleared": 0}, {"path": "/b/cache", "cleared": -1}]"#, against: schema)
        #expect(list.status == 1 && list.stderr.contains("-1"), "each entry of a list is checked: \(list)")
        #expect(try Harness.validate(#"{"path": "/data/cache", "cleared": 0}"#, against: schema).status == 0, "still serving")
    }
}
