import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Processes
import Reel
import ReelTestSupport
import Testing

@testable import ReelService

/// Signing a browser in (issue 38): a one-time link spent for an `HttpOnly`, `SameSite=Strict`
/// session cookie; a change made with the cookie only from the service's own pages (CSRF); the
/// session read, signed out, revoked with the tokens and ended with its account. The link's and
/// the session's secrets are never bearer tokens.
@Suite struct BrowserSessionTests {
    /// The service's own origin in the router's tests (their requests' authority is localhost).
    static let own = "http://localhost"

    static func body(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))) as? [String: Any] ?? [:]
    }

    static func signIn(_ client: any TestClientProtocol, _ link: String, origin: String? = own) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let origin { headers[.origin] = origin }
        return try await client.execute(uri: "/v1/session", method: .post, headers: headers, body: ByteBuffer(string: #"{"link":"\#(link)"}"#))
    }

    /// The cookie's `name=value` from a `Set-Cookie`.
    static func cookie(_ response: TestResponse) -> String? {
        response.headers[.setCookie]?.split(separator: ";").first.map(String.init)
    }

    @Test func aLinkSignsInOnceAndTheCookieActsForItsAccount() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        let link = try harness.application.createToken(for: AccountHandle("ann"), kind: .link)
        let bearer = try harness.application.createToken(for: AccountHandle("ann"))
        #expect(link.token.kind == .link && link.token.expiresAt == link.token.createdAt + TokenKind.linkLifetime)
        try await harness.test { (client: any TestClientProtocol) async throws in
            let signedIn = contract.record(.post, "/v1/session", try await Self.signIn(client, link.secret))
            #expect(signedIn.status == .created, "\(Self.body(signedIn))")
            let setCookie = try #require(signedIn.headers[.setCookie])
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=2592000"] { #expect(setCookie.contains(attribute), "\(setCookie)") }
            #expect(!setCookie.contains("Secure"), "no TLS here: \(setCookie)")
            let session = (Self.body(signedIn)["session"] as? [String: Any]) ?? [:]
            #expect(session["kind"] as? String == "session" && session["user"] as? String == "ann", "\(session)")
            #expect(!String(buffer: signedIn.body).contains("reel_"), "the session's secret is only in the cookie")
            let cookie = try #require(Self.cookie(signedIn))

            // The link is spent: a second opening (another browser, a replay) is refused.
            let again = contract.record(.post, "/v1/session", try await Self.signIn(client, link.secret))
            #expect(again.status == .unauthorized && (Self.body(again)["detail"] as? String)?.contains("opened already") == true)

            // The cookie reads and, from the service's own page, changes ann's account.
            let who = contract.record(.get, "/v1/session", try await client.execute(uri: "/v1/session", method: .get, headers: [.cookie: cookie]))
            #expect(who.status == .ok && (Self.body(who)["session"] as? [String: Any])?["user"] as? String == "ann")
            let save = try await client.execute(
                uri: "/v1/favorites", method: .post, headers: [.cookie: cookie, .origin: Self.own, .contentType: "application/json"],
                body: ByteBuffer(string: #"{"mediaType":"movie","id":603}"#))
            #expect(save.status == .created, "\(Self.body(save))")
            #expect(try harness.application.account(AccountHandle("ann")).state.saved.item(try MediaKey(.movie, 603)) != nil)

            // Neither the link's secret nor the session's is a bearer token; the app's token still is.
            for secret in [link.secret, String(cookie.dropFirst("reel_session=".count))] {
                #expect(try await client.execute(uri: "/v1/saved", method: .get, headers: ServiceHarness.bearer(secret)).status == .unauthorized)
            }
            #expect(try await client.execute(uri: "/v1/saved", method: .get, headers: ServiceHarness.bearer(bearer.secret)).status == .ok)
            // A bearer token wins over a cookie: the request is the token's.
            let both = try await client.execute(
                uri: "/v1/session", method: .get, headers: [.cookie: cookie, .authorization: "Bearer \(bearer.secret)"])
            #expect((Self.body(both)["session"] as? [String: Any])?["kind"] as? String == "token")

            // Listed with the tokens, by kind; signing out revokes the session and clears the cookie.
            let kinds = try harness.application.tokens(of: AccountHandle("ann")).map(\.kind)
            #expect(kinds == [.link, .token, .session], "\(kinds)")
            let out = contract.record(
                .delete, "/v1/session", try await client.execute(uri: "/v1/session", method: .delete, headers: [.cookie: cookie, .origin: Self.own]))
            #expect(out.status == .ok && out.headers[.setCookie]?.contains("Max-Age=0") == true, "\(out.headers)")
            let after = contract.record(.get, "/v1/session", try await client.execute(uri: "/v1/session", method: .get, headers: [.cookie: cookie]))
            #expect(after.status == .unauthorized && after.headers[.setCookie]?.contains("Max-Age=0") == true)
        }
        try await AccountAnswerTests.check(contract)
    }

    /// A page of another origin, even on the same site (another port, where a browser sends the
    /// SameSite=Strict cookie), cannot change the account with it, nor sign a browser in.
    @Test func aChangeWithTheCookieIsTakenOnlyFromTheServicesOwnOrigin() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        let ann = try AccountHandle("ann")
        let link = try harness.application.createToken(for: ann, kind: .link)
        try await harness.test { (client: any TestClientProtocol) async throws in
            let refusedSignIn = contract.record(.post, "/v1/session", try await Self.signIn(client, link.secret, origin: "http://localhost:8081"))
            #expect(refusedSignIn.status == .forbidden)
            let cookie = try #require(Self.cookie(try await Self.signIn(client, link.secret)))
            for origin in ["http://localhost:8081", "https://localhost", "http://evil.example", "null", nil] as [String?] {
                var headers: HTTPFields = [.cookie: cookie, .contentType: "text/plain"]
                if let origin { headers[.origin] = origin }
                let answer = contract.record(
                    .post, "/v1/favorites",
                    try await client.execute(
                        uri: "/v1/favorites", method: .post, headers: headers, body: ByteBuffer(string: #"{"mediaType":"movie","id":550}"#)))
                #expect(answer.status == .forbidden, "Origin \(origin ?? "(none)"): \(answer.status)")
                #expect(Self.body(answer)["kind"] as? String == "forbidden")
                let deletion = try await client.execute(uri: "/v1/account", method: .delete, headers: headers)
                #expect(deletion.status == .forbidden, "Origin \(origin ?? "(none)")")
            }
            #expect(try harness.application.account(ann).state.saved.count == 0, "nothing was changed")
            // The default port is the same origin written either way.
            let own = try await client.execute(
                uri: "/v1/favorites", method: .post, headers: [.cookie: cookie, .origin: "HTTP://LocalHost:80", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"mediaType":"movie","id":550}"#))
            #expect(own.status == .created, "\(Self.body(own))")
            // Behind a reverse proxy that serves HTTPS and says so, the page's origin is https.
            let proxied = try await client.execute(
                uri: "/v1/favorites/movie/550", method: .delete, headers: [.cookie: cookie, .origin: "https://localhost", .xForwardedProto: "https"])
            #expect(proxied.status == .ok, "\(Self.body(proxied))")
        }
        try await AccountAnswerTests.check(contract)
    }

    /// Signing in is JSON from the service's own pages only; a new sign-in ends the session the
    /// browser had; two session cookies (one planted by another port of the host) are trusted
    /// neither; behind a TLS proxy that says so the cookie is `__Host-` and `Secure`.
    @Test func signingInIsGuardedAndOneBrowserHasOneSession() async throws {
        let harness = ServiceHarness()
        let ann = try AccountHandle("ann")
        let links = try (0..<4).map { _ in try harness.application.createToken(for: ann, kind: .link) }
        try await harness.test { (client: any TestClientProtocol) async throws in
            let plain = try await client.execute(
                uri: "/v1/session", method: .post, headers: [.contentType: "text/plain", .origin: Self.own],
                body: ByteBuffer(string: #"{"link":"\#(links[0].secret)"}"#))
            #expect(plain.status == .badRequest, "a form's text/plain post: \(plain.status)")
            let crossSite = try await client.execute(
                uri: "/v1/session", method: .post, headers: [.contentType: "application/json", .secFetchSite: "cross-site"],
                body: ByteBuffer(string: #"{"link":"\#(links[0].secret)"}"#))
            #expect(crossSite.status == .forbidden)

            let first = try #require(Self.cookie(try await Self.signIn(client, links[0].secret)))
            // A second sign-in from the same browser (its cookie sent along) ends the first session.
            var headers: HTTPFields = [.contentType: "application/json", .origin: Self.own, .cookie: first]
            let second = try await client.execute(uri: "/v1/session", method: .post, headers: headers, body: ByteBuffer(string: #"{"link":"\#(links[1].secret)"}"#))
            #expect(second.status == .created)
            #expect(try await client.execute(uri: "/v1/session", method: .get, headers: [.cookie: first]).status == .unauthorized, "the first session ended")
            let secondCookie = try #require(Self.cookie(second))
            #expect(try await client.execute(uri: "/v1/session", method: .get, headers: [.cookie: secondCookie]).status == .ok)

            // Two session cookies: neither is trusted, and both are cleared.
            let planted = try await client.execute(uri: "/v1/session", method: .get, headers: [.cookie: "\(secondCookie); reel_session=reel_planted"])
            #expect(planted.status == .unauthorized && planted.headers[values: .setCookie].count == 2)

            // Behind a proxy serving HTTPS (and asked for another host): a __Host- Secure cookie, and its own origin.
            headers = [.contentType: "application/json", .origin: "https://reel.example", .xForwardedProto: "https", .xForwardedHost: "reel.example"]
            let proxied = try await client.execute(uri: "/v1/session", method: .post, headers: headers, body: ByteBuffer(string: #"{"link":"\#(links[2].secret)"}"#))
            #expect(proxied.status == .created, "\(Self.body(proxied))")
            let setCookie = proxied.headers[.setCookie] ?? ""
            #expect(setCookie.hasPrefix("__Host-reel_session=reel_") && setCookie.contains("; Secure") && setCookie.contains("Path=/"), "\(setCookie)")
        }
    }

    /// Deleting the account ends its sessions and its unspent links with its tokens.
    @Test func aDeletedAccountsCookieAndLinksAreRefused() async throws {
        let harness = ServiceHarness()
        let ann = try AccountHandle("ann")
        let link = try harness.application.createToken(for: ann, kind: .link)
        let spare = try harness.application.createToken(for: ann, kind: .link)
        try await harness.test { (client: any TestClientProtocol) async throws in
            let cookie = try #require(Self.cookie(try await Self.signIn(client, link.secret)))
            let deleted = try await client.execute(uri: "/v1/account", method: .delete, headers: [.cookie: cookie, .origin: Self.own])
            #expect(deleted.status == .ok, "\(Self.body(deleted))")
            #expect(try await client.execute(uri: "/v1/saved", method: .get, headers: [.cookie: cookie]).status == .unauthorized)
            #expect(try await Self.signIn(client, spare.secret).status == .unauthorized)
        }
    }

    /// The web app: the page and its files with the Content-Security-Policy and an ETag; an
    /// unknown file is 404.
    @Test func theWebAppIsServedWithAStrictPolicy() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        try await harness.test { (client: any TestClientProtocol) async throws in
            let page = contract.record(.get, "/", try await client.execute(uri: "/", method: .get))
            #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            for directive in ["default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"] {
                #expect(policy.contains(directive), "\(policy)")
            }
            #expect(!policy.contains("unsafe"), "\(policy)")
            let html = String(buffer: page.body)
            #expect(!html.contains("<script>") && !html.contains(" on"), "no inline script or handler")
            let etag = try #require(page.headers[.eTag])
            #expect(try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: etag]).status == .notModified)
            for (file, type) in [("app.js", "text/javascript; charset=utf-8"), ("app.css", "text/css; charset=utf-8"), ("icon.svg", "image/svg+xml")] {
                let answer = contract.record(.get, "/app/\(file)", try await client.execute(uri: "/app/\(file)", method: .get))
                #expect(answer.status == .ok && answer.headers[.contentType] == type, "\(file)")
                #expect(answer.headers[.contentSecurityPolicy] == policy && answer.headers[.xContentTypeOptions] == "nosniff")
            }
            let unknown = contract.record(.get, "/app/nothing.js", try await client.execute(uri: "/app/nothing.js", method: .get))
            #expect(unknown.status == .notFound)
            // Every module the page loads is served, and the whole app stays small (≤ 100 KB).
            let total = WebAssets.files.values.reduce(0) { $0 + $1.bytes.count }
            #expect(total <= 100_000, "the web app weighs \(total) bytes")
        }
        try await AccountAnswerTests.check(contract)
    }

    @Test func theEmbeddedWebAppIsUpToDate() async throws {
        let check = try ChildProcess.spawn(Python.command([ContractCheck.root + "/Tools/embed_web.py", "--check"]))
        #expect(await check.exit().status == 0, "Sources/ReelService/WebAssets.swift is out of date: run python3 Tools/embed_web.py")
    }
}
