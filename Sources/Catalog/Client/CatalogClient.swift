public import Foundation
import JSONKit
import Synchronization

/// The catalog as the rest of Reel sees it: typed answers for TMDb requests, whoever serves them
/// (TMDb over HTTP, or the bundled sample catalog in-process).
///
/// For TMDb, every request goes: fresh cache entry → else single-flight (identical requests in
/// flight share one trip) → rate limiter → a connection slot → the transport, retried with
/// backoff on 429/5xx/transient failures → decode → cache. When TMDb fails and a stale entry
/// exists, the stale entry is served with a notice; offline, only the cache answers.
public final class CatalogClient: Sendable {
    public enum Source: Sendable, Equatable {
        case tmdb(baseURL: String)
        case sample
    }

    public static let defaultBaseURL = "https://api.themoviedb.org/3"

    public let source: Source
    public let offline: Bool
    public let limits: CatalogLimits
    private let transport: any CatalogTransport
    /// The response cache (the OMDb client keeps its answers there too).
    public let cache: ResponseCache?
    private let credentials: Credentials?
    /// Takes each request's turn at the rate limit (a `RateLimiter` on `pacing`).
    private let takeTurn: @Sendable () async throws -> Void
    /// What waits are paced by: the rate limit, and the pauses before retries.
    private let pacing: any Clock<Duration>
    private let slots: RequestSlots
    private let flights = SingleFlight()
    let counters = FetchCounters()
    /// One "showing what was cached" note per client, however many answers were stale.
    private let staleNoticeGiven = Mutex(false)
    private let notice: @Sendable (String) -> Void
    let clock: @Sendable () -> Int64
    /// The sample catalog, when it answers in-process: summaries come straight from its facts.
    let sampleCatalog: SampleCatalog?

