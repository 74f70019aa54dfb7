import Foundation
import Synchronization
import Testing
@testable import Catalog
import ReelTestSupport

/// The OMDb client against a scripted OMDb: answers cached a week, OMDb's errors (200 with an
/// error, 401 for a refused key or the day's limit) as lookups never thrown, retries counted
/// against the budget, stale answers when OMDb cannot be asked, offline, bulk work after what
/// the user looks at, and each failure told once.
@Suite struct OMDbClientTests {
    /// OMDb as a script: `answer(id)` says what it sends; every request is logged.
    final class ScriptedOMDb: OMDbTransport {
        let answer: @Sendable (String) -> TransportResponse
        let asked = Mutex<[String]>([])

        init(_ answer: @escaping @Sendable (String) -> TransportResponse) {
            self.answer = answer
        }

        func send(_ query: [QueryItem]) async throws -> TransportResponse {
            let id = query.first { $0.name == "i" }?.value ?? ""
            asked.withLock { $0.append(id) }
            return answer(id)
        }

        func shutdown() async {}
        var count: Int { asked.withLock { $0.count } }
    }

    static func title(_ id: String, rating: String = "8.8") -> TransportResponse {
        TransportResponse(status: 200, body: Array("""
            {"Title":"T \(id)","Year":"1999","Rated":"R","Awards":"Won 3 Oscars. 10 wins & 20 nominations total",
             "Ratings":[{"Source":"Internet Movie Database","Value":"\(rating)/10"},{"Source":"Rotten Tomatoes","Value":"79%"}],
             "Metascore":"66","imdbRating":"\(rating)","imdbVotes":"1,234","imdbID":"\(id)","Type":"movie","Response":"True"}
            """.utf8))
    }

