import EndToEndSupport
import Foundation
import Processes
import NIOHTTP1
import ReelTestSupport
import Synchronization
import Testing

/// `reel serve` against clients that misbehave: trickled headers (slowloris), header floods,
/// more event streams than a token may hold, appends in flight at SIGTERM.
@Suite(.serialized) struct ServiceHostileTests {
    /// A raw client in Python: it does what AsyncHTTPClient never would.
    static func python(_ script: String, _ arguments: [String]) async throws -> Harness.Output {
        try await Harness.run("python3", ["-c", script] + arguments)
    }

    /// Python: `trickle(s)` begins a request's head on socket `s` and sends a header every half
    /// second, until the service closes the connection (or 10 s pass); the seconds it was kept.
    static let trickle = """
        def trickle(s):
            s.sendall(b"GET /health HTTP/1.1\\r\\nHost: x\\r\\n")
            start = time.time()
            try:
                for i in range(20):
                    s.sendall(b"X-Slow-%d: y\\r\\n" % i)
                    time.sleep(0.5)  # a fixed delay is what this checks: a header every half second
                    s.settimeout(0.01)
                    try:
                        if s.recv(1) == b"":
                            break
                    except socket.timeout:
                        pass
            except (BrokenPipeError, ConnectionResetError):
                pass
            return time.time() - start
        """

    @Test func aClientThatTricklesItsHeadersIsCutOff() async throws {
        let service = try await ServiceProcess.start(Home(), environment: ["REEL_SERVE_HEADER_TIMEOUT": "1"])
        let port = String(service.url.split(separator: ":").last ?? "")
        let script = """
            import socket, sys, time
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            \(Self.trickle)
            print("%.1f" % trickle(s))
            """
        let out = try await Self.python(script, [port])
        let seconds = Double(out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99
        #expect(seconds < 4, "the slow client was kept for \(seconds) s: \(out.stderr)")
        #expect(try await service.request(.GET, "/health").status == 200, "the service still answers others")
    }

    /// A kept-alive connection is held to the head's limit from the first byte of its next
    /// request, not from the last answer: one left idle past the limit (as a client's connection
    /// pool leaves it) is served when it asks again; one that then trickles is cut off.
    @Test func aKeptAliveConnectionIsIdleUntilItsNextRequestBegins() async throws {
        let service = try await ServiceProcess.start(Home(), environment: ["REEL_SERVE_HEADER_TIMEOUT": "1"])
        let port = String(service.url.split(separator: ":").last ?? "")
        let script = """
            import socket, sys, time
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.settimeout(10)
            def answer():
                data = b""
                while b"\\r\\n\\r\\n" not in data:
                    chunk = s.recv(4096)
                    if not chunk:
                        return "closed"
                    data += chunk
                head, body = data.split(b"\\r\\n\\r\\n", 1)
                length = int([l.split(b":")[1] for l in head.split(b"\\r\\n") if l.lower().startswith(b"content-length:")][0])
                while len(body) < length:
                    body += s.recv(4096)
                return head.split(b"\\r\\n")[0].decode()
            s.sendall(b"GET /health HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            print(answer())
            time.sleep(2.5)  # idle past the 1 s limit: what this checks
            s.sendall(b"GET /health HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            print(answer())
            time.sleep(2.5)
            \(Self.trickle)
            print("%.1f" % trickle(s))
            """
        let out = try await Self.python(script, [port])
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(out.stdout) \(out.stderr)")
        #expect(lines.first?.contains("200") == true, "the first request: \(out.stdout) \(out.stderr)")
        #expect(lines.dropFirst().first?.contains("200") == true, "asked again after 2.5 s idle: \(out.stdout) \(out.stderr)")
        let seconds = Double(lines.last ?? "") ?? 99
        #expect(seconds < 4, "the kept-alive connection trickling its next head was kept for \(seconds) s: \(out.stderr)")
    }

    /// A request answered before its body ended (413: the body is over the route's limit) leaves
    /// a connection that is not idle, the client still owing the body: it is closed within the
    /// head's limit of the answer, even while the client sends nothing more.
    @Test func aConnectionAnsweredBeforeItsBodyEndedIsClosed() async throws {
        let service = try await ServiceProcess.start(Home(), environment: ["REEL_SERVE_HEADER_TIMEOUT": "1", "REEL_SERVE_MAX_BODY": "1024"])
        let token = try await service.token(for: "ana")
        let port = String(service.url.split(separator: ":").last ?? "")
        let script = """
            import socket, sys, time
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.settimeout(30)
            s.sendall(b"POST /v1/favorites HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer %s\\r\\nContent-Type: application/json\\r\\nContent-Length: 100000\\r\\n\\r\\n" % sys.argv[2].encode())
            s.sendall(b" " * 4096)  # over the limit, far from the body's end; nothing more is sent
            data = b""
            start = None
            try:
                while True:
                    got = s.recv(65536)
                    if not got:
                        break
                    if start is None:
                        start = time.time()
                    data += got
            except socket.timeout:
                print("kept open")
                sys.exit(0)
            print(data.split(b"\\r\\n")[0].decode())
            print("%.1f" % (time.time() - (start or time.time())))
            """
        let out = try await Self.python(script, [port, token])
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("413") == true, "\(out.stdout) \(out.stderr)")
        let seconds = Double(lines.last ?? "") ?? 99
        #expect(seconds < 10, "closed \(seconds) s after the answer: \(out.stdout) \(out.stderr)")
    }

