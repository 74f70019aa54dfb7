package import AsyncHTTPClient
import Foundation
import NIOCore
package import NIOHTTP1
import Processes
package import Synchronization
import ReelTestSupport
import Testing

/// A `reel serve` child process on a free port of loopback, over a test's data directory,
/// stopped when the value goes away; and requests to it over real HTTP (AsyncHTTPClient), as
/// an app makes them.
package final class ServiceProcess: @unchecked Sendable {
    package let server: ServerChild
    /// `http://127.0.0.1:PORT`.
    package let url: String
    package let log: String
    package let home: Home
    /// What must live as long as the service (the fake TMDb behind it).
    package var companion: AnyObject?
    package static let operatorToken = "operator-token-0123456789abcdef"

    /// Starts `reel serve --listen 127.0.0.1:0` with `home`'s data, config and environment (plus
    /// `environment`), and reads its address from the line it prints.
    package init(_ home: Home, environment extra: [String: String] = [:], arguments: [String] = []) throws {
        self.home = home
        log = temporaryDirectory("serve") + "/stderr"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        var env = ProcessInfo.processInfo.environment.filter { !Home.inherited.contains($0.key) }
        env["REEL_DATA_DIR"] = home.data
        env["XDG_CONFIG_HOME"] = home.config
        env["REEL_OPERATOR_TOKEN"] = Self.operatorToken
        env["REEL_KEYRING"] = Harness.keyring
        for (k, v) in home.environment { env[k] = v }
        for (k, v) in extra { env[k] = v }
        server = try ServerChild(
            [Harness.binaries + "/reel", "serve", "--listen", "127.0.0.1:0"] + arguments, environment: env, log: log, within: 60)
        let text = server.firstLine
        guard text.hasPrefix("listening on http") else {
            server.stop()
            throw FakeTMDbProcess.StartFailure(message: "reel serve printed '\(text)'; stderr: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        url = String(text.dropFirst("listening on ".count))
    }

    /// SIGTERM (or `signal`), then SIGKILL after `patience` seconds; the exit status (128 + the
    /// signal that ended it).
    @discardableResult
    package func stop(signal: Int32 = SIGTERM, patience: Double = 15) -> Int32 {
        server.stop(signal: signal, patience: patience).status
    }

    /// What the service logged (one JSON object per line).
    package var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Starts the service on a thread of its own (`offThread`).
    package static func start(
        _ home: Home, environment: [String: String] = [:], arguments: [String] = []
    ) async throws -> ServiceProcess {
        try await offThread { try ServiceProcess(home, environment: environment, arguments: arguments) }
    }

    /// A new account token for `user` (`reel token create`).
    package func token(for user: String) async throws -> String {
        let out = try await reel(["token", "create", "--user", user, "--json"])
        #expect(out.status == 0, "token create: \(out.stderr)")
        return try Harness.json(out.stdout)["token"] as? String ?? ""
    }

    /// `reel ARGUMENTS` with the service's data directory, on a thread of its own.
    package func reel(_ arguments: [String]) async throws -> Harness.Output {
        let home = home
        return try await home.reel(arguments)
    }

    /// `stop()` on a thread of its own.
    package func stopped() async throws -> Int32 {
        try await offThread { self.stop() }
    }

    package struct Answer {
        package let status: Int
        package let headers: HTTPHeaders
        package let body: [UInt8]
        package var text: String { String(decoding: body, as: UTF8.self) }
        package func json() throws -> [String: Any] { try Harness.json(text) }
        package func header(_ name: String) -> String? { headers.first(name: name) }
    }

    package static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(timeout: .init(connect: .seconds(10), read: .seconds(60))))

    /// One request; `token` as a bearer, `json` as the body (or `body` with `contentType`).
    package func request(
        _ method: HTTPMethod, _ path: String, token: String? = nil, json: Any? = nil, body: [UInt8]? = nil,
        contentType: String? = nil, headers extra: [String: String] = [:]
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)))
        } else if let body {
            request.headers.add(name: "Content-Type", value: contentType ?? "application/octet-stream")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await Self.client.execute(request, timeout: .seconds(60))
            var bytes: [UInt8] = []
            for try await buffer in response.body { bytes += Array(buffer.readableBytesView) }
            return Answer(status: Int(response.status.code), headers: response.headers, body: bytes)
        } catch {
            throw await failure(of: "\(method) \(path)", error)
        }
    }

    /// A request that failed, said with what the service was doing: whether it had ended (and
    /// how), and the tail of its log. A connection the service closed is otherwise only
    /// "remote connection closed", which does not say whether it crashed, was stopped, or closed
    /// the connection on purpose.
    package struct RequestFailure: Error, CustomStringConvertible {
        package let description: String
    }

    private func failure(of request: String, _ error: any Error) async -> RequestFailure {
        // A crash is reaped a moment after its connections close: give it a second to be seen.
        let server = server
        let ended = (try? await offThread { server.termination(by: .now + .seconds(1)) }) ?? nil
        let state = ended.map { "the service had ended (status \($0.status))" } ?? "the service still runs"
        let tail = logText.split(separator: "\n", omittingEmptySubsequences: false).suffix(20).joined(separator: "\n")
        return RequestFailure(description: "\(request) failed: \(error); \(state); its log ends:\n\(tail)")
    }

    /// Server-Sent Events from `path` until `until` says stop (or `timeout`): each event's id,
    /// type and data. The connection is dropped when it returns. `seen`, when given, is told of
    /// each event as it comes, so a test can wait for the stream to be open and caught up
    /// (`EventsSeen.waitFor`) before it makes the change the stream should carry live.
    package func events(
        _ path: String, token: String, lastEventID: String? = nil, timeout: Double = 20, seen: EventsSeen? = nil,
        until: ([ServerSentEvent]) -> Bool
    ) async throws -> [ServerSentEvent] {
        var request = HTTPClientRequest(url: url + path)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await Self.client.execute(request, timeout: .seconds(Int64(timeout)))
        #expect(response.status == .ok, "\(path): \(response.status)")
        seen?.opened.withLock { $0 = true }
        var text = ""
        var events: [ServerSentEvent] = []
        let deadline = Date().addingTimeInterval(timeout)
        for try await buffer in response.body {
            text += String(buffer: buffer)
            while let end = text.range(of: "\n\n") {
                let block = String(text[..<end.lowerBound])
                text.removeSubrange(..<end.upperBound)
                if let event = ServerSentEvent(block) {
                    events.append(event)
                    seen?.events.withLock { $0.append(event) }
                }
            }
            if until(events) || Date() > deadline { break }
        }
        return events
    }
}

