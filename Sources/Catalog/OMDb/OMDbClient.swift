public import Foundation
import Synchronization

/// OMDb as the rest of Reel sees it: a title's facts by IMDb id, within the daily budget.
///
/// Every request goes: a fresh cached answer (a week) → else one flight per id in this process
/// and one across processes (`FetchLock` on `omdb-fetch.lock` beside the cache, then the cache
/// again: two processes filling one list spend the budget on each title once) → the budget
/// (`OMDbBudget`, shared by processes; bulk work stops short of the limit) → a connection slot
/// (what the user is looking at goes before bulk work waiting) → the transport, retried on
/// 429/5xx/transient failures (each try counts) → cached with its scores. A failure never
/// throws: the caller shows TMDb's details alone; an answer older than a week is served when
/// OMDb cannot be asked, and each kind of failure is told once per client through `notice`.
public final class OMDbClient: Sendable {
    public enum Source: Sendable, Equatable {
        case omdb(baseURL: String)
        case sample
    }

    public let source: Source
    public let offline: Bool
    public let limits: OMDbLimits
    /// Nil for the sample, which spends nothing.
    public let budget: OMDbBudget?
    let cache: ResponseCache?
    private let transport: any OMDbTransport
    private let slot: String
    /// Where the key came from (`OMDB_API_KEY`, a path), for the line that says it was refused.
    private let keySource: String
    /// The connections (a test sees who waits for one).
    let slots: RequestSlots
    private let flights = SingleFlight()
    /// Nil without a cache (nothing another process fetched could be seen) or a lock file.
    private let lock: FetchLock?
    /// What waits are paced by: retries' backoff, and another process's fetch of the same id.
    private let pacing: any Clock<Duration>
    private let told = Mutex<Set<String>>([])
    /// OMDb's words when it refused the key: nothing more is asked in this process.
    private let refusal = Mutex<String?>(nil)
    private let notice: @Sendable (String) -> Void
    let clock: @Sendable () -> Int64

