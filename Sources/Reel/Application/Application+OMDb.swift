import Catalog
import Failures
import Foundation
import Ledger

extension Application {
    /// The OMDb client for the configuration: OMDb with the key (`OMDB_API_KEY` or `omdb.json`),
    /// counted against the daily budget beside the response cache; the sample's facts when
    /// neither TMDb nor OMDb has credentials (the demo shows ratings with no keys at all); nil
    /// when TMDb has credentials and OMDb none.
    func makeOMDbClient(beside catalog: CatalogClient) throws -> OMDbClient? {
        if let problem = OMDbLimits.problem(in: configuration.environment) { throw Failure(.usage, problem) }
        guard let found = try omdbKey() else { return catalog.source == .sample ? OMDbClient.sample() : nil }
        try Self.checkBaseURL(configuration.omdbBaseURL, variable: "REEL_OMDB_BASE_URL", example: HTTPOMDbTransport.defaultBaseURL)
        let notice: @Sendable (String) -> Void = { [configuration] in configuration.notice(Notice($0)) }
        let store = OMDbKeyStore(environment: configuration.environment)
        if case .file = found.source, store.fileIsExposed {
            notice("\(store.path) is readable by others; run 'chmod 600 \(store.path)'")
        }
        let budget: OMDbBudget
        do {
            budget = try OMDbBudget.open(at: configuration.omdbBudgetDirectory, onDamage: notice)
        } catch {
            notice("OMDb's budget store \(configuration.omdbBudgetDirectory) cannot be used (\(error)); requests are counted in this process only")
            budget = .inProcess()
        }
        // With the sample catalog (no TMDb credentials) there is no response cache yet.
        let cache = catalog.cache ?? (try? ResponseCache.open(at: configuration.cacheDirectory, onDamage: notice))
        let limits = OMDbLimits.from(environment: configuration.environment)
        let transport = HTTPOMDbTransport(baseURL: configuration.omdbBaseURL, key: found.key, maxConnections: limits.maxConnections, timeout: limits.timeout)
        return OMDbClient(
            source: .omdb(baseURL: configuration.omdbBaseURL), transport: transport, cache: cache, budget: budget,
            slot: OMDbBudgetSlot.slot(for: found.key, store: store), keySource: found.source.description, limits: limits,
            offline: configuration.offline, notice: notice)
    }

    /// OMDb's facts of the title with `imdbID`, asked for as what the user is looking at; nil
    /// when OMDb is not configured. Only a mistake in its configuration (a malformed key, a bad
    /// REEL_OMDB_* value) throws: OMDb's failures are lookups, told once by the client.
    func omdbFacts(_ imdbID: String?) async throws -> OMDbLookup? {
        guard let client = try omdb() else { return nil }
        return await client.title(imdbID, priority: .interactive)
    }

    /// OMDb's scores of the titles of `summaries`, those missing or older than a week asked for
    /// first as bulk work in `summaries`' order (the most wanted first), within the budget; with
    /// what filling did (nil when OMDb is off).
    func omdbScores(of summaries: [TitleSummary], progress: ((Int, Int) -> Void)? = nil) async throws -> ([String: OMDbScores], OMDbFillReport?) {
        guard let client = try omdb() else { return ([:], nil) }
        let ids = summaries.compactMap(\.imdbID)
        guard !ids.isEmpty else { return ([:], nil) }
        let known = await client.scores(ids)
        let report = await client.fill(ids, known: known, progress: progress)
        // Read again only when OMDb answered something new.
        return (report.found + report.missing + report.failed == 0 ? known : await client.scores(ids), report)
    }
}
