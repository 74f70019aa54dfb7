import Catalog
import Failures
import Foundation
import Ledger

extension Application {
    /// Where OMDb's facts come from, the day's budget, how far `handle`'s saved list is filled
    /// in (from the caches: nothing is asked of TMDb), and with `check`, OMDb's answer to one
    /// request (which the budget counts).
    public func omdbStatus(of handle: AccountHandle, check: Bool) async throws -> OMDbStatusReport {
        let store = OMDbKeyStore(environment: configuration.environment)
        let found = try catalogs.omdbKey()
        let client = try catalogs.omdb()
        let usage = client?.usage()
        var lookup: OMDbLookup?
        if check, let client, client.source != .sample, !configuration.offline {
            lookup = await client.title(Self.checkTitle, priority: .interactive)
        }
        return OMDbStatusReport(
            source: client == nil ? "off" : client?.source == .sample ? "sample" : "omdb", keySource: found?.source.description,
            keyFile: store.path, baseURL: configuration.omdbBaseURL, used: usage?.used, limit: usage?.limit,
            bulkLimit: usage.map { OMDbBudget.bulkCeiling(of: $0.limit) }, resetsAt: usage?.resetsAt, shared: client?.budget?.isShared ?? false,
            saved: await savedCoverage(of: handle, client), check: lookup)
    }

    /// What OMDb is asked to check a key: The Shawshank Redemption, a title it surely has.
    static let checkTitle = "tt0111161"

    private func savedCoverage(of handle: AccountHandle, _ client: OMDbClient?) async -> OMDbStatusReport.SavedCoverage {
        var coverage = OMDbStatusReport.SavedCoverage()
        guard let reader = try? reader(handle), !reader.savedAt.isEmpty, let catalog = try? catalogs.catalog() else { return coverage }
        let keys = Array(reader.savedAt.keys)
        coverage.titles = keys.count
        let summaries = catalog.cachedSummaries(of: keys, language: reader.language)
        coverage.detailsMissing = keys.count - summaries.count
        let ids = summaries.values.compactMap(\.imdbID)
        coverage.withoutIMDbID = summaries.count - ids.count
        let scores = await client?.scores(ids) ?? [:]
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        coverage.answered = scores.count
        coverage.unknownToOMDb = scores.values.filter { !$0.found }.count
        coverage.stale = scores.values.filter { !$0.isFresh(at: now) }.count
        coverage.waiting = ids.count - scores.count
        return coverage
    }

    /// Saves an OMDb key in `omdb.json` (mode 0600), after asking OMDb whether it accepts it
    /// unless `check` is false or offline (one request, counted against the key's budget): a
    /// refused key is not saved; one that cannot be checked now is saved with a note.
    public func omdbLogin(_ secret: String, check: Bool) async throws -> (path: String, checked: Bool) {
        let store = OMDbKeyStore(environment: configuration.environment)
        let key = OMDbKey(secret)
        var checked = false
        if check && !configuration.offline {
            try CatalogContext.checkBaseURL(configuration.omdbBaseURL, variable: "REEL_OMDB_BASE_URL", example: HTTPOMDbTransport.defaultBaseURL)
            let limits = OMDbLimits.from(environment: configuration.environment)
            let budget = (try? OMDbBudget.open(at: configuration.omdbBudgetDirectory)) ?? .inProcess()
            let client = OMDbClient(
                source: .omdb(baseURL: configuration.omdbBaseURL),
                transport: HTTPOMDbTransport(baseURL: configuration.omdbBaseURL, key: key, maxConnections: 1, timeout: limits.timeout), cache: nil,
                budget: budget, slot: OMDbBudgetSlot.slot(for: key, store: store), keySource: "what was given", limits: limits)
            let answer = await client.title(Self.checkTitle, priority: .interactive)
            await client.shutdown()
            switch answer {
            case .found, .missing: checked = true
            case .unavailable(.keyRefused(let message)):
                throw Failure(.refusedCredentials, "OMDb refused the key (\(message)); nothing saved")
            case .unavailable(let failure):
                configuration.notice(Notice("could not check the key now (\(failure)); saving it anyway"))
            }
        }
        try store.save(key)
        return (store.path, checked)
    }

    /// Removes `omdb.json` (`OMDB_API_KEY` is not touched): whether there was one, and where.
    public func omdbLogout() throws -> (removed: Bool, path: String) {
        let store = OMDbKeyStore(environment: configuration.environment)
        return (try store.remove(), store.path)
    }
}
