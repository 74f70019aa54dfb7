import EndToEndSupport
import Foundation
import NIOHTTP1
import ReelTestSupport
import Testing

/// Request bodies over a route's limit, against a running `reel serve` over real HTTP (issue 36:
/// a chunked body over the limit was a 500, NIO's `NIOTooManyBytesError`). Every route that takes
/// a body answers 413 with a problem, whether the body states its length or comes in chunks,
/// and the service goes on.
@Suite struct ServiceBodyLimitTests {
    /// A raw HTTP/1.1 client: it sends each case's body (`chunked`, or with `Content-Length`, in
    /// blocks of 64 KiB, while reading the answer on another thread, as the service may answer
    /// before the body ends) on a connection of its own, and prints one JSON line per case:
    /// the status, Content-Type and body of the answer.
    static let client = """
        import json, socket, sys, threading
        port, token = int(sys.argv[1]), sys.argv[2]
        for case in json.loads(sys.argv[3]):
            s = socket.create_connection(("127.0.0.1", port))
            s.settimeout(60)
            size, chunked = case["size"], case["chunked"]
            head = "%s %s HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer %s\\r\\nContent-Type: %s\\r\\nConnection: close\\r\\n" % (
                case["method"], case["path"], token, case["type"])
            head += "Transfer-Encoding: chunked\\r\\n\\r\\n" if chunked else "Content-Length: %d\\r\\n\\r\\n" % size
            def send():
                try:
                    s.sendall(head.encode())
                    left = size
                    while left > 0:
                        n = min(left, 65536)
                        block = b" " * n
                        s.sendall(b"%x\\r\\n%s\\r\\n" % (n, block) if chunked else block)
                        left -= n
                    if chunked:
                        s.sendall(b"0\\r\\n\\r\\n")
                except OSError:
                    pass  # the service answered and closed before the body's end
            sender = threading.Thread(target=send)
            sender.start()
            answer = b""
            try:
                while True:
                    got = s.recv(65536)
                    if not got:
                        break
                    answer += got
            except OSError:
                pass
            sender.join()
            s.close()
            head, _, body = answer.partition(b"\\r\\n\\r\\n")
            lines = head.decode("latin-1").split("\\r\\n")
            status = int(lines[0].split(" ")[1]) if lines[0].startswith("HTTP/1.1 ") else 0
            fields = dict((l.split(":", 1)[0].lower(), l.split(":", 1)[1].strip()) for l in lines[1:] if ":" in l)
            if fields.get("transfer-encoding") == "chunked":
                whole, rest = b"", body
                while rest:
                    length, _, rest = rest.partition(b"\\r\\n")
                    n = int(length, 16)
                    if n == 0:
                        break
                    whole, rest = whole + rest[:n], rest[n + 2:]
                body = whole
            print(json.dumps({"status": status, "type": fields.get("content-type", ""), "body": body.decode("utf-8", "replace")}))
        """

    struct Case: Encodable {
        let method: String
        let path: String
        let type: String
        let size: Int
        let chunked: Bool
    }

    struct Answer: Decodable {
        let status: Int
        let type: String
        let body: String
    }

    static func send(_ cases: [Case], to service: ServiceProcess, token: String) async throws -> [Answer] {
        let port = String(service.url.split(separator: ":").last ?? "")
        let json = String(decoding: try JSONEncoder().encode(cases), as: UTF8.self)
        let out = try await Harness.run("python3", ["-c", Self.client, port, token, json])
        #expect(out.status == 0, "\(out.stderr)")
        return try out.stdout.split(separator: "\n").map { try JSONDecoder().decode(Answer.self, from: Data($0.utf8)) }
    }

    @Test func aBodyOverItsRoutesLimitIs413ChunkedOrNot() async throws {
        let service = try await ServiceProcess.start(Home())
        let token = try await service.token(for: "ana")
        let json = 64 * 1024, photo = 5_000_000, list = 64 << 20
        let routes: [(String, String, String, Int, String)] = [
            ("POST", "/v1/favorites", "application/json", json, "65,536"),
            ("PUT", "/v1/settings/name", "application/json", json, "65,536"),
            ("PUT", "/v1/settings/language", "application/json", json, "65,536"),
            ("PUT", "/v1/settings/photo", "image/jpeg", photo, "5,000,000"),
            ("POST", "/v1/import", "text/csv", list, "67,108,864"),
        ]
        var cases: [Case] = []
        for (method, path, type, limit, _) in routes {
            for chunked in [true, false] { cases.append(Case(method: method, path: path, type: type, size: limit + 1, chunked: chunked)) }
        }
        // At the limit exactly, the body is read (and refused for what it is, not its size).
        cases.append(Case(method: "POST", path: "/v1/favorites", type: "application/json", size: json, chunked: true))
        let answers = try await Self.send(cases, to: service, token: token)
        #expect(answers.count == cases.count, "\(answers)")
        for (sent, answer) in zip(cases, answers).dropLast() {
            let context = "\(sent.method) \(sent.path) \(sent.chunked ? "chunked" : "with Content-Length")"
            #expect(answer.status == 413, "\(context): \(answer.status) \(answer.body.prefix(300))")
            #expect(answer.type == "application/problem+json", "\(context): \(answer.type)")
            let problem = (try? Harness.json(answer.body)) ?? [:]
            #expect(problem["kind"] as? String == "tooLarge" && problem["status"] as? Int == 413, "\(context): \(answer.body.prefix(300))")
            let limit = routes.first { $0.1 == sent.path }!.4
            #expect((problem["detail"] as? String)?.contains("the limit of \(limit) bytes") == true, "\(context): \(answer.body.prefix(300))")
        }
        let atTheLimit = try #require(answers.last)
        #expect(atTheLimit.status == 400 && atTheLimit.body.contains("not JSON"), "\(atTheLimit.status) \(atTheLimit.body.prefix(300))")
        // The service goes on, and logged no internal error.
        #expect(try await service.request(.GET, "/health").status == 200)
        #expect(try await service.request(.POST, "/v1/favorites", token: token, json: ["mediaType": "movie", "id": 550]).status == 201)
        #expect(!service.logText.contains("\"status\":500") && !service.logText.contains("NIOTooManyBytesError"), "\(service.logText.suffix(2000))")
    }

    /// The limit is the service's setting (`REEL_SERVE_MAX_BODY`) for JSON routes, chunked too.
    @Test func theJSONLimitIsTheSettingsChunkedToo() async throws {
        let service = try await ServiceProcess.start(Home(), environment: ["REEL_SERVE_MAX_BODY": "2048"])
        let token = try await service.token(for: "ana")
        let answers = try await Self.send(
            [
                Case(method: "PUT", path: "/v1/settings/name", type: "application/json", size: 2049, chunked: true),
                Case(method: "PUT", path: "/v1/settings/name", type: "application/json", size: 2049, chunked: false),
            ], to: service, token: token)
        #expect(answers.map(\.status) == [413, 413], "\(answers)")
        #expect(answers.allSatisfy { $0.body.contains("the limit of 2,048 bytes") }, "\(answers)")
    }
}
