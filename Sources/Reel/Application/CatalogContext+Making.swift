import Catalog
import Failures
import Foundation
import Ledger

extension CatalogContext {
    /// The catalog client for the configuration: TMDb with the response cache (a damaged one is
    /// left aside with a note), or the bundled sample without credentials.
    func makeCatalogClient() throws -> CatalogClient {
        let notice: @Sendable (String) -> Void = { [configuration] in configuration.notice(Notice($0)) }
        guard let found = try credentials() else {
            configuration.notice(Notice(CatalogError.missingCredentials.description, routine: "sample-catalog"))
            return CatalogClient.sample()
        }
        try Self.checkBaseURL(configuration.catalogBaseURL)
        let store = CredentialStore(environment: configuration.environment)
        if case .file = found.source, store.fileIsExposed {
            notice("\(store.path) is readable by others; run 'chmod 600 \(store.path)'")
        }
        // The cache is only a cache: a damaged one is left aside with a note, not a failure.
        let cache: ResponseCache?
        do {
            cache = try ResponseCache.open(at: configuration.cacheDirectory) { notice($0) }
        } catch {
            guard let damage = ResponseCache.damage(in: error) else { throw error }
            notice("the TMDb response cache is damaged (\(damage)); going on without it; \(ResponseCache.damageAdvice)")
            cache = nil
        }
        return CatalogClient.tmdb(
            baseURL: configuration.catalogBaseURL, credentials: found.credentials, cache: cache,
            limits: CatalogLimits.from(environment: configuration.environment), offline: configuration.offline,
            notice: notice
        )
    }

    /// A TMDb base URL that is no http(s) URL with a host is a mistake in the environment, not
    /// TMDb being unavailable.
    static func checkBaseURL(_ text: String, variable: String = "REEL_TMDB_BASE_URL", example: String = CatalogClient.defaultBaseURL) throws {
        let url = URL(string: text)
        guard let scheme = url?.scheme?.lowercased(), scheme == "http" || scheme == "https", url?.host?.isEmpty == false else {
            throw Failure(.usage, "\(variable) '\(SafeText.line(text))' is not an http(s) URL (such as \(example))")
        }
    }

    /// The image client, made once, on the catalog client: the sample catalog's art in-process
    /// (nothing cached: it is made on the spot), or TMDb's image host with the image cache.
    func makeImageClient(on catalog: CatalogClient) throws -> ImageClient {
        if catalog.source == .sample {
            return ImageClient(catalog: catalog, transport: SampleImageTransport(), cache: nil)
        }
        let notice: @Sendable (String) -> Void = { [configuration] in configuration.notice(Notice($0)) }
        if let value = configuration.environment["REEL_IMAGE_CACHE_MB"], ImageCache.capBytes(environment: configuration.environment) == ImageCache.defaultCapBytes,
           value != String(ImageCache.defaultCapBytes >> 20) {
            notice("REEL_IMAGE_CACHE_MB=\(value) is not a whole number of megabytes (1 or more); the image cache keeps to 200 MB")
        }
        let cache: ImageCache?
        do {
            cache = try ImageCache.open(
                at: configuration.imageCacheDirectory, capBytes: ImageCache.capBytes(environment: configuration.environment)) { notice($0) }
        } catch {
            // Only a cache: damaged or unwritable, images are fetched without it.
            let why = ResponseCache.damage(in: error).map { "is damaged (\($0)); \(ImageCache.damageAdvice)" } ?? "cannot be opened (\(error))"
            notice("the image cache \(why); going on without it")
            cache = nil
        }
        let connections = configuration.environment["REEL_IMAGE_CONNECTIONS"].flatMap(Int.init).map { min(max($0, 1), 16) }
            ?? ImageClient.defaultMaxConnections
        return ImageClient(
            catalog: catalog, transport: HTTPImageTransport(maxConnections: connections, timeout: catalog.limits.timeout), cache: cache,
            offline: configuration.offline, maxConnections: connections)
    }

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
}
