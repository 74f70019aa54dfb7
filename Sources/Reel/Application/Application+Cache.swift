import Catalog
import Failures
import Foundation

extension Application {
    /// How many TMDb answers are cached, how fresh, how big (an empty report when there is no
    /// cache; a damaged one is a `.tampered` failure with what to do).
    public func cacheStatistics() throws -> CacheStatistics {
        let directory = configuration.cacheDirectory
        guard FileManager.default.fileExists(atPath: directory + "/data.mdb") else { return CacheStatistics(path: directory) }
        do {
            return try ResponseCache.open(at: directory).statistics(now: Int64(Date().timeIntervalSince1970 * 1_000_000))
        } catch {
            guard let damage = ResponseCache.damage(in: error) else { throw error }
            throw Failure(.tampered, "the TMDb response cache is damaged (\(damage)); \(ResponseCache.damageAdvice)")
        }
    }

    /// Forgets every cached answer (the ledger is not touched): removes the files and makes an
    /// empty cache, also when the cache is damaged.
    public func clearCache() throws -> ResponseCache.Cleared {
        try ResponseCache.clear(at: configuration.cacheDirectory)
    }
}

extension Application {
    /// What the catalog client did so far in this process (cache hits, network requests), or
    /// `nil` before any use case needed the catalog.
    public func catalogCounts() -> CatalogCounts? {
        guard let counts = catalogs.loadedCatalog()?.counts else { return nil }
        return CatalogCounts(cacheHits: counts.cacheHits, networkRequests: counts.networkRequests, staleServed: counts.staleServed)
    }
}
