import Foundation
import Ledger
import Synchronization
import Testing
@testable import Catalog
@testable import FakeTMDb
import ReelTestSupport

/// The summary cache: `CatalogClient.summaries` against the fake TMDb server over HTTP, with its
/// LMDB cache in a temporary directory and a clock the test moves.
@Suite(.serialized) struct SummaryCacheTests {
    /// A clock the test sets: microseconds since 1970.
    final class TestClock: Sendable {
        private let micros = Mutex<Int64>(1_800_000_000_000_000)
        var now: Int64 { micros.withLock { $0 } }
        func advance(seconds: Int64) { micros.withLock { $0 += seconds * 1_000_000 } }
    }

    final class NoticeSink: Sendable {
        let lines = Mutex<[String]>([])
        var printed: [String] { lines.withLock { $0 } }
    }

    /// A client of `server` over the cache in `directory`, on `clock`.
    static func client(
        _ server: FakeTMDbServer, _ directory: String, _ clock: TestClock, offline: Bool = false, notices: NoticeSink = NoticeSink()
    ) throws -> CatalogClient {
        let limits = CatalogClientTests.fastLimits()
        let credentials = Credentials.bearer("test-token")
        return CatalogClient(
            source: .tmdb(baseURL: server.baseURL),
            transport: HTTPTransport(baseURL: server.baseURL, credentials: credentials, maxConnections: limits.maxConnections, timeout: limits.timeout),
            cache: try ResponseCache.open(at: directory), credentials: credentials, limits: limits, offline: offline,
            notice: { line in notices.lines.withLock { $0.append(line) } }, clock: { clock.now })
    }

    static func key(_ type: MediaType, _ id: Int64) -> MediaKey { try! MediaKey(type, id) }

    static let fightClub = key(.movie, 550)
    static let matrix = key(.movie, 603)
    static let thrones = key(.tv, 1399)
    static let godfather = key(.movie, 238)
    /// An id the sample catalog (and so the fake server) does not have.
    static let unknown = key(.movie, 1)

    /// The key of the details request a list makes: with `external_ids` (the IMDb id OMDb's
    /// scores are found by).
    static func requestKey(_ key: MediaKey, _ language: String) -> String {
        CatalogRequest.details(key.mediaType, id: Int(key.id), language: language, appending: [.externalIDs]).key
    }

    static func title(_ answer: CatalogClient.SummaryAnswer?) -> String? { (try? answer?.get())?.title }

    /// The summaries `cache` holds for `keys` (request keys), by key.
    static func stored(_ cache: ResponseCache, _ keys: [String]) throws -> [String: CachedSummary] {
        var found: [String: CachedSummary] = [:]
        for (key, summary) in zip(keys, try cache.summaries(keys)) { found[key] = summary }
        return found
    }

