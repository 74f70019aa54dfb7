public import Ledger

/// Many titles' summaries at once, for lists (the saved list, history, `fav add`).
extension CatalogClient {
    /// A title's summary, or why there is none.
    public typealias SummaryAnswer = Result<DetailsSummary, CatalogError>

    /// The summaries of `keys`' details in `language`, by key.
    ///
    /// Summaries kept in the cache are read in one transaction: fresh ones answer (offline: any).
    /// The rest go through `get` as single requests would, in parallel within the limits (a stale
    /// answer is revalidated, and served with a notice when TMDb fails), and what they give is
    /// stored back in one write. The sample catalog answers from its facts, with no request.
    /// Refused or missing credentials throw: every other title would be refused too.
    /// `progress(done, total)` follows the titles that needed a request.
    public func summaries(
        of keys: [MediaKey], language: String, progress: ((Int, Int) -> Void)? = nil
    ) async throws -> [MediaKey: SummaryAnswer] {
        try await summaries(of: keys, language: language, progress: progress) { $0 }
    }

    /// `summaries(of:language:progress:)`, each answer kept as `make` turns it (one dictionary
    /// for a list of thousands, not two).
    ///
    /// `freshUntil` is told once, at the end, until when every answer given stays what it is:
    /// the earliest expiry of the cached answers used, `Int64.max` for the sample's facts, and
    /// 0 when an answer was not stored (a failure, a title TMDb does not have, `no-store`) or
    /// was served stale (offline, TMDb failing): such answers may differ on the next call.
    public func summaries<Answer>(
        of keys: [MediaKey], language: String, progress: ((Int, Int) -> Void)? = nil,
        as make: (SummaryAnswer) -> Answer, freshUntil: (Int64) -> Void = { _ in }
    ) async throws -> [MediaKey: Answer] {
        var seen = Set<MediaKey>(minimumCapacity: keys.count)
        let distinct = keys.filter { seen.insert($0).inserted }
        var found: [MediaKey: Answer] = [:]
        found.reserveCapacity(distinct.count)

        if let sampleCatalog {
            let lang = SampleLanguage(language)
            freshUntil(.max)
            for key in distinct {
                if let summary = sampleCatalog.summary(key, lang) {
                    found[key] = make(.success(summary))
                } else {
                    let request = CatalogRequest.details(key.mediaType, id: Int(key.id), language: language)
                    found[key] = make(.failure(.notFound(endpoint: request.description)))
                }
            }
            return found
        }

        let requests = CatalogRequest.details(of: distinct, language: language)
        var misses: [(MediaKey, CatalogRequest)] = []
        var until = Int64.max
        if let cache, let stored = try? cache.summaries(requests.map(\.key)) {
            let now = clock()
            var fresh = 0
            for (i, entry) in stored.enumerated() {
                if let entry, offline || entry.isFresh(at: now) {
                    found[distinct[i]] = make(.success(entry.summary))
                    if entry.isFresh(at: now) { fresh += 1 }
                    until = entry.isFresh(at: now) ? min(until, entry.expiresAt) : 0
                } else {
                    misses.append((distinct[i], requests[i]))
                }
            }
            counters.bump(\.summaryHits, by: found.count)
            counters.bump(\.cacheHits, by: fresh)
            counters.bump(\.staleServed, by: found.count - fresh)
        } else {
            misses = Array(zip(distinct, requests))
        }
        guard !misses.isEmpty else {
            freshUntil(until)
            return found
        }
        if !found.isEmpty { progress?(found.count, distinct.count) }

        var fetched: [CachedSummary] = []
        do {
            try await withThrowingTaskGroup(of: (MediaKey, SummaryAnswer, CachedSummary?).self) { group in
                for (key, request) in misses {
                    group.addTask { try await self.fetchSummary(key, request) }
                }
                let now = clock()
                for try await (key, answer, entry) in group {
                    found[key] = make(answer)
                    if let entry { fetched.append(entry) }
                    until = if let entry, entry.isFresh(at: now) { min(until, entry.expiresAt) } else { 0 }
                    progress?(found.count, distinct.count)
                }
            }
        } catch {
            try? cache?.store(fetched)
            throw error
        }
        try? cache?.store(fetched)
        freshUntil(until)
        return found
    }

    /// One title through `get`, with its summary ready to store when its answer is cached.
    private func fetchSummary(_ key: MediaKey, _ request: CatalogRequest) async throws -> (MediaKey, SummaryAnswer, CachedSummary?) {
        do {
            let summary: DetailsSummary?
            let stored: (at: Int64, expires: Int64)?
            switch key.mediaType {
            case .movie:
                let answer = try await answer(request, as: MovieDetails.self)
                (summary, stored) = (DetailsSummary(answer.value), answer.stored)
            case .tv:
                let answer = try await answer(request, as: SeriesDetails.self)
                (summary, stored) = (DetailsSummary(answer.value), answer.stored)
            }
            guard let summary else { return (key, .failure(.notFound(endpoint: request.description)), nil) }
            let entry = stored.map { CachedSummary(key: request.key, storedAt: $0.at, expiresAt: $0.expires, summary: summary) }
            return (key, .success(summary), entry)
        } catch let error as CatalogError {
            switch error {
            case .invalidCredentials, .missingCredentials: throw error
            default: return (key, .failure(error), nil)
            }
        }
    }
}

extension CatalogClient {
    /// The summaries of `keys` the cache (or the sample's facts) holds, whatever their age, with
    /// no request: for reports that must not spend TMDb's or OMDb's requests (`reel omdb status`).
    public func cachedSummaries(of keys: [MediaKey], language: String) -> [MediaKey: DetailsSummary] {
        var found: [MediaKey: DetailsSummary] = [:]
        if let sampleCatalog {
            let lang = SampleLanguage(language)
            for key in keys { found[key] = sampleCatalog.summary(key, lang) }
            return found
        }
        guard let cache, let stored = try? cache.summaries(CatalogRequest.details(of: keys, language: language).map(\.key)) else { return found }
        for (key, entry) in zip(keys, stored) { found[key] = entry?.summary }
        return found
    }
}