    public init(
        source: Source, transport: any OMDbTransport, cache: ResponseCache?, budget: OMDbBudget?, slot: String, keySource: String,
        limits: OMDbLimits = OMDbLimits(), offline: Bool = false, notice: @escaping @Sendable (String) -> Void = { _ in },
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000) },
        pacing: any Clock<Duration> = ContinuousClock()
    ) {
        self.source = source
        self.transport = transport
        self.cache = cache
        self.budget = budget
        self.slot = slot
        self.keySource = keySource
        self.limits = limits
        self.offline = offline
        self.notice = notice
        self.clock = clock
        self.pacing = pacing
        lock = cache.flatMap { FetchLock(directory: $0.path, file: "omdb-fetch.lock", clock: pacing) }
        slots = RequestSlots(limit: limits.maxConnections)
    }

    /// Closes the HTTP connections. Call once, when done.
    public func shutdown() async { await transport.shutdown() }

    /// `tt` and 7 to 10 digits: what OMDb is asked by (anything else in TMDb's field is not sent).
    public static func isIMDbID(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return (9...12).contains(utf8.count) && utf8[0] == UInt8(ascii: "t") && utf8[1] == UInt8(ascii: "t")
            && utf8.dropFirst(2).allSatisfy { (48...57).contains($0) }
    }

    /// The response cache's key of an id's answer: never the key, never a URL.
    static func cacheKey(_ imdbID: String) -> String { "omdb:" + imdbID }

    /// The day's use of the budget; nil for the sample.
    public func usage() -> OMDbBudget.Usage? {
        budget?.usage(slot: slot, day: OMDbBudget.day(of: clock()), limit: limits.daily)
    }

    /// A title's facts by IMDb id (`nil`: TMDb had none).
    public func title(_ imdbID: String?, priority: OMDbBudget.Priority = .interactive) async -> OMDbLookup {
        guard let id = imdbID, Self.isIMDbID(id) else { return .unavailable(.noIMDbID) }
        let key = Self.cacheKey(id)
        let cached = try? cache?.lookup(key)
        if let cached, cached.isFresh(at: clock()), let lookup = Self.lookup(cached.body, stale: false) { return lookup }
        if offline {
            return cached.flatMap { Self.lookup($0.body, stale: true) } ?? .unavailable(.notCached)
        }
        do {
            return try await flights.run(key) { await self.lockedFetch(id, cached: cached, priority: priority) }
        } catch {
            return .unavailable(.unavailable("cancelled"))
        }
    }

    /// The generation of the cache the scores are kept in (`ResponseCache.generation()`); nil
    /// without a cache, and for the sample's facts, which never change.
    public var cacheGeneration: Int? { source == .sample ? nil : cache?.generation() }

    /// The scores of `imdbIDs` known without asking OMDb (the cache; the sample's facts), by id.
    public func scores(_ imdbIDs: [String]) async -> [String: OMDbScores] {
        var found: [String: OMDbScores] = [:]
        if source == .sample {
            for id in imdbIDs where Self.isIMDbID(id) {
                if case .found(let title, _) = await self.title(id) { found[id] = OMDbScores(title, storedAt: 0, expiresAt: .max) }
            }
            return found
        }
        guard let cache, let stored = try? cache.omdbScores(imdbIDs) else { return found }
        for (id, scores) in zip(imdbIDs, stored) { if let scores { found[id] = scores } }
        return found
    }

    /// Asks OMDb for the titles of `imdbIDs` (in that order: most wanted first) whose facts are
    /// missing or older than a week, as bulk work: a few at a time, stopping when the bulk part
    /// of the budget is spent, the key is refused or OMDb is unavailable. `progress(done, total)`.
    /// `known`: the scores read already (`scores(_:)`), so they are not read twice.
    public func fill(_ imdbIDs: [String], known: [String: OMDbScores]? = nil, progress: ((Int, Int) -> Void)? = nil) async -> OMDbFillReport {
        var report = OMDbFillReport()
        guard source != .sample else { return report }
        let known = if let known { known } else { await scores(imdbIDs) }
        let now = clock()
        var seen = Set<String>()
        let wanted = imdbIDs.filter { Self.isIMDbID($0) && seen.insert($0).inserted && known[$0]?.isFresh(at: now) != true }
        report.wanted = wanted.count
        guard !wanted.isEmpty else { return report }
        if offline {
            report.stopped = .notCached
            return report
        }
        var next = 0
        var done = 0
        await withTaskGroup(of: OMDbLookup.self) { group in
            func launch() -> Bool {
                guard next < wanted.count, report.stopped == nil else { return false }
                if let failure = blocked(.bulk) {
                    report.stopped = failure
                    return false
                }
                let id = wanted[next]
                next += 1
                group.addTask { await self.title(id, priority: .bulk) }
                return true
            }
            for _ in 0..<limits.maxConnections * 2 where !launch() { break }
            for await lookup in group {
                done += 1
                switch lookup {
                case .found(_, let stale):
                    if stale { report.failed += 1 } else { report.found += 1 }
                case .missing: report.missing += 1
                case .unavailable(let failure):
                    report.failed += 1
                    if case .unavailable = failure { report.stopped = report.stopped ?? failure }
                }
                progress?(done, wanted.count)
                _ = launch()
            }
        }
        if report.stopped == nil, let failure = blocked(.bulk), report.left > 0 { report.stopped = failure }
        return report
    }

    /// Why nothing more may be asked at `priority` now; nil when something may.
    private func blocked(_ priority: OMDbBudget.Priority) -> OMDbFailure? {
        if let message = refusal.withLock({ $0 }) { return .keyRefused(message) }
        guard let usage = usage() else { return nil }
        let left = priority == .interactive ? usage.left : usage.bulkLeft
        return left > 0 ? nil : spent(day: usage.day, bulk: priority == .bulk)
    }

    // MARK: - One request

    /// `fetch` holding the id's lock across processes: another process may have answered while
    /// this one waited, and its answer is then this one's, without spending the budget again.
    private func lockedFetch(_ id: String, cached: CachedResponse?, priority: OMDbBudget.Priority) async -> OMDbLookup {
        guard let lock, let cache else { return await fetch(id, cached: cached, priority: priority) }
        return await lock.withLock(Self.cacheKey(id)) {
            let latest = (try? cache.lookup(Self.cacheKey(id))) ?? cached
            if let latest, latest.isFresh(at: clock()), let lookup = Self.lookup(latest.body, stale: false) { return lookup }
            return await fetch(id, cached: latest, priority: priority)
        }
    }

    private func fetch(_ id: String, cached: CachedResponse?, priority: OMDbBudget.Priority) async -> OMDbLookup {
        if let message = refusal.withLock({ $0 }) { return fallback(cached, .keyRefused(message)) }
        var attempt = 0
        while true {
            let day = OMDbBudget.day(of: clock())
            if let budget, !budget.take(slot: slot, day: day, limit: limits.daily, priority: priority) {
                return fallback(cached, spent(day: day, bulk: priority == .bulk))
            }
            let response: TransportResponse
            do {
                response = try await slots.withSlot(urgent: priority == .interactive) { try await self.transport.send([QueryItem("i", id)]) }
            } catch let failure as TransportFailure {
                guard failure.isTransient, attempt < limits.retry.maximumRetries else { return fallback(cached, .unavailable(failure.reason)) }
                attempt += 1
                try? await pacing.sleep(for: limits.retry.backoff(attempt: attempt))
                continue
            } catch {
                return fallback(cached, .unavailable("\(error)"))
            }
            if RetryPolicy.isRetryable(status: response.status) {
                guard attempt < limits.retry.maximumRetries else { return fallback(cached, .unavailable("HTTP \(response.status)")) }
                attempt += 1
                try? await pacing.sleep(for: limits.retry.backoff(attempt: attempt))
                continue
            }
            return answer(response, id: id, day: day, cached: cached, priority: priority)
        }
    }

    /// What an HTTP answer means: OMDb sends its errors as 200 (a title it lacks) and as 401 (a
    /// refused key, the day's limit reached) with the same `{"Response":"False",…}` body.
    private func answer(_ response: TransportResponse, id: String, day: Int64, cached: CachedResponse?, priority: OMDbBudget.Priority)
        -> OMDbLookup
    {
        guard response.status == 200 || response.status == 401 else { return fallback(cached, .unavailable("HTTP \(response.status)")) }
        guard let answer = OMDbAnswer(body: response.body) else {
            return fallback(cached, .unavailable(response.status == 401 ? "HTTP 401" : "its answer is not OMDb's JSON"))
        }
        switch answer {
        case .title(let title) where response.status == 200 && title.imdbID == id:
            store(id, body: response.body, scores: { OMDbScores(title, storedAt: $0, expiresAt: $1) })
            return .found(title, stale: false)
        case .title:
            return fallback(cached, .unavailable("it answered for another title than \(id)"))
        case .notFound:
            store(id, body: response.body, scores: { OMDbScores.missing(id, storedAt: $0, expiresAt: $1) })
            return .missing
        case .limitReached:
            budget?.markSpent(slot: slot, day: day, limit: limits.daily)
            return fallback(cached, spent(day: day, bulk: priority == .bulk))
        case .invalidKey(let message):
            refusal.withLock { $0 = $0 ?? message }
            tellOnce("key", "OMDb refused the key from \(keySource) (\(message)); titles are shown without OMDb's ratings (check it, or run 'reel omdb login')")
            return fallback(cached, .keyRefused(message))
        case .failed(let message):
            return fallback(cached, .unavailable(message))
        }
    }

    private func spent(day: Int64, bulk: Bool) -> OMDbFailure {
        let resetsAt = (day + 1) * OMDbBudget.microsecondsPerDay
        let wait = Self.duration(resetsAt - clock())
        if bulk {
            tellOnce("bulk", "OMDb's daily budget for filling lists is spent (\(limits.daily - OMDbBudget.bulkCeiling(of: limits.daily)) of its \(limits.daily) requests are kept for titles you open); the rest fills in after midnight UTC, in \(wait)")
        } else {
            tellOnce("budget", "OMDb's daily budget of \(limits.daily) requests is spent; OMDb's ratings are shown again after midnight UTC, in \(wait)")
        }
        return .budgetSpent(limit: limits.daily, resetsAt: resetsAt, bulk: bulk)
    }

    /// The cached answer, stale, when OMDb could not be asked; else the failure, told once.
    private func fallback(_ cached: CachedResponse?, _ failure: OMDbFailure) -> OMDbLookup {
        if case .unavailable(let reason) = failure {
            tellOnce("unavailable", "OMDb is unavailable (\(reason)); titles are shown without what OMDb has not answered before")
        }
        if let cached, let lookup = Self.lookup(cached.body, stale: true) { return lookup }
        return .unavailable(failure)
    }

    private func store(_ id: String, body: [UInt8], scores: (Int64, Int64) -> OMDbScores) {
        guard let cache else { return }
        let now = clock()
        let expires = now + limits.lifetime * 1_000_000
        let entry = CachedResponse(key: Self.cacheKey(id), endpoint: "omdb", storedAt: now, expiresAt: expires, etag: nil, body: body)
        try? cache.store(entry, scores: scores(now, expires))
    }

    private func tellOnce(_ kind: String, _ text: String) {
        guard told.withLock({ $0.insert(kind).inserted }) else { return }
        notice(text)
    }

    /// A cached body as a lookup: a title, or OMDb's word that it has none.
    static func lookup(_ body: [UInt8], stale: Bool) -> OMDbLookup? {
        switch OMDbAnswer(body: body) {
        case .title(let title): .found(title, stale: stale)
        case .notFound: .missing
        default: nil
        }
    }

    /// `5 h 12 min`, `40 min`, `30 s`.
    static func duration(_ microseconds: Int64) -> String {
        let seconds = max(0, microseconds / 1_000_000)
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
    }
}

extension OMDbClient {
    /// The sample catalog's OMDb facts, answered in-process: no key, no budget, no cache.
    public static func sample(_ catalog: SampleCatalog = .bundled) -> OMDbClient {
        var limits = OMDbLimits()
        limits.maxConnections = 64
        return OMDbClient(
            source: .sample, transport: SampleOMDbTransport(responder: SampleOMDbResponder(catalog: catalog)), cache: nil, budget: nil,
            slot: OMDbBudgetSlot.shared, keySource: "the sample catalog", limits: limits)
    }
}
