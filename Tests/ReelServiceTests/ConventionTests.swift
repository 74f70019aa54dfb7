import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Reel
import Testing

@testable import ReelService

/// The API by the conventions apps expect (issue 38): a wrong method is 405 with `Allow`, CORS for
/// the origins the operator names, the words the command line takes (`series`, a language's
/// name), the photo readable, `Location` on a 201, typed numbers in the request log.
@Suite struct ConventionTests {
    static let ann = AccountAnswerTests.ann
    static let app = "https://app.example"

    static func problem(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))) as? [String: Any] ?? [:]
    }

    @Test func aDocumentedPathAskedWithAnotherMethodIs405WithAllow() async throws {
        let harness = ServiceHarness()
        try await harness.test(try StandInAuthentication.router(harness, as: Self.ann)) { client in
            for (method, path, allow) in [
                (HTTPRequest.Method.get, "/v1/favorites", "POST, OPTIONS"), (.put, "/v1/saved", "GET, OPTIONS"),
                (.post, "/v1/favorites/movie/550", "GET, DELETE, OPTIONS"), (.patch, "/v1/settings/photo", "GET, PUT, DELETE, OPTIONS"),
                (.delete, "/v1/catalog/movie?page=2", "GET, OPTIONS"),
            ] {
                let answer = try await client.execute(uri: path, method: method)
                #expect(answer.status == .methodNotAllowed, "\(method) \(path)")
                #expect(answer.headers[.allow] == allow, "\(method) \(path)")
                #expect(answer.headers[.contentType] == "application/problem+json")
                let problem = Self.problem(answer)
                #expect(problem["kind"] as? String == "methodNotAllowed" && problem["status"] as? Int == 405, "\(problem)")
                #expect((problem["detail"] as? String)?.contains("takes \(allow.replacingOccurrences(of: ", OPTIONS", with: ""))") == true, "\(problem)")
            }
            // What the document does not name is still 404; OPTIONS on what it names is its Allow.
            #expect(try await client.execute(uri: "/v1/nowhere", method: .post).status == .notFound)
            let options = try await client.execute(uri: "/v1/saved", method: .options)
            #expect(options.status == .noContent && options.headers[.allow] == "GET, OPTIONS")
        }
    }

    /// Without the operator token the operator's routes are 404 whatever the method: a 405 would
    /// say they are there.
    @Test func theOperatorsPathsAreNotFoundWithoutItsTokenWhateverTheMethod() async throws {
        let off = ServiceHarness(operatorToken: nil)
        try await off.test { (client: any TestClientProtocol) async throws in
            #expect(try await client.execute(uri: "/v1/admin/accounts", method: .delete).status == .notFound)
            #expect(try await client.execute(uri: "/metrics", method: .post).status == .notFound)
        }
        let on = ServiceHarness()
        try await on.test { (client: any TestClientProtocol) async throws in
            let answer = try await client.execute(uri: "/v1/admin/accounts", method: .delete)
            #expect(answer.status == .methodNotAllowed && answer.headers[.allow] == "GET, OPTIONS")
        }
    }

    @Test func pagesOfTheOriginsTheOperatorNamesMayCallAndNoOthers() async throws {
        let harness = ServiceHarness(origins: [Self.app])
        try await harness.test(try StandInAuthentication.router(harness, as: Self.ann)) { client in
            let preflight: HTTPFields = [
                .origin: Self.app, .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "Authorization, content-type, Idempotency-Key",
            ]
            let allowed = try await client.execute(uri: "/v1/favorites", method: .options, headers: preflight)
            #expect(allowed.status == .noContent)
            #expect(allowed.headers[.accessControlAllowOrigin] == Self.app && allowed.headers[.vary] == "Origin")
            #expect(allowed.headers[.accessControlAllowMethods] == "POST")
            #expect(allowed.headers[.accessControlAllowHeaders]?.contains("idempotency-key") == true)
            #expect(allowed.headers[.accessControlMaxAge] == "600")

            var evil = preflight
            evil[.origin] = "https://evil.example"
            let refused = try await client.execute(uri: "/v1/favorites", method: .options, headers: evil)
            #expect(refused.status == .forbidden && Self.problem(refused)["kind"] as? String == "forbidden")
            #expect(refused.headers[.accessControlAllowOrigin] == nil)
            var wrongMethod = preflight
            wrongMethod[.accessControlRequestMethod] = "DELETE"
            let notTaken = try await client.execute(uri: "/v1/favorites", method: .options, headers: wrongMethod)
            #expect(notTaken.status == .methodNotAllowed && notTaken.headers[.allow] == "POST, OPTIONS")
            var oddHeader = preflight
            oddHeader[.accessControlRequestHeaders] = "authorization, x-debug"
            let header = try await client.execute(uri: "/v1/favorites", method: .options, headers: oddHeader)
            #expect(header.status == .forbidden && (Self.problem(header)["detail"] as? String)?.contains("x-debug") == true)

            // The answers: the origin named, and the headers an app reads exposed; problems too.
            let settings = try await client.execute(uri: "/v1/settings", method: .get, headers: [.origin: Self.app])
            #expect(settings.status == .ok && settings.headers[.accessControlAllowOrigin] == Self.app)
            #expect(settings.headers[.accessControlExposeHeaders]?.contains("ETag") == true)
            let bad = try await client.execute(uri: "/v1/saved?sort=best", method: .get, headers: [.origin: Self.app])
            #expect(bad.status == .badRequest && bad.headers[.accessControlAllowOrigin] == Self.app)
            let elsewhere = try await client.execute(uri: "/v1/settings", method: .get, headers: [.origin: "https://evil.example"])
            #expect(elsewhere.status == .ok && elsewhere.headers[.accessControlAllowOrigin] == nil, "the browser keeps the answer from that page")
            // Every answer varies by origin once origins are named: no cache hands one page's copy to another.
            #expect(elsewhere.headers[.vary] == "Origin")
            let missing = try await client.execute(uri: "/v1/nowhere", method: .get)
            #expect(missing.status == .notFound && missing.headers[.vary] == "Origin", "without an Origin too")
        }
        // Nobody named: no page may.
        let closed = ServiceHarness()
        try await closed.test { (client: any TestClientProtocol) async throws in
            let answer = try await client.execute(
                uri: "/v1/saved", method: .options, headers: [.origin: Self.app, .accessControlRequestMethod: "GET"])
            #expect(answer.status == .forbidden)
        }
    }

    @Test func originsAreReadFromTheEnvironmentAndAMalformedOneIsRefused() throws {
        let settings = try ServiceSettings.from(environment: ["REEL_SERVE_ORIGINS": "https://app.example, http://localhost:5173"])
        #expect(settings.allowedOrigins == ["https://app.example", "http://localhost:5173"])
        #expect(try ServiceSettings.from(environment: ["REEL_SERVE_ORIGINS": "*"]).allowedOrigins == ["*"])
        // As a browser sends them: lower case, no default port.
        #expect(try ServiceSettings.parseOrigins("HTTPS://App.Example:443 http://localhost:80 https://app.example:8443 http://[::1]:5173")
            == ["https://app.example", "http://localhost", "https://app.example:8443", "http://[::1]:5173"])
        for bad in [
            "app.example", "https://app.example/", "ftp://app.example", "https://", "https://a\u{1B}[31m", "https://*.example.com",
            "https://app.example:0", "https://app.example:99999", "https://app.example.", "https://user@app.example",
        ] {
            #expect(throws: Failure.self, "\(bad.debugDescription)") { try ServiceSettings.from(environment: ["REEL_SERVE_ORIGINS": bad]) }
        }
    }

    /// `series`, a language's English name, `Location` on a 201 pointing at the saved title, and
    /// the photo read back: each answer as the document says (checked by `ContractCheck`).
    @Test func theWordsOfTheCommandLineTheSavedTitlesPathAndThePhoto() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        try await harness.test(try StandInAuthentication.router(harness, as: Self.ann)) { client in
            let caller = AccountAnswerTests.Caller(client: client, contract: contract)
            #expect(try await caller.call(.get, "/v1/settings/photo").status == .notFound)
            let added = try await caller.call(.post, "/v1/favorites", json: #"{"mediaType":"Series","id":1399}"#)
            #expect(added.status == .created && added.headers[.location] == "/v1/favorites/tv/1399")
            #expect(try await caller.call(.post, "/v1/favorites", json: #"{"mediaType":"series","id":1399}"#).headers[.location] == nil, "saved already: 200")
            let favorite = try await caller.call(.get, "/v1/favorites/tv/1399")
            let body = Self.problem(favorite)
            #expect(favorite.status == .ok && body["mediaType"] as? String == "tv" && body["id"] as? Int == 1399, "\(body)")
            #expect(try await caller.call(.get, "/v1/favorites/series/1399").status == .ok)
            #expect(try await caller.call(.get, "/v1/saved?type=series").status == .ok)
            #expect(try await caller.call(.get, "/v1/catalog/series?page=1").status == .ok)
            #expect(try await caller.call(.get, "/v1/favorites/movie/550").status == .notFound)
            #expect(try await caller.call(.get, "/v1/favorites/film/550").status == .badRequest)
            #expect(try await caller.call(.delete, "/v1/favorites/series/1399").status == .ok)
            #expect(try await caller.call(.get, "/v1/favorites/tv/1399").status == .notFound)
            #expect(try await caller.call(.get, "/v1/favorites/tv/1399?asOf=v2").status == .ok, "saved as of then")

            #expect(try await caller.call(.put, "/v1/settings/language", json: #"{"language":"German"}"#).status == .ok)
            #expect(Self.problem(try await caller.call(.get, "/v1/settings"))["language"] as? String == "de")
            #expect(try await caller.call(.put, "/v1/settings/language", json: #"{"language":"pt_BR"}"#).status == .ok)
            let unknown = try await caller.call(.put, "/v1/settings/language", json: #"{"language":"en-UK"}"#)
            #expect(unknown.status == .badRequest && (Self.problem(unknown)["detail"] as? String)?.contains("en-GB") == true)

            #expect(try await caller.call(.put, "/v1/settings/photo", bytes: AccountAnswerTests.png).status == .ok)
            let photo = try await caller.call(.get, "/v1/settings/photo")
            #expect(photo.status == .ok && photo.headers[.contentType] == "image/png")
            #expect(Array(photo.body.readableBytesView) == AccountAnswerTests.png)
            let etag = try #require(photo.headers[.eTag])
            let again = try await caller.call(.get, "/v1/settings/photo", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            #expect(try await caller.call(.get, "/v1/settings/photo?asOf=v1").status == .notFound, "no photo as of the account's opening")
            #expect(try await caller.call(.delete, "/v1/settings/photo").status == .ok)
            #expect(try await caller.call(.get, "/v1/settings/photo").status == .notFound)
        }
        try await AccountAnswerTests.check(contract)
    }

    /// The request log's numbers are JSON numbers (a log pipeline sums and compares them).
    @Test func numbersAreLoggedAsNumbers() {
        #expect(JSONLogHandler.json(.stringConvertible(401)) == .integer(401))
        #expect(JSONLogHandler.json(.stringConvertible(0.039)) == .double(0.039))
        #expect(JSONLogHandler.json(.stringConvertible(Double.nan)) == .string("nan"))
        #expect(JSONLogHandler.json("GET") == .string("GET"))
    }
}

/// `GET /v1/saved?limit=N`: pages that follow each other by their `Link`, together the whole list
/// in its order, neither repeating nor skipping a title when one is removed between two pages.
@Suite struct SavedPagesTests {
    static func body(_ response: TestResponse) -> [String: Any] { ConventionTests.problem(response) }

    static func ids(_ response: TestResponse) -> [Int] {
        (body(response)["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }

    static func next(_ response: TestResponse) -> String? {
        guard let link = response.headers[.link], link.hasPrefix("<"), let end = link.firstIndex(of: ">") else { return nil }
        #expect(link.hasSuffix(#">; rel="next""#), "\(link)")
        return String(link[link.index(after: link.startIndex)..<end])
    }

    @Test func pagesFollowTheirLinksAndAddUpToTheList() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        try await harness.test(try StandInAuthentication.router(harness, as: ConventionTests.ann)) { client in
            let caller = AccountAnswerTests.Caller(client: client, contract: contract)
            for id in [550, 603, 13, 278, 238] {
                #expect(try await caller.call(.post, "/v1/favorites", json: #"{"mediaType":"movie","id":\#(id)}"#).status == .created)
            }
            let whole = Self.ids(try await caller.call(.get, "/v1/saved?sort=title"))
            #expect(whole.count == 5)
            var seen: [Int] = []
            var path: String? = "/v1/saved?sort=title&limit=2"
            var pages = 0
            while let next = path, pages < 5 {
                let page = try await caller.call(.get, next)
                #expect(page.status == .ok && Self.body(page)["count"] as? Int == Self.ids(page).count, "\(next)")
                seen += Self.ids(page)
                path = Self.next(page)
                pages += 1
            }
            #expect(seen == whole && pages == 3, "\(seen) in \(pages) pages; the list is \(whole)")

            // The last title of page one removed before page two is asked: page two starts where it was.
            let first = try await caller.call(.get, "/v1/saved?sort=title&limit=2")
            let second = try #require(Self.next(first))
            #expect(try await caller.call(.delete, "/v1/favorites/movie/\(Self.ids(first)[1])").status == .ok)
            #expect(Self.ids(try await caller.call(.get, second)) == Array(whole[2..<4]))

            for bad in ["/v1/saved?limit=0", "/v1/saved?limit=1001", "/v1/saved?limit=2&cursor=bm9wZQ", "/v1/saved?cursor=%1B%5B31m"] {
                let answer = try await caller.call(.get, bad)
                #expect(answer.status == .badRequest, "\(bad)")
                #expect(!String(buffer: answer.body).contains("\u{1B}"), "\(bad)")
            }
        }
        try await AccountAnswerTests.check(contract)
    }
}
