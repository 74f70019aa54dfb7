import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Reel
import Testing

@testable import ReelService

/// The account and catalog routes' answers, successes and refusals, are what the document says:
/// each status documented for its operation, each JSON body valid against its schema (every key
/// present, nulls where the document allows them), each problem of a kind its status carries.
@Suite struct AccountAnswerTests {
    static let ann = try! AccountHandle("ann")
    /// A 1×1 PNG.
    static let png = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!)

    /// Sends one request and keeps its answer for the contract check.
    struct Caller {
        let client: any TestClientProtocol
        let contract: ContractCheck

        @discardableResult
        func call(_ method: HTTPRequest.Method, _ path: String, json: String? = nil, bytes: [UInt8]? = nil, headers: HTTPFields = [:]) async throws
            -> TestResponse
        {
            let body = json.map { ByteBuffer(string: $0) } ?? bytes.map { ByteBuffer(bytes: $0) }
            return contract.record(method, path, try await client.execute(uri: path, method: method, headers: headers, body: body))
        }
    }

    static func check(_ contract: ContractCheck) async throws {
        let verdict = try await contract.verdict()
        #expect(verdict.status == 0 && verdict.failures.isEmpty, "\(verdict)")
    }

    /// A token opens its account (`reel token create`): before any change, the account has its
    /// one `account-opened` event and the default settings.
    @Test func readingAnAccountJustOpenedByItsToken() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        try await harness.test(try StandInAuthentication.router(harness, as: Self.ann)) { client in
            let caller = Caller(client: client, contract: contract)
            let settings = try await caller.call(.get, "/v1/settings")
            #expect(settings.status == .ok && String(buffer: settings.body).contains(#""stream":"account-"#))
            #expect(try await caller.call(.get, "/v1/saved").status == .ok)
            let history = try await caller.call(.get, "/v1/history")
            #expect(history.status == .ok && String(buffer: history.body).contains(#""type":"account-opened""#))
            #expect(try await caller.call(.get, "/v1/settings?asOf=v1").status == .ok)
            #expect(try await caller.call(.get, "/v1/settings?asOf=v2").status == .notFound, "a point past the end is not found, as for the command (66)")
            #expect(try await caller.call(.get, "/v1/export").status == .ok)
            #expect(try await caller.call(.get, "/v1/events?after=soon").status == .badRequest)
        }
        try await Self.check(contract)
    }

    @Test func changesAndReadsOfAnAccount() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        try await harness.test(try StandInAuthentication.router(harness, as: Self.ann)) { client in
            let caller = Caller(client: client, contract: contract)
            let key: HTTPFields = [.idempotencyKey: "6a1f0c52-9d3e-4f7b-8c21-0e5d4b3a2f10"]
            let added = try await caller.call(.post, "/v1/favorites", json: #"{"mediaType":"movie","id":550}"#, headers: key)
            #expect(added.status == .created)
            #expect(try await caller.call(.post, "/v1/favorites", json: #"{"mediaType":"movie","id":550.0,"note":"ignored"}"#).status == .ok)
            #expect(try await caller.call(.post, "/v1/favorites", json: #"{"mediaType":"tv","id":1399}"#).status == .created)
            // An id the catalog (here the bundled sample) does not have is refused, nothing saved.
            #expect(try await caller.call(.post, "/v1/favorites", json: #"{"mediaType":"movie","id":2147483000}"#).status == .notFound)
            for refused in [#"{"mediaType":"film","id":1}"#, #"{"mediaType":"movie","id":0}"#, #"{"mediaType":"movie"}"#, "[]", "not json", ""] {
                #expect(try await caller.call(.post, "/v1/favorites", json: refused).status == .badRequest, "\(refused)")
            }
            #expect(
                try await caller.call(.delete, "/v1/favorites/tv/1399", headers: key).status == .badRequest,
                "a key used already for another request is refused")
            #expect(try await caller.call(.delete, "/v1/favorites/movie/2147483000", headers: [.idempotencyKey: "remove-2147483000"]).status == .ok)
            #expect(try await caller.call(.delete, "/v1/favorites/movie/13").status == .ok, "not saved: nothing to do")
            #expect(try await caller.call(.delete, "/v1/favorites/film/13").status == .badRequest)
            #expect(try await caller.call(.delete, "/v1/favorites/movie/abc").status == .badRequest)

            #expect(try await caller.call(.put, "/v1/settings/name", json: #"{"name":"Ann"}"#, headers: [.idempotencyKey: "name-ann"]).status == .ok)
            #expect(try await caller.call(.put, "/v1/settings/name", json: #"{"name":"\u0007"}"#).status == .badRequest)
            #expect(try await caller.call(.put, "/v1/settings/language", json: #"{"language":"de-DE"}"#).status == .ok)
            #expect(try await caller.call(.put, "/v1/settings/language", json: #"{"language":"xx-XX"}"#).status == .badRequest)
            #expect(try await caller.call(.put, "/v1/settings/photo", bytes: Self.png, headers: [.contentType: "image/png"]).status == .ok)
            #expect(try await caller.call(.put, "/v1/settings/photo", bytes: Array("GIF89a".utf8)).status == .badRequest)
            let settings = try await caller.call(.get, "/v1/settings")
            #expect(String(buffer: settings.body).contains(#""contentType":"image/png""#))
            #expect(try await caller.call(.delete, "/v1/settings/photo").status == .ok)
            #expect(try await caller.call(.delete, "/v1/settings/photo").status == .ok)

            for path in [
                "/v1/saved", "/v1/saved?type=movie&sort=title&descending=true", "/v1/saved?search=fight&genre=Drama&genre=18&anyGenre=1",
                "/v1/saved?asOf=2", "/v1/saved?asOf=v1", "/v1/saved?asOf=2100-01-01T00:00:00.5Z", "/v1/settings?asOf=v2", "/v1/history",
                "/v1/history?limit=2", "/v1/history?asOf=v3",
            ] {
                #expect(try await caller.call(.get, path).status == .ok, "\(path)")
            }
            for path in ["/v1/saved?sort=best", "/v1/saved?descending=yes", "/v1/saved?asOf=0", "/v1/saved?type=film", "/v1/history?limit=0"] {
                #expect(try await caller.call(.get, path).status == .badRequest, "\(path)")
            }
            for path in ["/v1/saved?asOf=v999", "/v1/saved?asOf=2020-01-01T00:00:00Z"] {
                #expect(try await caller.call(.get, path).status == .notFound, "a point the account does not have: \(path)")
            }

            let export = try await caller.call(.get, "/v1/export")
            #expect(export.status == .ok && export.headers[.contentDisposition] == #"attachment; filename="reel-ann.json""#)
            let csv = try await caller.call(.get, "/v1/export?format=letterboxd&details=false")
            #expect(csv.status == .ok && csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(try await caller.call(.get, "/v1/export?format=pdf").status == .badRequest)

            let list = "Name,Year\nFight Club,1999\nThe Matrix,1999\nNo Such Film At All,1901\n"
            #expect(try await caller.call(.post, "/v1/import?format=letterboxd&dryRun=true", json: list).status == .ok)
            #expect(try await caller.call(.post, "/v1/import", json: list).status == .ok, "the format is told from the bytes")
            #expect(try await caller.call(.post, "/v1/import?format=reel", bytes: Array(export.body.readableBytesView)).status == .badRequest)
            #expect(try await caller.call(.post, "/v1/import", json: "just some words").status == .badRequest)
            #expect(try await caller.call(.post, "/v1/import?format=xls", json: list).status == .badRequest)

            #expect(try await caller.call(.delete, "/v1/account").status == .ok)
            #expect(try await caller.call(.delete, "/v1/account").status == .notFound)
            #expect(try await caller.call(.get, "/v1/history").status == .ok, "the shredded history")
            // A deleted account's token (let through by the stand-in: the service answers 401)
            // gets no event: its stream ends at once, as one whose token is no longer live.
            let events = try await caller.call(.get, "/v1/events", headers: [.lastEventID: "2"])
            #expect(events.status == .ok && events.headers[.contentType] == "text/event-stream")
            let frames = String(buffer: events.body)
            #expect(frames.hasPrefix("retry: 2000\n\nevent: error\n") && frames.contains(#""kind":"unauthorized""#), "\(frames)")
            #expect(!frames.contains("id: "), "\(frames)")
        }
        try await Self.check(contract)
    }

    /// A Reel export restores a new account only (as `reel account import`): a token's account
    /// exists already, so the service refuses it, dry run or not, and changes nothing.
    @Test func anExportIsNotRestoredOverATokensAccount() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        _ = try await harness.application.addFavorites([try MediaKey(.movie, 550), try MediaKey(.movie, 603)], for: Self.ann)
        _ = try harness.application.change(.rename(try ProfileName("Ann")), for: Self.ann)
        let export = try await harness.application.export(Self.ann, format: .reel, details: false, generator: "reel tests")
        try await harness.test(try StandInAuthentication.router(harness, as: try AccountHandle("bob"))) { client async throws -> Void in
            let caller = Caller(client: client, contract: contract)
            let dryRun = try await caller.call(.post, "/v1/import?dryRun=true", bytes: export.document)
            #expect(dryRun.status == .badRequest, "\(String(buffer: dryRun.body))")
            let restored = try await caller.call(.post, "/v1/import?format=REEL", bytes: export.document)
            #expect(restored.status == .badRequest && String(buffer: restored.body).contains(#""kind":"usage""#), "\(String(buffer: restored.body))")
            let saved = try await caller.call(.get, "/v1/saved")
            #expect(String(buffer: saved.body).contains(#""user":"bob""#) && String(buffer: saved.body).contains(#""count":0"#))
        }
        try await Self.check(contract)
    }

    @Test func theCatalogInTheAccountsLanguage() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        _ = try harness.application.change(.switchLanguage(try LanguageTag("de-DE")), for: Self.ann)
        _ = try await harness.application.addFavorites([try MediaKey(.movie, 550)], for: Self.ann)
        try await harness.test(try StandInAuthentication.router(harness, as: Self.ann)) { client async throws -> Void in
            let caller = Caller(client: client, contract: contract)
            for path in [
                "/v1/catalog/movie", "/v1/catalog/tv?list=top-rated&page=2", "/v1/catalog/movie?sort=title&descending=false&genre=18&year=1999",
                "/v1/catalog/movie?list=popular", "/v1/catalog/movie/550", "/v1/catalog/tv/1399", "/v1/search?q=fight",
                "/v1/search?q=brad&kind=person", "/v1/search?q=matrix&kind=movie&year=1999",
            ] {
                #expect(try await caller.call(.get, path).status == .ok, "\(path)")
            }
            for path in [
                "/v1/catalog/film", "/v1/catalog/movie?page=501", "/v1/catalog/movie?year=1869", "/v1/catalog/movie?list=new",
                "/v1/search", "/v1/search?q=%20%20", "/v1/search?q=x&kind=song", "/v1/catalog/movie/0",
                "/v1/catalog/movie?year=1873", "/v1/catalog/tv?year=2101", "/v1/search?q=fight&year=1999",
                "/v1/search?q=brad&kind=person&year=1999", "/v1/catalog/tv?list=popular&year=2011", "/v1/catalog/movie?list=top-rated&genre=18",
                "/v1/catalog/tv?list=popular&sort=rating", "/v1/catalog/movie?list=popular&descending=false",
            ] {
                #expect(try await caller.call(.get, path).status == .badRequest, "\(path)")
            }
            #expect(try await caller.call(.get, "/v1/catalog/movie/99999999").status == .notFound)
        }
        try await Self.check(contract)
        // The core refuses what every face refuses, whichever face forgets to.
        var late = TitleListQuery(mediaType: .movie)
        late.year = 2101
        await #expect(throws: Failure(.usage, "2101 is not a year TMDb lists (1874 to 2100)")) {
            try await harness.application.titleList(late, for: Self.ann)
        }
        var chart = TitleListQuery(mediaType: .tv, list: .popular)
        chart.year = 2011
        chart.genres = ["Drama"]
        await #expect(throws: Failure(.usage, "a genre, a year only narrow discover, not TMDb's popular list")) {
            try await harness.application.titleList(chart, for: Self.ann)
        }
        await #expect(throws: Failure(.usage, "a year applies to a search of movies or series, not of everything")) {
            try await harness.application.search(SearchQuery("fight", year: 1999), for: Self.ann)
        }
    }

    /// The limits' problems: a body over the limit (413), JSON nested too deeply (400, before it
    /// is parsed), a token over its rate (429 with Retry-After).
    @Test func limitsAnswerWithTheirDocumentedProblems() async throws {
        let contract = ContractCheck()
        let harness = ServiceHarness()
        try await harness.test(try StandInAuthentication.router(harness, as: Self.ann, burst: 3)) { client in
            let caller = Caller(client: client, contract: contract)
            let big = #"{"mediaType":"movie","id":550,"pad":""# + String(repeating: "x", count: 70 * 1024) + #""}"#
            let large = try await caller.call(.post, "/v1/favorites", json: big)
            #expect(large.status == .contentTooLarge)
            let deep = #"{"mediaType":"movie","id":550,"x":"# + String(repeating: "[", count: 9) + String(repeating: "]", count: 9) + "}"
            let refused = try await caller.call(.put, "/v1/settings/name", json: deep)
            #expect(refused.status == .badRequest && String(buffer: refused.body).contains("nested deeper"))
            #expect(try await caller.call(.post, "/v1/import", bytes: Array(repeating: UInt8(ascii: "a"), count: 1)).status == .badRequest)
            let limited = try await caller.call(.get, "/v1/saved")
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] != nil)
        }
        try await Self.check(contract)
    }
}