    public convenience init(
        source: Source, transport: any CatalogTransport, cache: ResponseCache?, credentials: Credentials?,
        limits: CatalogLimits = CatalogLimits(), offline: Bool = false,
        notice: @escaping @Sendable (String) -> Void = { _ in },
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000) },
        pacing: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(source: source, transport: transport, cache: cache, credentials: credentials, limits: limits,
                  offline: offline, notice: notice, clock: clock, pacing: pacing, sampleCatalog: nil)
    }

    private init(
        source: Source, transport: any CatalogTransport, cache: ResponseCache?, credentials: Credentials?,
        limits: CatalogLimits, offline: Bool, notice: @escaping @Sendable (String) -> Void,
        clock: @escaping @Sendable () -> Int64, pacing: any Clock<Duration>, sampleCatalog: SampleCatalog?
    ) {
        self.sampleCatalog = sampleCatalog
        self.source = source
        self.transport = transport
        self.cache = cache
        self.credentials = credentials
        self.limits = limits
        self.offline = offline
        self.notice = notice
        self.clock = clock
        self.pacing = pacing
        takeTurn = Self.turns(limits.requestsPerSecond, on: pacing)
        slots = RequestSlots(limit: limits.maxConnections)
    }

    /// A rate limiter on `clock` (opened from the existential: the limiter is generic over it).
    private static func turns<C: Clock<Duration>>(_ requestsPerSecond: Double, on clock: C) -> @Sendable () async throws -> Void {
        let limiter = RateLimiter(requestsPerSecond: requestsPerSecond, clock: clock)
        return { try await limiter.acquire() }
    }

    /// TMDb over HTTP with the given credentials and cache. `pacing` is the clock the rate limit
    /// and the pauses before retries keep (a test's clock moves only when the test moves it).
    public static func tmdb(
        baseURL: String = defaultBaseURL, credentials: Credentials, cache: ResponseCache?,
        limits: CatalogLimits = CatalogLimits(), offline: Bool = false,
        notice: @escaping @Sendable (String) -> Void = { _ in }, pacing: any Clock<Duration> = ContinuousClock()
    ) -> CatalogClient {
        let transport = HTTPTransport(baseURL: baseURL, credentials: credentials, maxConnections: limits.maxConnections, timeout: limits.timeout)
        return CatalogClient(source: .tmdb(baseURL: baseURL), transport: transport, cache: cache, credentials: credentials,
                             limits: limits, offline: offline, notice: notice, pacing: pacing)
    }

    /// The bundled sample catalog (or `catalog`), answered in-process: no network, no cache needed.
    public static func sample(_ catalog: SampleCatalog = .bundled) -> CatalogClient {
        var limits = CatalogLimits()
        limits.requestsPerSecond = .infinity
        limits.maxConnections = 64
        return CatalogClient(
            source: .sample, transport: SampleTransport(responder: SampleResponder(catalog: catalog)), cache: nil, credentials: nil,
            limits: limits, offline: false, notice: { _ in }, clock: { Int64(Date().timeIntervalSince1970 * 1_000_000) },
            pacing: ContinuousClock(), sampleCatalog: catalog)
    }

    public var counts: FetchCounts { counters.snapshot }

    /// Closes the HTTP connections. Call once, when done.
    public func shutdown() async { await transport.shutdown() }

    /// Fetches and decodes one request.
    public func get<T: Decodable & Sendable>(_ request: CatalogRequest, as type: T.Type = T.self) async throws -> T {
        try await answer(request, as: T.self).value
    }

    /// An answer, and when the response it was decoded from is in the cache, that entry's
    /// `storedAt` and `expiresAt` (what a summary of it may be stored with).
    struct Answer<T: Sendable>: Sendable {
        let value: T
        let stored: (at: Int64, expires: Int64)?
    }

    /// `get`, telling also how long the answer is fresh.
    func answer<T: Decodable & Sendable>(_ request: CatalogRequest, as type: T.Type = T.self) async throws -> Answer<T> {
        let key = request.key
        let cached = try? cache?.lookup(key)
        if let cached, cached.isFresh(at: clock()), let value = try? Self.decode(T.self, cached.body, request) {
            counters.bump(\.cacheHits)
            return Answer(value: value, stored: (cached.storedAt, cached.expiresAt))
        }
        if offline {
            guard let cached, let value = try? Self.decode(T.self, cached.body, request) else {
                throw CatalogError.notCached(endpoint: request.description)
            }
            counters.bump(\.staleServed)
            return Answer(value: value, stored: (cached.storedAt, cached.expiresAt))
        }
        let counters = counters
        return try await flights.run(key, onJoin: { counters.bump(\.joined) }) {
            try await self.fetch(request, cached: cached)
        }
    }

    private func fetch<T: Decodable & Sendable>(_ request: CatalogRequest, cached: CachedResponse?) async throws -> Answer<T> {
        do {
            let response = try await send(request, ifNoneMatch: cached?.etag)
            let now = clock()
            switch response.status {
            case 304:
                guard let cached else {
                    throw CatalogError.malformedResponse(endpoint: request.description, detail: "304 Not Modified to an unconditional request")
                }
                let value = try Self.decode(T.self, cached.body, request)
                counters.bump(\.revalidated)
                if let cache, case .seconds(let lifetime) = CacheLifetime.of(response, endpoint: request.endpoint) {
                    let refreshed = cached.refreshed(at: now, until: now + lifetime * 1_000_000, etag: response.header("etag"))
                    if (try? cache.store(refreshed)) != nil { return Answer(value: value, stored: (refreshed.storedAt, refreshed.expiresAt)) }
                }
                return Answer(value: value, stored: nil)
            case 200..<300:
                let value = try Self.decode(T.self, response.body, request)
                if let cache, case .seconds(let lifetime) = CacheLifetime.of(response, endpoint: request.endpoint) {
                    let entry = CachedResponse(
                        key: request.key, endpoint: request.endpoint.rawValue, storedAt: now,
                        expiresAt: now + lifetime * 1_000_000, etag: response.header("etag"), body: response.body
                    )
                    if (try? cache.store(entry)) != nil { return Answer(value: value, stored: (entry.storedAt, entry.expiresAt)) }
                }
                return Answer(value: value, stored: nil)
            default:
                throw error(for: response, request)
            }
        } catch let error as CatalogError {
            switch error {
            case .unavailable, .rateLimited, .malformedResponse:
                if let cached, let value = try? Self.decode(T.self, cached.body, request) {
                    counters.bump(\.staleServed)
                    let first = staleNoticeGiven.withLock { given in
                        defer { given = true }
                        return !given
                    }
                    // In words, for every face (the status line, stderr): what failed, and what still works.
                    if first { notice("\(error.inWords); showing the copy cached \(CachedTime.phrase(storedAt: cached.storedAt, now: clock()))") }
                    return Answer(value: value, stored: (cached.storedAt, cached.expiresAt))
                }
            default: break
            }
            throw error
        }
    }

    /// One request with the politeness rules: the rate limiter, a connection slot, and retries
    /// with backoff on what may pass. Answers the last response (which may be an error status).
    private func send(_ request: CatalogRequest, ifNoneMatch: String?) async throws -> TransportResponse {
        var attempt = 0
        while true {
            try await takeTurn()
            var retryAfter: Duration?
            var failure: CatalogError
            do {
                let response = try await slots.withSlot { try await self.transport.send(request, ifNoneMatch: ifNoneMatch) }
                counters.bump(\.networkRequests)
                guard RetryPolicy.isRetryable(status: response.status) else { return response }
                retryAfter = response.header("retry-after").flatMap { RetryPolicy.retryAfter($0) }
                failure = error(for: response, request)
                if let wait = retryAfter, wait > limits.retry.maximumRetryAfter {
                    throw CatalogError.rateLimited(endpoint: request.description, retryAfter: wait)
                }
            } catch let transportFailure as TransportFailure {
                counters.bump(\.networkRequests)
                failure = .unavailable(endpoint: request.description, reason: transportFailure.reason)
                if !transportFailure.isTransient { throw failure }
            }
            attempt += 1
            guard attempt <= limits.retry.maximumRetries else { throw failure }
            counters.bump(\.retries)
            try await pacing.sleep(for: retryAfter ?? limits.retry.backoff(attempt: attempt))
        }
    }

    private func error(for response: TransportResponse, _ request: CatalogRequest) -> CatalogError {
        // Decoded only for the statuses whose message is shown (a 404 or 429 says all in its status).
        func body() -> TMDbErrorBody? { try? JSONValueDecoder().decode(TMDbErrorBody.self, from: response.body) }
        let endpoint = request.description
        switch response.status {
        case 401:
            let hint: String
            if credentials?.looksLikeV3KeyUsedAsToken == true {
                hint = "TMDB_API_TOKEN holds what looks like a v3 API key (32 hex characters): set it as TMDB_API_KEY instead, or use the API Read Access Token"
            } else {
                hint = "check TMDB_API_TOKEN / TMDB_API_KEY or run 'reel tmdb login'"
            }
            let decoded = body()
            return .invalidCredentials(code: decoded?.statusCode, message: decoded?.message, hint: hint)
        case 404:
            return .notFound(endpoint: endpoint)
        case 429:
            return .rateLimited(endpoint: endpoint, retryAfter: response.header("retry-after").flatMap { RetryPolicy.retryAfter($0) })
        case 500...599:
            return .unavailable(endpoint: endpoint, reason: "HTTP \(response.status)" + (body()?.message.map { " (\($0))" } ?? ""))
        default:
            return .rejected(endpoint: endpoint, status: response.status, message: body()?.message)
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8], _ request: CatalogRequest) throws -> T {
        do {
            return try JSONValueDecoder().decode(T.self, from: body)
        } catch let error as DecodingError {
            throw CatalogError.malformedResponse(endpoint: request.description, detail: describe(error))
        } catch {
            throw CatalogError.malformedResponse(endpoint: request.description, detail: "not valid JSON")
        }
    }

    /// `field results[3].id: expected Int` — which field, and what was wrong with it.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "the top level" : "field \(text)"
        }
        switch error {
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context): return "\(path(context.codingPath)): expected \(type), found null"
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context.codingPath)): invalid value"
        @unknown default: return "undecodable"
        }
    }
}
