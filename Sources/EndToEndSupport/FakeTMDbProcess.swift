import Foundation
import ReelTestSupport
import Testing

/// A `fake-tmdb` child process on a free port, stopped when the value goes away (also when a test
/// fails or throws half-way).
package final class FakeTMDbProcess: @unchecked Sendable {
    package let server: ServerChild
    /// `http://127.0.0.1:PORT/3`: what `REEL_TMDB_BASE_URL` says.
    package let baseURL: String
    /// `http://127.0.0.1:PORT`: where the control endpoints live.
    package let root: String
    private let log: String

    /// Starts `fake-tmdb --port 0 ARGUMENTS` and reads its port from the first line it prints.
    package init(_ arguments: [String] = []) throws {
        log = temporaryDirectory("fake-tmdb") + "/stderr"
        server = try ServerChild([Harness.binaries + "/fake-tmdb", "--port", "0"] + arguments, log: log, within: 30)
        let text = server.firstLine
        let prefix = "fake-tmdb listening on "
        guard text.hasPrefix(prefix), text.hasSuffix("/3") else {
            server.stop()
            let errors = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw StartFailure(message: "fake-tmdb printed '\(text)'; stderr: \(errors)")
        }
        baseURL = String(text.dropFirst(prefix.count))
        root = String(baseURL.dropLast(2))
    }

    package struct StartFailure: Error, CustomStringConvertible { let message: String; package var description: String { message } }

    /// SIGTERM, then SIGKILL if it has not gone within five seconds.
    package func stop() { server.stop() }

    /// `GET /__stats`.
    package func stats() async throws -> [String: Any] {
        try await Harness.json(try curl(["-s", "--max-time", "10", root + "/__stats"]))
    }

    /// Requests to the API (below `/3`) so far.
    package func requests() async throws -> Int { try await stats()["requests"] as? Int ?? -1 }

    /// `POST /__fault?QUERY`.
    package func fault(_ query: String) async throws {
        let answer = try await curl(["-s", "--max-time", "10", "-X", "POST", root + "/__fault?" + query])
        #expect(answer.contains("\"injected\":true"), "\(query): \(answer)")
    }

    /// `curl ARGUMENTS` against this server: what it printed. A failure says whether the server
    /// still runs (how it ended if not) and the end of its stderr, so a failed request is explained.
    package func curl(_ arguments: [String]) async throws -> String {
        let out = try await Harness.run("curl", arguments)
        if out.status != 0 {
            let state = server.termination.map { "fake-tmdb ended: \($0)" } ?? "fake-tmdb still runs"
            let errors = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").suffix(2_000)
            Issue.record("curl \(arguments) exited \(out.status): \(out.stderr); \(state); its stderr ends: \(errors)")
        }
        return out.stdout
    }
}