    @Test func aFloodOfHeadersIsRefusedAndTheServiceGoesOn() async throws {
        let service = try await ServiceProcess.start(Home())
        let port = String(service.url.split(separator: ":").last ?? "")
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.settimeout(10)
            head = b"GET /health HTTP/1.1\\r\\nHost: x\\r\\n" + b"".join(b"X-Flood-%d: %s\\r\\n" % (i, b"y" * 100) for i in range(5000)) + b"\\r\\n"
            try:
                s.sendall(head)
                answer = s.recv(100)
            except (BrokenPipeError, ConnectionResetError):
                answer = b""
            print(answer.split(b"\\r\\n")[0].decode() or "closed")
            """
        let out = try await Self.python(script, [port])
        #expect(!out.stdout.contains("200"), "5,000 headers were served: \(out.stdout)")
        #expect(try await service.request(.GET, "/health").status == 200)
    }

    @Test func aTokenHoldsABoundedNumberOfEventStreams() async throws {
        let service = try await ServiceProcess.start(Home(), environment: ["REEL_SERVE_STREAMS": "2"])
        let token = try await service.token(for: "ana")
        let (oneOpen, twoOpen) = (EventsSeen(), EventsSeen())
        async let one = service.events("/v1/events", token: token, timeout: 4, seen: oneOpen) { _ in false }
        async let two = service.events("/v1/events", token: token, timeout: 4, seen: twoOpen) { _ in false }
        try await oneOpen.waitFor(1)
        try await twoOpen.waitFor(1)
        let third = try await service.request(.GET, "/v1/events", token: token)
        #expect(third.status == 429, "\(third.text)")
        #expect(third.header("Retry-After") != nil)
        _ = try await (one, two)
        // The two dropped: the service has let their places go once it counts no stream open.
        try await waitFor("the service to count no event stream open") {
            let metrics = try? await service.request(.GET, "/metrics", token: ServiceProcess.operatorToken)
            return metrics?.text.split(separator: "\n").contains { $0.hasPrefix("reel_sse_streams_open ") && Double($0.split(separator: " ").last ?? "") == 0 } == true
        }
        let fourth = try await service.events("/v1/events", token: token, timeout: 2) { $0.count >= 1 }
        #expect(fourth.first?.event == "account-opened", "a stream closed frees its place")
    }

    @Test func sigtermUnderLoadKeepsEveryAcknowledgedAppendAndExitsCleanly() async throws {
        let home = Home()
        // Thousands of ids, more than the sample catalog holds: saved unchecked, offline.
        let service = try await ServiceProcess.start(home, environment: LedgerHome.unchecked)
        var tokens: [String] = []
        for user in 0..<8 { tokens.append(try await service.token(for: "user\(user)")) }
        let clientsTokens = tokens
        final class Acknowledged: Sendable { let count = Mutex(0) }
        let running = Acknowledged()
        let acknowledged = try await withThrowingTaskGroup(of: [(Int, Int)].self) { group in
            for client in 0..<64 {
                group.addTask {
                    var done: [(Int, Int)] = []
                    for n in 0..<400 {
                        let id = 100_000 + client * 1_000 + n
                        guard let answer = try? await service.request(
                            .POST, "/v1/favorites", token: clientsTokens[client % 8], json: ["mediaType": "movie", "id": id])
                        else { break }
                        if answer.status == 201 {
                            done.append((client % 8, id))
                            running.count.withLock { $0 += 1 }
                        } else if answer.status >= 500 || answer.status == 503 { break }
                    }
                    return done
                }
            }
            group.addTask {
                // Under load: a few hundred appends acknowledged, the 64 clients still sending.
                try await waitFor("the load to run", seconds: 60) { running.count.withLock { $0 } >= 256 }
                service.server.child.signal(SIGTERM)
                return []
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let status = try await service.stopped()
        #expect(status == 0, "exit \(status): \(service.logText.suffix(500))")
        #expect(acknowledged.count > 64, "the load ran: \(acknowledged.count) acknowledged")
        for user in 0..<8 {
            let out = try await service.reel(["saved", "--json", "--user", "user\(user)"])
            let saved = Set((try Harness.json(out.stdout)["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int })
            let missing = acknowledged.filter { $0.0 == user && !saved.contains($0.1) }
            #expect(missing.isEmpty, "user\(user): acknowledged but not saved: \(missing.prefix(5))")
        }
        let audit = try await service.reel(["audit", "verify"])
        #expect(audit.status == 0, "\(audit.stderr)")
    }
}