/// The events a stream has given so far, as `ServiceProcess.events` reads them.
package final class EventsSeen: Sendable {
    package let opened = Mutex(false)
    package let events = Mutex<[ServerSentEvent]>([])

    package init() {}

    /// Waits until the stream is open (its response has come) and has given `count` events (its
    /// backlog, say): caught up, so what happens next reaches it live.
    package func waitFor(_ count: Int, seconds: Double = 30) async throws {
        try await ReelTestSupport.waitFor("the event stream to open and give \(count) events", seconds: seconds) {
            opened.withLock { $0 } && events.withLock { $0.count } >= count
        }
    }
}

/// One event of a `text/event-stream`.
package struct ServerSentEvent: Equatable, Sendable {
    package var id: String?
    package var event: String?
    package var data = ""

    package init?(_ block: String) {
        var any = false
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") { continue }
            let (field, value) = line.firstIndex(of: ":").map { (String(line[..<$0]), String(line[line.index(after: $0)...]).drop { $0 == " " }) }
                ?? (String(line), "")
            switch field {
            case "id": id = String(value); any = true
            case "event": event = String(value); any = true
            case "data": data += (data.isEmpty ? "" : "\n") + value; any = true
            default: break
            }
        }
        if !any { return nil }
    }

    package func json() throws -> [String: Any] { try Harness.json(data) }
}

