import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Reel
import Testing

@testable import ReelService

/// The service's own router answers as its document says: the open routes, refusals (401, 404),
/// and the operator's routes with and without the operator token.
@Suite struct ServiceAnswerTests {
    @Test func theOpenRoutesAndRefusalsAnswerAsDocumented() async throws {
        let contract = ContractCheck()
        try await ServiceHarness().test { client in
            let health = contract.record(.get, "/health", try await client.execute(uri: "/health", method: .get))
            #expect(health.status == .ok && String(buffer: health.body) == #"{"status":"ok"}"# + "\n")
            #expect(contract.record(.get, "/ready", try await client.execute(uri: "/ready", method: .get)).status == .ok)
            let served = contract.record(.get, "/openapi.json", try await client.execute(uri: "/openapi.json", method: .get))
            #expect(Array(served.body.readableBytesView) == OpenAPIDocument.bytes)

            let none = contract.record(.get, "/v1/saved", try await client.execute(uri: "/v1/saved", method: .get))
            #expect(none.status == .unauthorized && none.headers[.wwwAuthenticate] == #"Bearer realm="reel""#)
            let unknown = try await client.execute(uri: "/v1/saved", method: .get, headers: ServiceHarness.bearer("reel_unknown"))
            #expect(contract.record(.get, "/v1/saved", unknown).status == .unauthorized)
            let basic = try await client.execute(uri: "/v1/history", method: .get, headers: [.authorization: "Basic YTpi"])
            #expect(contract.record(.get, "/v1/history", basic).status == .unauthorized)
            let post = try await client.execute(uri: "/v1/favorites", method: .post, body: ByteBuffer(string: #"{"mediaType":"movie","id":550}"#))
            #expect(contract.record(.post, "/v1/favorites", post).status == .unauthorized, "authentication comes before the body is read")

            let nowhere = contract.record(.get, "/nowhere", try await client.execute(uri: "/nowhere", method: .get), as: "NotFound")
            #expect(nowhere.status == .notFound)
            #expect(nowhere.headers[.contentType] == "application/problem+json" && nowhere.headers[.requestID] != nil)
        }
        let verdict = try await contract.verdict()
        #expect(verdict.status == 0 && verdict.failures.isEmpty, "\(verdict)")
    }

    /// `Authorization: Bearer <token>`: the scheme in any case, spaces and tabs around the token
    /// ignored; anything else is no token.
    @Test func theBearerTokenIsReadFromTheAuthorizationHeader() {
        #expect(AccountAuthentication.bearer("Bearer reel_abc") == "reel_abc")
        #expect(AccountAuthentication.bearer("bearer \t reel_abc \t") == "reel_abc")
        #expect(AccountAuthentication.bearer("BEARER reel_a b") == "reel_a b")
        #expect(AccountAuthentication.bearer("Bearer ") == nil)
        #expect(AccountAuthentication.bearer("Bearer    \t") == nil)
        #expect(AccountAuthentication.bearer("Basic dXNlcjpwYXNz") == nil)
        #expect(AccountAuthentication.bearer("Bearerreel_abc") == nil)
        #expect(AccountAuthentication.bearer(nil) == nil)
        #expect(AccountAuthentication.bearer("Bearer é✓") == "é✓")
    }

    @Test func withoutAnOperatorTokenTheOperatorsRoutesAreNotThere() async throws {
        let contract = ContractCheck()
        try await ServiceHarness(operatorToken: nil).test { client in
            for (method, path) in [(HTTPRequest.Method.get, "/v1/admin/accounts"), (.get, "/metrics"), (.post, "/v1/admin/audit/verify")] {
                let response = try await client.execute(uri: path, method: method, headers: ServiceHarness.bearer(ServiceHarness.operatorToken))
                #expect(contract.record(method, path, response).status == .notFound, "\(path)")
            }
        }
        let verdict = try await contract.verdict()
        #expect(verdict.status == 0 && verdict.failures.isEmpty, "\(verdict)")
    }

    @Test func theOperatorsRoutesAnswerAsDocumented() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        let operatorToken = ServiceHarness.bearer(ServiceHarness.operatorToken)
        try await harness.test { client in
            let wrong = try await client.execute(uri: "/v1/admin/accounts", method: .get, headers: ServiceHarness.bearer("not-the-operator-token"))
            #expect(contract.record(.get, "/v1/admin/accounts", wrong).status == .unauthorized)
            let empty = try await client.execute(uri: "/v1/admin/accounts", method: .get, headers: operatorToken)
            #expect(contract.record(.get, "/v1/admin/accounts", empty).status == .ok)
            let noLedger = try await client.execute(uri: "/v1/admin/audit/verify", method: .post, headers: operatorToken)
            contract.record(.post, "/v1/admin/audit/verify", noLedger)

            let ann = try AccountHandle("ann")
            _ = try await harness.application.addFavorites([try MediaKey(.movie, 550), try MediaKey(.tv, 1399)], for: ann)
            _ = try harness.application.change(.rename(try ProfileName("Ann")), for: ann)
            _ = try await harness.application.removeFavorites([try MediaKey(.tv, 1399)], for: ann)

            let accounts = try await client.execute(uri: "/v1/admin/accounts", method: .get, headers: operatorToken)
            #expect(contract.record(.get, "/v1/admin/accounts", accounts).status == .ok)
            #expect(String(buffer: accounts.body).contains(#""user":"ann""#))
            for path in ["/v1/admin/tokens", "/v1/admin/tokens?user=ann", "/v1/admin/tokens?user=Not%20A%20Handle"] {
                contract.record(.get, path, try await client.execute(uri: path, method: .get, headers: operatorToken))
            }
            let verify = try await client.execute(uri: "/v1/admin/audit/verify", method: .post, headers: operatorToken)
            #expect(contract.record(.post, "/v1/admin/audit/verify", verify).status == .ok)
            #expect(String(buffer: verify.body).contains(#""ok":true"#))
            for path in ["/v1/admin/projections/rebuild?check=true", "/v1/admin/projections/rebuild", "/v1/admin/projections/rebuild?check=maybe"] {
                contract.record(.post, path, try await client.execute(uri: path, method: .post, headers: operatorToken))
            }
            var streaming = operatorToken
            streaming[.accept] = "text/event-stream"
            let events = try await client.execute(uri: "/v1/admin/projections/rebuild", method: .post, headers: streaming)
            #expect(contract.record(.post, "/v1/admin/projections/rebuild", events).status == .ok)
            #expect(events.headers[.contentType] == "text/event-stream")
            #expect(String(buffer: events.body).contains("event: result\ndata: {"), "\(String(buffer: events.body))")
            let metrics = try await client.execute(uri: "/metrics", method: .get, headers: operatorToken)
            #expect(contract.record(.get, "/metrics", metrics).status == .ok)
            #expect(String(buffer: metrics.body).contains("reel_http_requests_total"))
        }
        let verdict = try await contract.verdict()
        #expect(verdict.status == 0 && verdict.failures.isEmpty, "\(verdict)")
    }
}
