import AsyncHTTPClient
@testable import Catalog
@testable import FakeTMDb
import Foundation
import JSONKit
import NIOCore
import NIOHTTP1
import Testing

/// `fake-tmdb` as OMDb's API at `/omdb/`, over real HTTP: OMDb's key check and daily limit, the
/// faults (TMDb's kinds and OMDb's own), and statistics kept apart from TMDb's.
@Suite struct FakeOMDbTests {
    typealias Response = FakeImageHostTests.Response

    static func get(_ url: String) async throws -> Response { try await FakeImageHostTests.get(url) }

    static func post(_ url: String) async throws -> Response {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        let body = try await response.body.collect(upTo: 1 << 20)
        return Response(status: Int(response.status.code), headers: response.headers, body: Array(buffer: body))
    }

    static func text(_ r: Response) -> String { String(decoding: r.body, as: UTF8.self) }

    /// OMDb's answer for `imdbID` with `key`.
    static func omdb(_ server: FakeTMDbServer, _ imdbID: String = "tt0137523", key: String? = "k") async throws -> Response {
        try await get(server.omdbBaseURL + "?" + (key.map { "apikey=\($0)&" } ?? "") + "i=\(imdbID)")
    }

    static func answer(_ r: Response) -> OMDbAnswer? { OMDbAnswer(body: r.body) }