    @Test func aListIsFetchedOnceThenAnsweredFromItsSummariesWithoutARequest() async throws {
        let server = try await FakeTMDbServer.start()
        let directory = temporaryDirectory()
        let clock = TestClock()
        let client = try Self.client(server, directory, clock)
        let keys = [Self.fightClub, Self.matrix, Self.thrones, Self.unknown]

        let first = try await client.summaries(of: keys, language: "en-US")
        #expect(Self.title(first[Self.fightClub]) == "Fight Club")
        #expect(Self.title(first[Self.matrix]) == "The Matrix")
        #expect(Self.title(first[Self.thrones]) == "Game of Thrones")
        #expect(first[Self.unknown] == .failure(.notFound(endpoint: "/movie/1?append_to_response=external_ids&language=en-US")))
        #expect(server.statistics.requests == 4)
        #expect(client.counts.summaryHits == 0)

        // Each known title's summary is stored under its request key, as fresh as its answer,
        // and says what decoding that answer says.
        let cache = try ResponseCache.open(at: directory)
        let stored = try Self.stored(cache, keys.map { Self.requestKey($0, "en-US") })
        #expect(stored.count == 3)
        for key in [Self.fightClub, Self.matrix, Self.thrones] {
            let requestKey = Self.requestKey(key, "en-US")
            let response = try #require(try cache.lookup(requestKey))
            let summary = try #require(stored[requestKey])
            #expect(summary.storedAt == response.storedAt && summary.expiresAt == response.expiresAt)
            #expect(summary.storedAt == clock.now)
            let decoded = key.mediaType == .movie
                ? DetailsSummary(try JSONDecoder().decode(MovieDetails.self, from: Data(response.body)))
                : DetailsSummary(try JSONDecoder().decode(SeriesDetails.self, from: Data(response.body)))
            #expect(summary.summary == decoded)
            #expect(try first[key]?.get() == decoded)
        }

        // Again: only the unknown id is asked again (a 404 is not cached).
        clock.advance(seconds: 10)
        let second = try await client.summaries(of: keys, language: "en-US")
        #expect(second == first)
        #expect(server.statistics.requests == 5)
        #expect(server.statistics.byPath["/movie/1"] == 2)
        #expect(client.counts.summaryHits == 3)
        #expect(client.counts.cacheHits == 3)

        // A new client over the same cache (as the next `reel saved` would be) asks nothing either.
        let again = try Self.client(server, directory, clock)
        #expect(try await again.summaries(of: [Self.fightClub, Self.matrix, Self.thrones], language: "en-US")
            == first.filter { $0.key != Self.unknown })
        #expect(server.statistics.requests == 5)
        #expect(again.counts.summaryHits == 3)
        #expect(again.counts.networkRequests == 0)
        await again.shutdown()
        await client.shutdown()
        await server.stop()
    }

    @Test func eachLanguageHasItsOwnSummaries() async throws {
        let server = try await FakeTMDbServer.start()
        let directory = temporaryDirectory()
        let client = try Self.client(server, directory, TestClock())

        #expect(Self.title(try await client.summaries(of: [Self.godfather], language: "en-US")[Self.godfather]) == "The Godfather")
        #expect(Self.title(try await client.summaries(of: [Self.godfather], language: "de-DE")[Self.godfather]) == "Der Pate")
        #expect(server.statistics.byPath["/movie/238"] == 2)
        let stored = try Self.stored(ResponseCache.open(at: directory), [Self.requestKey(Self.godfather, "en-US"), Self.requestKey(Self.godfather, "de-DE")])
        #expect(stored[Self.requestKey(Self.godfather, "en-US")]?.summary.title == "The Godfather")
        #expect(stored[Self.requestKey(Self.godfather, "de-DE")]?.summary.title == "Der Pate")
        #expect(stored[Self.requestKey(Self.godfather, "de-DE")]?.summary.genres.map(\.name).contains("Krimi") == true)

        // Both from their summaries now, each in its language; a third language is asked for.
        #expect(Self.title(try await client.summaries(of: [Self.godfather], language: "de-DE")[Self.godfather]) == "Der Pate")
        #expect(Self.title(try await client.summaries(of: [Self.godfather], language: "en-US")[Self.godfather]) == "The Godfather")
        #expect(server.statistics.byPath["/movie/238"] == 2)
        #expect(client.counts.summaryHits == 2)
        _ = try await client.summaries(of: [Self.godfather], language: "fr-FR")
        #expect(server.statistics.byPath["/movie/238"] == 3)
        await client.shutdown()
        await server.stop()
    }

    @Test func anExpiredSummaryIsRevalidatedNotServedAsFresh() async throws {
        var options = FakeTMDbServer.Options()
        options.maxAge = 60
        let server = try await FakeTMDbServer.start(options: options)
        let directory = temporaryDirectory()
        let clock = TestClock()
        let client = try Self.client(server, directory, clock)
        let keys = [Self.fightClub, Self.thrones]
        let first = try await client.summaries(of: keys, language: "en-US")
        #expect(server.statistics.requests == 2)

        clock.advance(seconds: 59)
        #expect(try await client.summaries(of: keys, language: "en-US") == first)
        #expect(server.statistics.requests == 2)
        #expect(client.counts.summaryHits == 2)

        // Past max-age: each title is revalidated with its ETag (304), not served from the summary.
        clock.advance(seconds: 2)
        #expect(try await client.summaries(of: keys, language: "en-US") == first)
        #expect(server.statistics.requests == 4)
        #expect(server.statistics.notModified == 2)
        #expect(client.counts.revalidated == 2)
        #expect(client.counts.summaryHits == 2)
        // ... and the summaries are fresh again for as long as the revalidated answers.
        let stored = try Self.stored(ResponseCache.open(at: directory), keys.map { Self.requestKey($0, "en-US") })
        for (key, summary) in stored {
            #expect(summary.storedAt == clock.now)
            #expect(summary.expiresAt == clock.now + 60_000_000)
            #expect(try ResponseCache.open(at: directory).lookup(key)?.expiresAt == summary.expiresAt)
        }
        clock.advance(seconds: 30)
        #expect(try await client.summaries(of: keys, language: "en-US") == first)
        #expect(server.statistics.requests == 4)
        #expect(client.counts.summaryHits == 4)
        await client.shutdown()
        await server.stop()
    }

    /// `freshUntil` tells how long a list's answers stay what they are: the earliest expiry of
    /// the answers used, fetched or kept; 0 once one of them was served stale, or failed.
    @Test func aListIsToldUntilWhenItsAnswersHold() async throws {
        var options = FakeTMDbServer.Options()
        options.maxAge = 60
        let server = try await FakeTMDbServer.start(options: options)
        let directory = temporaryDirectory()
        let clock = TestClock()
        let client = try Self.client(server, directory, clock)
        let start = clock.now
        var until: Int64 = -1
        _ = try await client.summaries(of: [Self.fightClub], language: "en-US", as: { $0 }, freshUntil: { until = $0 })
        #expect(until == start + 60_000_000)
        let generation = try #require(client.cache).generation()

        // Kept: the first one expires first; a new title fetched now does not move that.
        clock.advance(seconds: 20)
        _ = try await client.summaries(of: [Self.fightClub, Self.thrones], language: "en-US", as: { $0 }, freshUntil: { until = $0 })
        #expect(until == start + 60_000_000)
        #expect(try #require(client.cache).generation() > generation)  // Thrones was stored
        let stored = try #require(client.cache).generation()
        _ = try await client.summaries(of: [Self.fightClub, Self.thrones], language: "en-US", as: { $0 }, freshUntil: { until = $0 })
        #expect(try #require(client.cache).generation() == stored)  // answered without a write

        // A failure, or a stale answer served because TMDb fails, holds for no time at all.
        _ = try await client.summaries(of: [Self.fightClub, Self.unknown], language: "en-US", as: { $0 }, freshUntil: { until = $0 })
        #expect(until == 0)
        clock.advance(seconds: 3_600)
        server.inject(Fault(.status(503, retryAfter: nil), count: 100))
        _ = try await client.summaries(of: [Self.fightClub], language: "en-US", as: { $0 }, freshUntil: { until = $0 })
        #expect(until == 0)
        await client.shutdown()
        await server.stop()

        let sample = CatalogClient.sample()
        _ = try await sample.summaries(of: [Self.fightClub, Self.unknown], language: "en-US", as: { $0 }, freshUntil: { until = $0 })
        #expect(until == .max)
    }

    @Test func offlineStoredSummariesAnswerWhateverTheirAge() async throws {
        let server = try await FakeTMDbServer.start()
        let directory = temporaryDirectory()
        let clock = TestClock()
        let online = try Self.client(server, directory, clock)
        let fetched = try await online.summaries(of: [Self.fightClub, Self.thrones], language: "en-US")
        await online.shutdown()
        let sent = server.statistics.requests

        clock.advance(seconds: 30 * 86_400)
        let offline = try Self.client(server, directory, clock, offline: true)
        let answers = try await offline.summaries(of: [Self.fightClub, Self.thrones, Self.matrix], language: "en-US")
        #expect(answers[Self.fightClub] == fetched[Self.fightClub])
        #expect(answers[Self.thrones] == fetched[Self.thrones])
        #expect(answers[Self.matrix] == .failure(.notCached(endpoint: "/movie/603?append_to_response=external_ids&language=en-US")))
        #expect(offline.counts.summaryHits == 2)
        #expect(offline.counts.staleServed == 2)
        #expect(offline.counts.cacheHits == 0)
        #expect(server.statistics.requests == sent)
        await offline.shutdown()
        await server.stop()
    }

    @Test func aStaleSummaryIsServedWithOneNoticeWhenTMDbFails() async throws {
        let server = try await FakeTMDbServer.start()
        let directory = temporaryDirectory()
        let clock = TestClock()
        let notices = NoticeSink()
        let client = try Self.client(server, directory, clock, notices: notices)
        let keys = [Self.fightClub, Self.thrones]
        let fresh = try await client.summaries(of: keys, language: "en-US")

        clock.advance(seconds: 2 * 86_400)
        server.inject(Fault(.status(503, retryAfter: nil), count: 100))
        let stale = try await client.summaries(of: keys, language: "en-US")
        #expect(stale == fresh)
        #expect(client.counts.staleServed == 2)
        #expect(notices.printed.count == 1)
        #expect(notices.printed.first?.contains("Couldn't reach TMDb: it answered 503 (unavailable)") == true, "\(notices.printed)")
        #expect(notices.printed.first?.contains("showing the copy cached on ") == true, "\(notices.printed)")
        // Served stale, they stay stale: the next run asks TMDb again.
        let stored = try Self.stored(ResponseCache.open(at: directory), keys.map { Self.requestKey($0, "en-US") })
        #expect(stored.values.allSatisfy { !$0.isFresh(at: clock.now) })
        await client.shutdown()
        await server.stop()
    }

    @Test func clearingTheCacheForgetsTheSummariesAndStatisticsCountThem() async throws {
        let server = try await FakeTMDbServer.start()
        let directory = temporaryDirectory()
        let clock = TestClock()
        let client = try Self.client(server, directory, clock)
        let keys = [Self.fightClub, Self.matrix, Self.thrones]
        _ = try await client.summaries(of: keys, language: "en-US")
        _ = try await client.genres(.movie, language: "en-US")

        let cache = try ResponseCache.open(at: directory)
        var stats = try cache.statistics(now: clock.now)
        #expect(stats.entries == 4)
        #expect(stats.summaries == 3 && stats.freshSummaries == 3)
        #expect(try cache.statistics(now: clock.now + 2 * 86_400_000_000).freshSummaries == 0)

        #expect(try cache.clear() == 4)
        #expect(try Self.stored(cache, keys.map { Self.requestKey($0, "en-US") }).isEmpty)
        stats = try cache.statistics(now: clock.now)
        #expect(stats.entries == 0 && stats.summaries == 0)

        _ = try await client.summaries(of: keys, language: "en-US")
        #expect(server.statistics.byPath["/movie/550"] == 2)
        #expect(client.counts.summaryHits == 0)
        await client.shutdown()
        await server.stop()
    }

    @Test func refusedCredentialsFailTheWholeList() async throws {
        var options = FakeTMDbServer.Options()
        options.token = "the-right-token"
        let server = try await FakeTMDbServer.start(options: options)
        let client = try Self.client(server, temporaryDirectory(), TestClock())
        await #expect {
            try await client.summaries(of: [Self.fightClub, Self.matrix, Self.thrones], language: "en-US")
        } throws: { error in
            if case .invalidCredentials = error as? CatalogError { true } else { false }
        }
        await client.shutdown()
        await server.stop()
    }

    @Test func aListsRequestsAreTheSingleRequests() throws {
        let keys = [Self.fightClub, Self.thrones, Self.unknown, Self.godfather]
        for language in ["en-US", "de-DE", "", "pt BR&x=1"] {
            #expect(CatalogRequest.details(of: keys, language: language)
                == keys.map { CatalogRequest.details($0.mediaType, id: Int($0.id), language: language, appending: [.externalIDs]) }, "\(language)")
        }
        #expect(CatalogRequest.details(of: [], language: "en-US").isEmpty)
    }

    @Test func aSummaryRecordRoundTripsAndOtherBytesAreAMiss() throws {
        let full = CachedSummary(
            key: "/tv/1399?language=de-DE", storedAt: 1_800_000_000_123_456, expiresAt: 1_800_086_400_123_456,
            summary: DetailsSummary(
                key: Self.thrones, title: "Game of Thrones – Das Lied von Eis und Feuer 🐉", originalTitle: "Game of Thrones",
                date: TMDbDate(year: 2011, month: 4, day: 17), genres: [Genre(id: 10765, name: "Sci-Fi & Fantasy"), Genre(id: 18, name: "Drama")],
                voteAverage: 8.456, voteCount: 24_117, popularity: 361.212_5, posterPath: "/1XS1oqL89opfnbLl8WnZY1O1uJx.jpg",
                imdbID: "tt0944947"))
        let bare = CachedSummary(
            key: "/movie/1?language=en-US", storedAt: -5, expiresAt: 0,
            summary: DetailsSummary(key: Self.unknown, title: "", originalTitle: nil, date: nil, genres: [],
                                    voteAverage: 0, voteCount: 0, popularity: 0, posterPath: nil))
        for entry in [full, bare] {
            let bytes = entry.encoded()
            #expect(bytes.withUnsafeBytes { CachedSummary(decoding: $0) } == entry)
            #expect(bytes.withUnsafeBytes { CachedSummary(decoding: $0, of: entry.key) } == entry)
            // Stored under another key (a hashed key's collision): a miss.
            #expect(bytes.withUnsafeBytes { CachedSummary(decoding: $0, of: entry.key + "x") } == nil)
            #expect(bytes.withUnsafeBytes { CachedSummary(decoding: $0, of: String(entry.key.dropLast())) } == nil)
            for cut in [0, 1, 3, bytes.count / 2, bytes.count - 1] {
                #expect(Array(bytes.prefix(cut)).withUnsafeBytes { CachedSummary(decoding: $0) } == nil, "cut at \(cut)")
            }
            #expect((bytes + [0]).withUnsafeBytes { CachedSummary(decoding: $0) } == nil)
            var otherFormat = bytes
            otherFormat[2] = 1  // format 1, before the IMDb id
            #expect(otherFormat.withUnsafeBytes { CachedSummary(decoding: $0) } == nil)
        }
        // A response entry is not a summary.
        let response = CachedResponse(key: "/movie/550", endpoint: "details", storedAt: 1, expiresAt: 2, etag: nil, body: Array("{}".utf8))
        #expect(response.encoded().withUnsafeBytes { CachedSummary(decoding: $0) } == nil)
    }
}