    static func error(_ status: Int, _ message: String) -> TransportResponse {
        TransportResponse(status: status, body: Array(#"{"Response":"False","Error":"\#(message)"}"#.utf8))
    }

    final class Clock: Sendable {
        let now = Atomic<Int64>(OMDbBudgetTests.lateOnTheDay - 3_600_000_000)
        var read: @Sendable () -> Int64 { { self.now.load(ordering: .relaxed) } }
        func advance(seconds: Int64) { now.add(seconds * 1_000_000, ordering: .relaxed) }
    }

    final class Notes: Sendable {
        private let said = Mutex<[String]>([])
        func add(_ text: String) { said.withLock { $0.append(text) } }
        var all: [String] { said.withLock { $0 } }
    }

    struct Setup {
        let client: OMDbClient
        let omdb: ScriptedOMDb
        let clock: Clock
        let cache: ResponseCache
        let budget: OMDbBudget
    }

    static func make(
        daily: Int = 1000, offline: Bool = false, cacheDirectory: String? = nil,
        _ answer: @escaping @Sendable (String) -> TransportResponse
    ) throws -> (Setup, Notes) {
        let directory = cacheDirectory ?? temporaryDirectory("omdb")
        let cache = try ResponseCache.open(at: directory)
        let budget = try OMDbBudget.open(at: directory + "/omdb-budget")
        let omdb = ScriptedOMDb(answer)
        let notes = Notes()
        let clock = Clock()
        var limits = OMDbLimits()
        limits.daily = daily
        limits.retry = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(2))
        let client = OMDbClient(
            source: .omdb(baseURL: "http://omdb.invalid/"), transport: omdb, cache: cache, budget: budget, slot: "test-slot",
            keySource: "the environment (OMDB_API_KEY)", limits: limits, offline: offline,
            notice: { notes.add($0) }, clock: clock.read)
        return (Setup(client: client, omdb: omdb, clock: clock, cache: cache, budget: budget), notes)
    }

    @Test func anAnswerIsCachedAWeekWithItsScores() async throws {
        let (s, _) = try Self.make { Self.title($0) }
        let first = await s.client.title("tt0137523")
        #expect(first.title?.imdbRating == 8.8)
        #expect(first.title?.tomatometer == 79)
        _ = await s.client.title("tt0137523")
        #expect(s.omdb.count == 1, "the second is the cache's")
        let scores = await s.client.scores(["tt0137523", "tt0000001"])
        #expect(scores["tt0137523"]?.imdbRating == 8.8)
        #expect(scores["tt0137523"]?.metascore == 66)
        #expect(scores["tt0000001"] == nil)
        s.clock.advance(seconds: 7 * 24 * 3600 + 1)
        _ = await s.client.title("tt0137523")
        #expect(s.omdb.count == 2, "a week later it is asked again")
        #expect(s.client.usage()?.used == 1, "on another UTC day")
    }

    @Test func idsThatAreNoIMDbIdsAreNeverSent() async throws {
        let (s, _) = try Self.make { Self.title($0) }
        for bad in [nil, "", "tt12", "nm0000093", "tt0137523&apikey=x", "tt０１３７５２３"] as [String?] {
            #expect(await s.client.title(bad) == .unavailable(.noIMDbID))
        }
        #expect(s.omdb.count == 0)
    }

    @Test func aTitleOMDbLacksIsMissingAndRemembered() async throws {
        let (s, _) = try Self.make { _ in Self.error(200, "Incorrect IMDb ID.") }
        #expect(await s.client.title("tt9999999") == .missing)
        #expect(await s.client.title("tt9999999") == .missing)
        #expect(s.omdb.count == 1, "not asked again for a week")
        #expect((await s.client.scores(["tt9999999"]))["tt9999999"]?.found == false)
    }

    @Test func aRefusedKeyIsToldOnceAndNotAskedAgain() async throws {
        let (s, notes) = try Self.make { _ in Self.error(401, "Invalid API key!") }
        #expect(await s.client.title("tt0000001") == .unavailable(.keyRefused("Invalid API key!")))
        #expect(await s.client.title("tt0000002") == .unavailable(.keyRefused("Invalid API key!")))
        #expect(s.omdb.count == 1)
        let said = notes.all
        #expect(said.count == 1)
        #expect(said.first?.contains("OMB_API_KEY") == false)
        #expect(said.first?.contains("OMDB_API_KEY") == true)
        #expect(said.first?.contains("reel omdb login") == true)
    }

    @Test func omdbsLimitReachedSpendsTheDayForEveryone() async throws {
        let (s, notes) = try Self.make { _ in Self.error(401, "Request limit reached!") }
        guard case .unavailable(.budgetSpent(let limit, _, false)) = await s.client.title("tt0000001") else {
            Issue.record("not budget-spent")
            return
        }
        #expect(limit == 1000)
        #expect(s.client.usage()?.left == 0)
        #expect(s.budget.usage(slot: "test-slot", day: OMDbBudget.day(of: s.clock.read()), limit: 1000).used == 1000)
        _ = await s.client.title("tt0000002")
        #expect(s.omdb.count == 1, "nothing more is asked today")
        #expect(notes.all.count == 1)
        #expect(notes.all[0].contains("midnight UTC"))
    }

    @Test func theBudgetStopsRequestsAndTheNextDayStartsThemAgain() async throws {
        let (s, notes) = try Self.make(daily: 3) { Self.title($0) }
        for n in 1...3 { #expect(await s.client.title(String(format: "tt%07d", n)).title != nil) }
        #expect(await s.client.title("tt0000004") == .unavailable(.budgetSpent(limit: 3, resetsAt: OMDbBudgetTests.lateOnTheDay + 500_000, bulk: false)))
        #expect(await s.client.title("tt0000005").title == nil)
        #expect(s.omdb.count == 3)
        #expect(notes.all.count == 1, "said once")
        s.clock.advance(seconds: 3601)  // past midnight UTC
        #expect(await s.client.title("tt0000004").title != nil)
        #expect(s.client.usage()?.used == 1)
    }

    @Test func retriesCountAgainstTheBudget() async throws {
        let tries = Mutex(0)
        let (s, _) = try Self.make { id in
            tries.withLock { $0 += 1 }
            return tries.withLock { $0 } < 3 ? Self.error(503, "Service Unavailable") : Self.title(id)
        }
        #expect(await s.client.title("tt0000001").title != nil)
        #expect(s.omdb.count == 3)
        #expect(s.client.usage()?.used == 3)
    }

    @Test func whenOMDbFailsAStaleAnswerIsShownAndTheFailureToldOnce() async throws {
        let failing = Atomic<Bool>(false)
        let (s, notes) = try Self.make { id in failing.load(ordering: .relaxed) ? Self.error(500, "x") : Self.title(id) }
        _ = await s.client.title("tt0000001")
        s.clock.advance(seconds: 8 * 24 * 3600)
        failing.store(true, ordering: .relaxed)
        #expect(await s.client.title("tt0000001") == .found(try #require(await s.client.title("tt0000001").title), stale: true))
        #expect(await s.client.title("tt0000002") == .unavailable(.unavailable("HTTP 500")))
        #expect(notes.all.count == 1)
        #expect(notes.all[0].contains("OMDb is unavailable (HTTP 500)"))
    }

    @Test func answersThatAreNotOMDbsAreFailuresNotCrashes() async throws {
        for body in ["<html>", "{}", #"{"Response":"True"}"#, "[1,2]", "", #"{"Response":"False"}"#] {
            let (s, _) = try Self.make { _ in TransportResponse(status: 200, body: Array(body.utf8)) }
            guard case .unavailable = await s.client.title("tt0000001") else {
                Issue.record("\(body) was taken for an answer")
                continue
            }
        }
        let (other, _) = try Self.make { _ in Self.title("tt7654321") }
        #expect(await other.client.title("tt0000001") == .unavailable(.unavailable("it answered for another title than tt0000001")))
    }

    @Test func offlineOnlyTheCacheAnswers() async throws {
        let directory = temporaryDirectory()
        let (online, _) = try Self.make(cacheDirectory: directory) { Self.title($0) }
        _ = await online.client.title("tt0000001")
        let (s, _) = try Self.make(offline: true, cacheDirectory: directory) { Self.title($0) }
        #expect(await s.client.title("tt0000001").title != nil)
        #expect(await s.client.title("tt0000002") == .unavailable(.notCached))
        #expect(s.omdb.count == 0)
        #expect(await s.client.fill(["tt0000002"]).stopped == .notCached)
    }

    @Test func fillingAsksMissingTitlesInOrderAndStopsAtTheBulkCeiling() async throws {
        let (s, notes) = try Self.make(daily: 10) { Self.title($0) }
        _ = await s.client.title("tt0000003")
        let ids = (1...20).map { String(format: "tt%07d", $0) }
        let report = await s.client.fill(ids)
        #expect(report.wanted == 19, "the cached one is not wanted")
        #expect(report.found == 8, "bulk work stops at 9 of 10, one was spent already")
        #expect(report.left == 11)
        #expect(report.stopped == .budgetSpent(limit: 10, resetsAt: OMDbBudgetTests.lateOnTheDay + 500_000, bulk: true))
        let asked = s.omdb.asked.withLock { $0 }
        // A few at a time, so they may arrive in any order; but the first ones given are the ones asked.
        #expect(Set(asked.dropFirst()) == Set(["tt0000001", "tt0000002"] + (4...9).map { String(format: "tt%07d", $0) }), "the first given")
        #expect(notes.all.filter { $0.contains("filling lists") }.count == 1)
        #expect(await s.client.title("tt0000020").title != nil, "what the user opens still has its tenth")
    }

    /// One connection, held by the fill's first request while its next waits for it: a title the
    /// user opens then is asked as soon as the connection is free, before the bulk work waiting.
    @Test func whatTheUserOpensGoesBeforeBulkWorkWaiting() async throws {
        var limits = OMDbLimits()
        limits.maxConnections = 1
        let omdb = HeldOMDb()
        let directory = temporaryDirectory()
        let client = OMDbClient(
            source: .omdb(baseURL: "http://omdb.invalid/"), transport: omdb, cache: try ResponseCache.open(at: directory),
            budget: try OMDbBudget.open(at: directory + "/b"), slot: "s", keySource: "x", limits: limits)
        let ids = (1...6).map { String(format: "tt%07d", $0) }
        let filled = Task { await client.fill(ids) }
        try await waitFor("the fill's first request on the connection and its next waiting for it") {
            let waiting = await client.slots.waiting
            return omdb.count == 1 && waiting.others >= 1
        }
        let opened = Task { await client.title("tt0000099") }
        try await waitFor("the title opened to wait for the connection") { await client.slots.waiting.urgent == 1 }
        omdb.answer()
        #expect(await opened.value.title != nil)
        _ = await filled.value
        let asked = omdb.asked
        #expect(asked.count == 7)
        #expect(asked.firstIndex(of: "tt0000099") == 1, "asked as soon as the connection was free, before the bulk work waiting: \(asked)")
    }

    /// OMDb that holds every request until `answer()`: a fetch under way in another process, or
    /// the one connection kept busy.
    final class HeldOMDb: OMDbTransport {
        private let state = Mutex<(asked: [String], answering: Bool, held: [CheckedContinuation<Void, Never>])>(([], false, []))

        func send(_ query: [QueryItem]) async throws -> TransportResponse {
            let id = query.first { $0.name == "i" }?.value ?? ""
            await withCheckedContinuation { (go: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    state.asked.append(id)
                    if !state.answering { state.held.append(go) }
                    return state.answering
                }
                if now { go.resume() }
            }
            return OMDbClientTests.title(id)
        }

        func answer() {
            for go in state.withLock({ state in defer { state.held = [] }; state.answering = true; return state.held }) { go.resume() }
        }

        func shutdown() async {}
        var count: Int { state.withLock { $0.asked.count } }
        /// The ids asked for, in the order they were.
        var asked: [String] { state.withLock { $0.asked } }
    }

    /// Two processes (two clients, each with its own single flight and its own lock file handle)
    /// on one cache and one budget ask for one title at once: the second waits for the first's
    /// fetch and takes its answer from the cache, so OMDb is asked once and one request is spent.
    /// (Before, each asked OMDb: two `reel saved` filling one list spent 18 requests on 9 titles.)
    @Test func twoProcessesAskingForOneTitleAskOMDbOnce() async throws {
        let directory = temporaryDirectory("omdb")
        let cache = try ResponseCache.open(at: directory)
        let budget = try OMDbBudget.open(at: directory + "/omdb-budget")
        let clock = Clock()
        func process(_ transport: any OMDbTransport, pacing: any _Concurrency.Clock<Duration>) -> OMDbClient {
            OMDbClient(
                source: .omdb(baseURL: "http://omdb.invalid/"), transport: transport, cache: cache, budget: budget, slot: "test-slot",
                keySource: "the environment (OMDB_API_KEY)", clock: clock.read, pacing: pacing)
        }
        let held = HeldOMDb()
        let first = process(held, pacing: ContinuousClock())
        let asked = ScriptedOMDb { Self.title($0) }
        let waits = ManualClock()
        let second = process(asked, pacing: waits)

        // Generous waits (they are failure detectors, not timings): in a full run the lookups'
        // tasks queue behind the tests that hold the pool's two threads waiting on processes, and
        // got their turn only minutes later, when those were done.
        let firstLookup = Task { await first.title("tt0137523") }
        try await waitFor("the first process to ask OMDb", seconds: 300) { held.count == 1 }
        let secondLookup = Task { await second.title("tt0137523") }
        try await waitFor("the second process to wait for the first or to ask OMDb itself", seconds: 300) { waits.sleepers > 0 || asked.count > 0 }
        #expect(asked.count == 0, "the second process asked OMDb for the title the first is asking for")
        held.answer()
        let answer = try #require(await firstLookup.value.title)
        if let deadline = waits.nextDeadline { waits.advance(to: deadline) }  // its next try finds the lock free
        #expect(await secondLookup.value == OMDbLookup.found(answer, stale: false))
        #expect(held.count == 1)
        #expect(asked.count == 0)
        #expect(first.usage()?.used == 1, "one request spent for both")
    }

    @Test func theCacheKeyNeverHoldsTheKey() async throws {
        #expect(OMDbClient.cacheKey("tt0137523") == "omdb:tt0137523")
        #expect(OMDbKey("1a2b3c4d").description == "OMDb API key (hidden)")
        #expect("\(OMDbKey("1a2b3c4d"))".contains("1a2b3c4d") == false)
    }
}
