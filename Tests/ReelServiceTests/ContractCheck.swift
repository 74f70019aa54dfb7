import Foundation
import ReelTestSupport
import Processes
import HTTPTypes
import HummingbirdTesting
import NIOCore

/// HTTP answers checked against the service's OpenAPI document by `Tools/openapi_check.py` (JSON
/// Schema 2020-12 through Python's `jsonschema`, as the CLI's schemas are checked): the status is
/// one the operation documents, the Content-Type one of its media types, the headers it requires
/// are there and valid, a JSON body matches the schema. Answers are gathered and checked in one run
/// of the script.
final class ContractCheck: @unchecked Sendable {
    /// One answer, with the request it answers (or a shared response of the document to check it
    /// against, for answers to paths the document has no reason to list).
    struct Exchange: Encodable {
        var label: String
        var method: String
        var path: String
        var response: String?
        var status: Int
        var headers: [String: String]
        var body: String
    }

    /// The package root, found from this file's path.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    static let documentPath = root + "/Schemas/service/openapi.json"

    private let lock = NSLock()
    private var exchanges: [Exchange] = []

    /// Keeps `response` (to `method path`) to be checked.
    @discardableResult
    func record(_ method: HTTPRequest.Method, _ path: String, _ response: TestResponse, as shared: String? = nil) -> TestResponse {
        var headers: [String: String] = [:]
        for field in response.headers { headers[field.name.canonicalName] = field.value }
        let exchange = Exchange(
            label: "\(method.rawValue) \(path) \(response.status.code)", method: method.rawValue, path: path, response: shared,
            status: response.status.code, headers: headers, body: String(buffer: response.body))
        lock.withLock { exchanges.append(exchange) }
        return response
    }

    /// What the checker said: its status (0: every answer conforms) and one line per answer.
    struct Verdict: CustomStringConvertible {
        let status: Int32
        let lines: [String]
        var failures: [String] { lines.filter { $0.hasPrefix("FAIL") } }
        var description: String { lines.joined(separator: "\n") }
    }

    /// Runs the checker over every answer recorded.
    func verdict() async throws -> Verdict {
        try await Self.check(lock.withLock { exchanges })
    }

    static func check(_ exchanges: [Exchange], document: String = documentPath) async throws -> Verdict {
        struct Input: Encodable {
            let document: String
            let exchanges: [Exchange]
        }
        let input = try JSONEncoder().encode(Input(document: document, exchanges: exchanges))
        // Files, not pipes: the checker is waited for off the concurrency pool (`exit()`).
        let files = temporaryDirectory("contract-check")
        try input.write(to: URL(fileURLWithPath: files + "/input.json"))
        let ended = try await ChildProcess.spawn(
            Python.command([root + "/Tools/openapi_check.py"]), standardInput: .read(files + "/input.json"),
            standardOutput: .write(files + "/stdout"), standardError: .write(files + "/stderr")
        ).exit()
        let output = (try? String(contentsOfFile: files + "/stdout", encoding: .utf8)) ?? ""
        let errorText = (try? String(contentsOfFile: files + "/stderr", encoding: .utf8)) ?? ""
        var lines = output.split(separator: "\n").map(String.init)
        if !errorText.isEmpty { lines.append("FAIL the checker: \(errorText)") }
        return Verdict(status: ended.status, lines: lines)
    }
}
