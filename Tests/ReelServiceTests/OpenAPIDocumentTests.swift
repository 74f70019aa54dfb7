import Foundation
import Processes
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelTestSupport
import Testing

@testable import ReelService

/// The contract and the handlers agree: the document served is the one in Schemas/, every route
/// the router registers is documented and every documented operation is served, and the document
/// says who may call what.
@Suite struct OpenAPIDocumentTests {
    static func document() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: ContractCheck.documentPath))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// `GET /v1/favorites/{mediaType}/{id}`, and so on, for every operation of the document.
    static func operations(_ document: [String: Any]) throws -> [String: [String: Any]] {
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: [String: [String: Any]] = [:]
        for (path, item) in paths {
            for method in methods {
                if let operation = item[method] as? [String: Any] { operations["\(method.uppercased()) \(path)"] = operation }
            }
        }
        return operations
    }

    @Test func theServedDocumentIsTheOneInSchemas() async throws {
        let embedded = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? NSDictionary
        let file = try Self.document() as NSDictionary
        #expect(embedded == file, "Sources/ReelService/OpenAPIDocument.swift is out of date: run python3 Tools/embed_openapi.py")
        let check = try ChildProcess.spawn(Python.command([ContractCheck.root + "/Tools/embed_openapi.py", "--check"]))
        #expect(await check.exit().status == 0, "the embedded text is what the tool writes")
        #expect(file["openapi"] as? String == "3.1.0")
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedOperationIsARoute() throws {
        let harness = ServiceHarness()
        let routes = Set(harness.router().routes.map { "\($0.method.rawValue) \($0.path.description)" })
        let documented = Set(try Self.operations(Self.document()).keys)
        #expect(routes.count >= 24, "\(routes.sorted())")
        #expect(routes.subtracting(documented).isEmpty, "served but not documented: \(routes.subtracting(documented).sorted())")
        #expect(documented.subtracting(routes).isEmpty, "documented but not served: \(documented.subtracting(routes).sorted())")
    }

    /// Each documented operation, asked without credentials, reaches its route: the open ones
    /// answer, the others refuse with 401 (a path the router does not know is 404, before any
    /// authentication). Each answer is one the document gives for it.
    @Test func everyDocumentedOperationIsAnsweredByItsRoute() async throws {
        let operations = try Self.operations(Self.document()).keys.sorted()
        let contract = ContractCheck()
        let harness = ServiceHarness()
        try await harness.test { client in
            for key in operations {
                let parts = key.split(separator: " ")
                let method = HTTPRequest.Method(String(parts[0]))!
                let path = parts[1].replacingOccurrences(of: "{mediaType}", with: "movie").replacingOccurrences(of: "{id}", with: "550")
                    .replacingOccurrences(of: "{kind}/{size}/{file}", with: "poster/w342/reel-sample-movie-603-poster.jpg")
                    .replacingOccurrences(of: "{asset}", with: "app.js").replacingOccurrences(of: "/tile/**", with: "/tile/0/000.p/1")
                    .replacingOccurrences(of: "{shard}", with: "a")
                let response = contract.record(method, path, try await client.execute(uri: path, method: method))
                let open = ["/health", "/ready", "/openapi.json", "/"].contains(path) || path.hasPrefix("/images/") || path.hasPrefix("/app/")
                // Signing in takes no token: without a body it is a bad request, not a 401.
                // The transparency log's routes are open; the harness's ledger has no event to sign,
                // and its store is no shard map; it is no witness.
                let log = path == "/checkpoint" || path.hasPrefix("/tile/") || path.hasPrefix("/shards/") || path == "/add-checkpoint"
                    || path.hasPrefix("/witness/")
                let expected: HTTPResponse.Status = key == "POST /v1/session" ? .badRequest : log ? .notFound : open ? .ok : .unauthorized
                #expect(response.status == expected, "\(key): \(response.status)")
            }
            let unknown = contract.record(.get, "/v1/nowhere", try await client.execute(uri: "/v1/nowhere", method: .get), as: "NotFound")
            #expect(unknown.status == .notFound)
            // A documented path asked with a method it does not take: 405, with what it takes.
            let wrongMethod = contract.record(.get, "/v1/favorites", try await client.execute(uri: "/v1/favorites", method: .get), as: "MethodNotAllowed")
            #expect(wrongMethod.status == .methodNotAllowed && wrongMethod.headers[.allow] == "POST, OPTIONS")
        }
        let verdict = try await contract.verdict()
        #expect(verdict.status == 0 && verdict.failures.isEmpty, "\(verdict)")
    }

    /// Account routes take the account token, operator routes the operator token, the system's
    /// own routes none; the Idempotency-Key header is documented exactly where it makes a retry
    /// safe; every answer documents X-Request-Id, every 401 WWW-Authenticate, every 429 Retry-After.
    @Test func theDocumentSaysWhoMayCallWhatAndWhichHeadersGo() throws {
        let document = try Self.document()
        let components = try #require(document["components"] as? [String: Any])
        let parameters = try #require(components["parameters"] as? [String: [String: Any]])
        let responses = try #require(components["responses"] as? [String: [String: Any]])
        let idempotent: Set = [
            "POST /v1/favorites", "DELETE /v1/favorites/{mediaType}/{id}", "PUT /v1/settings/name", "PUT /v1/settings/language",
            "DELETE /v1/settings/photo",
        ]
        func resolve(_ value: [String: Any]) -> [String: Any] {
            guard let reference = value["$ref"] as? String else { return value }
            let parts = reference.split(separator: "/")
            let table = parts[2] == "parameters" ? parameters : responses
            return table[String(parts[3])] ?? [:]
        }
        for (key, operation) in try Self.operations(document) {
            let path = String(key.split(separator: " ")[1])
            let schemes = (operation["security"] as? [[String: Any]])?.flatMap(\.keys) ?? ["(none given)"]
            let expected: [String] =
                path.hasPrefix("/v1/admin/") || path == "/metrics"
                ? ["operatorToken"] : path.hasPrefix("/v1/") && key != "POST /v1/session" ? ["accountToken", "sessionCookie"] : []
            #expect(schemes == expected, "\(key): security \(schemes)")
            let headers = ((operation["parameters"] as? [[String: Any]]) ?? []).map(resolve).filter { $0["in"] as? String == "header" }
            #expect(headers.contains { $0["name"] as? String == "Idempotency-Key" } == idempotent.contains(key), "\(key): Idempotency-Key")
            #expect(headers.contains { $0["name"] as? String == "Last-Event-ID" } == (key == "GET /v1/events"), "\(key): Last-Event-ID")
            for (status, value) in try #require(operation["responses"] as? [String: [String: Any]]) {
                let response = resolve(value)
                let names = Set(((response["headers"] as? [String: Any]) ?? [:]).keys)
                #expect(names.contains("X-Request-Id"), "\(key) \(status): X-Request-Id")
                if status == "401" { #expect(names.contains("WWW-Authenticate"), "\(key) 401") }
                if status == "429" || status == "503" { #expect(names.contains("Retry-After"), "\(key) \(status)") }
                if status.hasPrefix("4") || status.hasPrefix("5") {
                    // The one exception: a witness's 409 is the size it last cosigned, as C2SP tlog-witness says.
                    let content = response["content"] as? [String: Any]
                    let type = key == "POST /add-checkpoint" && status == "409" ? "text/x.tlog.size" : "application/problem+json"
                    #expect(content.map { Array($0.keys) } == [type], "\(key) \(status): problems only")
                }
            }
            if !expected.isEmpty {
                #expect((operation["responses"] as? [String: Any])?["401"] != nil, "\(key): a token route documents 401")
            }
            if expected == ["accountToken"] {
                #expect((operation["responses"] as? [String: Any])?["429"] != nil, "\(key): an account route documents 429")
            }
        }
    }

    /// The checker is able to say no: a status the operation does not document, a problem of
    /// the wrong kind, a missing required header, a body that is not the schema.
    @Test func theContractCheckerRefusesWhatTheDocumentDoesNotSay() async throws {
        let problem = #"{"type":"https://reel.invalid/problems/unauthorized","title":"Unauthorized","status":401,"kind":"unauthorized","detail":"no"}"#
        let headers = ["Content-Type": "application/problem+json", "X-Request-Id": "1", "WWW-Authenticate": #"Bearer realm="reel""#]
        func exchange(_ label: String, _ path: String, _ status: Int, _ headers: [String: String], _ body: String) -> ContractCheck.Exchange {
            .init(label: label, method: "GET", path: path, response: nil, status: status, headers: headers, body: body)
        }
        let good = try await ContractCheck.check([exchange("good", "/v1/saved", 401, headers, problem)])
        #expect(good.status == 0, "\(good)")
        let bad = try await ContractCheck.check([
            exchange("undocumented status", "/health", 500, headers, problem),
            exchange("wrong kind", "/v1/saved", 401, headers, problem.replacingOccurrences(of: #""kind":"unauthorized""#, with: #""kind":"usage""#)),
            exchange("no WWW-Authenticate", "/v1/saved", 401, headers.filter { $0.key != "WWW-Authenticate" }, problem),
            exchange("an extra member", "/health", 200, ["Content-Type": "application/json", "X-Request-Id": "1"], #"{"status":"ok","x":1}"#),
            exchange("not a path", "/v2/saved", 401, headers, problem),
        ])
        #expect(bad.status == 1)
        #expect(bad.failures.count == 5, "\(bad)")
    }
}
