import Failures
import Foundation
import Catalog
import Ledger

extension Application {
    /// Starts getting ready for titles of `mediaTypes` while the caller reads the ledger: without
    /// credentials, the sample catalog reads its facts of those kinds on another thread; with
    /// TMDb there is nothing to do ahead.
    public func prepareCatalog(for mediaTypes: Set<MediaType>) {
        do {
            guard try credentials() == nil else { return }
        } catch {
            return  // making the client reports it
        }
        SampleCatalog.bundled.prepare(mediaTypes)
    }

    /// Whether the catalog is the bundled sample (no credentials).
    public func catalogIsSample() throws -> Bool { try catalog().source == .sample }

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
            throw Failure(.usage, "\(variable) '\(TerminalText.field(text))' is not an http(s) URL (such as \(example))")
        }
    }

    /// Catalog details of `keys` in `language`, fetched in parallel where not cached.
    func lookUp(
        _ keys: [MediaKey], language: String, progress: ((Int, Int) -> Void)? = nil, freshUntil: (Int64) -> Void = { _ in }
    ) async throws -> [MediaKey: TitleLookup] {
        try await Hydrator(client: try catalog(), language: language).lookUp(keys, progress: progress, freshUntil: freshUntil)
    }
}