    static func title(_ r: Response, sourceLocation: SourceLocation = #_sourceLocation) throws -> OMDbTitle {
        try #require(r.status == 200, "\(r.status) \(text(r))", sourceLocation: sourceLocation)
        guard case .title(let title)? = answer(r) else {
            Issue.record("not an OMDb title: \(text(r).prefix(300))", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return title
    }

    @Test func itAnswersAtItsOMDbBaseURLWithAndWithoutTheSlash() async throws {
        let server = try await FakeTMDbServer.start()
        #expect(server.omdbBaseURL == "http://127.0.0.1:\(server.port)/omdb/")
        let withSlash = try await Self.omdb(server)
        #expect(try Self.title(withSlash).title == "Fight Club")
        #expect(withSlash.headers.first(name: "content-type") == "application/json; charset=utf-8")
        #expect(withSlash.headers.first(name: "etag") == nil, "OMDb sends no ETag")
        let root = FakeImageHostTests.root(server)
        let without = try await Self.get(root + "/omdb?apikey=k&t=the+office&type=series")
        #expect(try Self.title(without).imdbID == "tt0386676")
        #expect(try await Self.get(root + "/omdb/x?apikey=k&i=tt0137523").status == 404, "only /omdb and /omdb/")
        let unknown = try await Self.omdb(server, "tt0000001")
        #expect(unknown.status == 200 && Self.answer(unknown) == .notFound("Incorrect IMDb ID."))
        await server.stop()
    }

    @Test func anyKeyByDefaultNoneIsRefused() async throws {
        let server = try await FakeTMDbServer.start()
        for key in ["k", "anything", "%C3%84%C3%96"] {
            #expect(try await Self.omdb(server, key: key).status == 200)
        }
        for key in [nil, ""] as [String?] {
            let refused = try await Self.omdb(server, key: key)
            #expect(refused.status == 401 && Self.text(refused) == #"{"Response":"False","Error":"No API key provided."}"#)
        }
        let stats = server.statistics
        #expect(stats.omdbRequests == 5 && stats.omdbUnauthorized == 2 && stats.omdbByStatus == [200: 3, 401: 2])
        #expect(stats.requests == 0 && stats.byStatus.isEmpty && stats.unauthorized == 0, "TMDb's figures are TMDb's alone")
        await server.stop()
    }

    @Test func onlyTheConfiguredKeyAndItIsNeverEchoed() async throws {
        let secret = "SECRET-omdb-key-7f3a"
        var options = FakeTMDbServer.Options()
        options.omdbKey = secret
        let server = try await FakeTMDbServer.start(options: options)
        let wrong = try await Self.omdb(server, key: "not-it")
        #expect(wrong.status == 401 && Self.answer(wrong) == .invalidKey("Invalid API key!"))
        #expect(Self.text(wrong) == #"{"Response":"False","Error":"Invalid API key!"}"#)
        var bodies = [wrong]
        bodies.append(try await Self.omdb(server, key: secret))
        #expect(try Self.title(bodies[1]).imdbID == "tt0137523")
        bodies.append(try await Self.omdb(server, "tt0000001", key: secret))
        bodies.append(try await Self.get(server.omdbBaseURL + "?apikey=\(secret)&t=No+Such+Film"))
        server.inject(Fault(.hostileText, pathPrefix: "/omdb"))
        bodies.append(try await Self.omdb(server, key: secret))
        bodies.append(try await Self.get(FakeImageHostTests.root(server) + "/__stats"))
        for response in bodies {
            #expect(!Self.text(response).contains(secret), "\(Self.text(response).prefix(120))")
            #expect(!response.headers.contains { $0.value.contains(secret) })
        }
        #expect(!server.statistics.json.text.contains(secret))
        #expect(server.statistics.omdbUnauthorized == 1)
        await server.stop()
    }

    @Test func theDailyLimitCountsServedRequestsUntilReset() async throws {
        var options = FakeTMDbServer.Options()
        options.omdbDaily = 3
        options.omdbKey = "k"
        let server = try await FakeTMDbServer.start(options: options)
        // Refused for the key: not counted against the limit.
        #expect(try await Self.omdb(server, key: "wrong").status == 401)
        #expect(try await Self.omdb(server, key: nil).status == 401)
        for id in ["tt0137523", "tt0000001", "tt0903747"] {
            #expect(try await Self.omdb(server, id).status == 200, "\(id): an unknown id counts too, as on OMDb")
        }
        for _ in 0..<2 {
            let spent = try await Self.omdb(server)
            #expect(spent.status == 401 && Self.text(spent) == #"{"Response":"False","Error":"Request limit reached!"}"#)
            #expect(Self.answer(spent) == .limitReached("Request limit reached!"))
        }
        // TMDb is not limited.
        #expect(try await Self.get(server.baseURL + "/movie/550?api_key=k").status == 200)
        var stats = server.statistics
        #expect(stats.omdbRequests == 7 && stats.omdbLimited == 2 && stats.omdbUnauthorized == 2)
        #expect(stats.omdbByStatus == [200: 3, 401: 4] && stats.omdbByIMDbID["tt0137523"] == 5, "refused ones too")
        // A new day.
        #expect(try await Self.post(FakeImageHostTests.root(server) + "/__reset").status == 200)
        #expect(try await Self.omdb(server).status == 200)
        stats = server.statistics
        #expect(stats.omdbRequests == 1 && stats.omdbLimited == 0)
        await server.stop()
    }

    @Test func omdbsOwnFaults() async throws {
        let server = try await FakeTMDbServer.start()
        let root = FakeImageHostTests.root(server)
        // Through the control endpoint, as a shell script would.
        #expect(try await Self.post(root + "/__fault?kind=omdb-error").status == 200)
        let notFound = try await Self.omdb(server)
        #expect(notFound.status == 200 && Self.text(notFound) == #"{"Response":"False","Error":"Movie not found!"}"#)
        #expect(try await Self.post(root + "/__fault?kind=omdb-error&message=Error+getting+data.&count=2").status == 200)
        for _ in 0..<2 {
            let failed = try await Self.omdb(server)
            #expect(failed.status == 200 && Self.answer(failed) == .failed("Error getting data."))
        }
        #expect(try Self.title(try await Self.omdb(server)).imdbID == "tt0137523", "used up")
        #expect(try await Self.post(root + "/__fault?kind=omdb-limit").status == 200)
        let limited = try await Self.omdb(server)
        #expect(limited.status == 401 && Self.answer(limited) == .limitReached("Request limit reached!"))
        #expect(try await Self.post(root + "/__fault?kind=omdb-invalid-key").status == 200)
        let invalid = try await Self.omdb(server)
        #expect(invalid.status == 401 && Self.answer(invalid) == .invalidKey("Invalid API key!"))
        // OMDb's faults are never used up by TMDb's API or images, even without a path.
        server.inject(Fault(.omdbError("Movie not found!")))
        #expect(try await Self.get(server.baseURL + "/movie/550?api_key=k").status == 200)
        #expect(try await Self.get(root + "/t/p/w92" + FakeImageHostTests.fightClubPoster).status == 200)
        #expect(Self.answer(try await Self.omdb(server)) == .notFound("Movie not found!"))
        let unknown = try await Self.post(root + "/__fault?kind=omdb-nonsense")
        #expect(unknown.status == 400 && Self.text(unknown).contains("omdb-limit"))
        await server.stop()
    }

    @Test func faultKindsFromParameters() throws {
        #expect(Fault(parameters: ["kind": "omdb-error"]) == Fault(.omdbError("Movie not found!")))
        #expect(Fault(parameters: ["kind": "omdb-error", "message": ""]) == Fault(.omdbError("Movie not found!")))
        #expect(Fault(parameters: ["kind": "omdb-error", "message": "Incorrect IMDb ID.", "count": "3", "path": "/omdb/tt1"])
            == Fault(.omdbError("Incorrect IMDb ID."), count: 3, pathPrefix: "/omdb/tt1"))
        #expect(Fault(parameters: ["kind": "omdb-limit"]) == Fault(.omdbLimit))
        #expect(Fault(parameters: ["kind": "omdb-invalid-key", "path": "/omdb"]) == Fault(.omdbInvalidKey, pathPrefix: "/omdb"))
        for kind in [Fault.Kind.omdbError("x"), .omdbLimit, .omdbInvalidKey] {
            #expect(!kind.appliesToImages && !kind.appliesToTMDb)
        }
        for kind in [Fault.Kind.status(503, retryAfter: nil), .malformedJSON, .hostileText, .latency(1)] {
            #expect(kind.appliesToTMDb)
        }
    }

    @Test func tmdbsFaultKindsApplyToOMDbByPath() async throws {
        let server = try await FakeTMDbServer.start()
        // A fault for TMDb's paths leaves OMDb alone; one for one title leaves the others alone.
        server.inject(Fault(.status(503, retryAfter: nil), pathPrefix: "/movie"))
        #expect(try await Self.omdb(server).status == 200)
        #expect(try await Self.get(server.baseURL + "/movie/550?api_key=k").status == 503)
        server.inject(Fault(.status(503, retryAfter: "2"), count: 2, pathPrefix: "/omdb/tt0137523"))
        #expect(try await Self.omdb(server, "tt0068646").status == 200)
        let refused = try await Self.omdb(server)
        #expect(refused.status == 503 && refused.headers.first(name: "retry-after") == "2")
        #expect(Self.answer(refused) == .failed("Service Unavailable"))
        #expect(try await Self.omdb(server).status == 503)
        #expect(try await Self.omdb(server).status == 200)
        // /omdb takes any OMDb request, by title too; a fault without a path the next request of any kind.
        server.inject(Fault(.status(500, retryAfter: nil), pathPrefix: "/omdb"))
        #expect(try await Self.get(server.omdbBaseURL + "?apikey=k&t=Fight+Club").status == 500)
        server.inject(Fault(.status(502, retryAfter: nil)))
        #expect(try await Self.omdb(server).status == 502)
        #expect(try await Self.get(server.baseURL + "/movie/550?api_key=k").status == 200)
        await server.stop()
    }

    @Test func bodyAndConnectionFaults() async throws {
        let server = try await FakeTMDbServer.start()
        let whole = try await Self.omdb(server)
        server.inject(Fault(.malformedJSON, pathPrefix: "/omdb"))
        let malformed = try await Self.omdb(server)
        #expect(malformed.status == 200 && Self.answer(malformed) == nil)
        #expect((try? JSONValue(parsing: malformed.body)) == nil, "not JSON")
        server.inject(Fault(.wrongType, pathPrefix: "/omdb"))
        let wrong = try await Self.omdb(server)
        #expect(wrong.status == 200 && Self.answer(wrong) == nil)
        #expect((try? JSONValue(parsing: wrong.body)) != nil, "JSON of the wrong types")
        server.inject(Fault(.halfBody, pathPrefix: "/omdb"))
        let half = try await Self.omdb(server)
        #expect(half.status == 200 && half.body == Array(whole.body.prefix(whole.body.count / 2)) && Self.answer(half) == nil)
        server.inject(Fault(.truncatedBody, pathPrefix: "/omdb"))
        await #expect(throws: (any Error).self) { _ = try await Self.omdb(server) }
        server.inject(Fault(.connectionReset, pathPrefix: "/omdb"))
        await #expect(throws: (any Error).self) { _ = try await Self.omdb(server) }
        #expect(try await Self.omdb(server).body == whole.body, "all used up")
        let stats = server.statistics
        #expect(stats.omdbRequests == 7 && stats.omdbByStatus == [200: 6], "the reset one has no status; the cut one said 200")
        await server.stop()
    }

    @Test func latencyFaultAndServerWideLatency() async throws {
        var options = FakeTMDbServer.Options()
        options.latency = .milliseconds(120)
        let server = try await FakeTMDbServer.start(options: options)
        let clock = ContinuousClock()
        var started = clock.now
        _ = try Self.title(try await Self.omdb(server))
        #expect(clock.now - started >= .milliseconds(120), "the server-wide latency")
        server.inject(Fault(.latency(300), pathPrefix: "/omdb"))
        started = clock.now
        _ = try Self.title(try await Self.omdb(server))
        #expect(clock.now - started >= .milliseconds(420), "the fault's on top")
        await server.stop()
    }

    @Test func textFaultsRewriteOMDbsTextsNotItsNumbers() async throws {
        let server = try await FakeTMDbServer.start()
        server.inject(Fault(.hostileText, pathPrefix: "/omdb"))
        let hostile = try Self.title(try await Self.omdb(server))
        for text in [hostile.title, hostile.rated, hostile.runtime, hostile.awards?.text, hostile.actors.first, hostile.actors.last] {
            let text = try #require(text)
            #expect(text.hasPrefix(Fault.hostilePrefix) || text.hasSuffix(Fault.hostileSuffix), "\(text.debugDescription)")
        }
        #expect(hostile.title == Fault.hostilePrefix + "Fight Club" + Fault.hostileSuffix)
        #expect(hostile.imdbRating == 8.8 && hostile.imdbVotes == 2_454_781 && hostile.metascore == 67 && hostile.tomatometer == 81)
        #expect(hostile.boxOffice == 37_030_102 && hostile.imdbID == "tt0137523" && hostile.year == "1999")
        server.inject(Fault(.formulaText, pathPrefix: "/omdb"))
        let formula = try Self.title(try await Self.omdb(server))
        #expect(formula.title == #"=HYPERLINK("https://evil.example/","Fight Club")"#)
        #expect(formula.directors.first?.hasPrefix("=HYPERLINK(") == true && formula.imdbRating == 8.8)
        server.inject(Fault(.wideText, pathPrefix: "/omdb"))
        let wide = try Self.title(try await Self.omdb(server))
        #expect(Fault.wideTitles.contains(try #require(wide.title)) && wide.imdbRating == 8.8)
        // An OMDb error is never rewritten.
        server.inject(Fault(.hostileText, pathPrefix: "/omdb"))
        let missing = try await Self.omdb(server, "tt0000001")
        #expect(Self.answer(missing) == .notFound("Incorrect IMDb ID."))
        // TMDb's texts are still TMDb's fault: the OMDb fault was used up by OMDb alone.
        #expect(!Self.text(try await Self.get(server.baseURL + "/movie/550?api_key=k")).contains("reel-pwned"))
        await server.stop()
    }

    @Test func statisticsCountOMDbApartAndShowItInStats() async throws {
        var options = FakeTMDbServer.Options()
        options.syntheticMovies = 20
        let server = try await FakeTMDbServer.start(options: options)
        for id in ["tt0137523", "tt0137523", "tt90000007", "tt0903747"] { #expect(try await Self.omdb(server, id).status == 200) }
        _ = try await Self.get(server.omdbBaseURL + "?apikey=k&t=Fight+Club")
        #expect(try await Self.get(server.baseURL + "/movie/550?api_key=k&append_to_response=external_ids").status == 200)
        let stats = server.statistics
        #expect(stats.omdbRequests == 5 && stats.omdbByIMDbID == ["tt0137523": 2, "tt90000007": 1, "tt0903747": 1])
        #expect(stats.omdbByStatus == [200: 5] && stats.omdbArrivals.count == 5 && stats.omdbMaxInFlight >= 1 && stats.omdbInFlight == 0)
        // Every one of them in a window longer than the test (a clean-clone CI run, its threads
        // starved by the end-to-end suites, once spread these five over more than a minute).
        #expect(stats.maxOMDbArrivals(within: 86_400) == 5)
        #expect(stats.requests == 1 && stats.byPath == ["/movie/550": 1] && stats.arrivals.count == 1)
        let json = try JSONValue(parsing: try await Self.get(FakeImageHostTests.root(server) + "/__stats").body)
        let omdb = try #require(json["omdb"])
        #expect(omdb["requests"] == .integer(5) && omdb["byIMDbID"]?["tt0137523"] == .integer(2) && omdb["byStatus"]?["200"] == .integer(5))
        #expect(omdb["unauthorized"] == .integer(0) && omdb["limited"] == .integer(0) && omdb["maxRequestsInAnySecond"] != nil)
        #expect(json["requests"] == .integer(1))
        // The synthetic movie's facts came over HTTP too.
        #expect(try Self.title(try await Self.omdb(server, "tt90000007")).title == SampleCatalog.bundled.withSyntheticMovies(20).movie(90_000_007)?.title)
        await server.stop()
    }
}
