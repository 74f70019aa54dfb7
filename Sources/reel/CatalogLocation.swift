import Catalog
import Foundation
import LMDB
import Ledger
import Reel

/// Which catalog answers: TMDb when credentials are configured (with the response cache in
/// `<data-dir>/cache`), else the bundled sample catalog, with a one-line notice on stderr.
enum CatalogLocation {
    static func cacheDirectory(_ global: GlobalOptions) -> String { AccountService.catalogCacheDirectory(in: global.resolvedDataDirectory) }

    /// The base URL: `REEL_TMDB_BASE_URL`, else TMDb's.
    static var baseURL: String {
        let value = ProcessInfo.processInfo.environment["REEL_TMDB_BASE_URL"] ?? ""
        return value.isEmpty ? CatalogClient.defaultBaseURL : value
    }

    /// Starts getting ready for titles of `mediaTypes` while the caller reads the ledger: without
    /// credentials, the sample catalog reads its facts of those kinds on another thread; with
    /// TMDb there is nothing to do ahead.
    static func prepare(for mediaTypes: Set<MediaType>) {
        do {
            guard try CredentialStore().load() == nil else { return }
        } catch {
            return  // the client reports it
        }
        SampleCatalog.bundled.prepare(mediaTypes)
    }

    /// Runs `body` with the catalog client and closes its connections afterwards, thrown or not.
    static func withClient<T>(_ global: GlobalOptions, _ body: (CatalogClient) async throws -> T) async throws -> T {
        let client = try client(global)
        do {
            let value = try await body(client)
            await client.shutdown()
            return value
        } catch {
            await client.shutdown()
            throw error
        }
    }

    static func client(_ global: GlobalOptions) throws -> CatalogClient {
        let store = CredentialStore()
        guard let found = try store.load() else {
            Terminal.notice(CatalogError.missingCredentials.description)
            return CatalogClient.sample()
        }
        if case .file = found.source, store.fileIsExposed {
            Terminal.notice("\(store.path) is readable by others; run 'chmod 600 \(store.path)'")
        }
        // The cache is only a cache: a damaged one is left aside with a note, not a failure.
        let cache: ResponseCache?
        do {
            cache = try ResponseCache.open(at: cacheDirectory(global)) { Terminal.notice($0) }
        } catch let error as LMDBError where error.code.meansDamage {
            Terminal.notice("the TMDb response cache is damaged (\(error.message)); going on without it; \(ResponseCache.damageAdvice)")
            cache = nil
        }
        return CatalogClient.tmdb(
            baseURL: baseURL, credentials: found.credentials, cache: cache,
            limits: CatalogLimits.from(environment: ProcessInfo.processInfo.environment), offline: global.isOffline,
            notice: { Terminal.notice($0) }
        )
    }
}
