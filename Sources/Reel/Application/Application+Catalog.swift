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
            guard try catalogs.credentials() == nil else { return }
        } catch {
            return  // making the client reports it
        }
        SampleCatalog.bundled.prepare(mediaTypes)
    }

    /// Whether the catalog is the bundled sample (no credentials).
    public func catalogIsSample() throws -> Bool { try catalogs.catalog().source == .sample }

    /// Catalog details of `keys` in `language`, fetched in parallel where not cached.
    func lookUp(
        _ keys: [MediaKey], language: String, progress: ((Int, Int) -> Void)? = nil, freshUntil: (Int64) -> Void = { _ in }
    ) async throws -> [MediaKey: TitleLookup] {
        try await Hydrator(client: try catalogs.catalog(), language: language).lookUp(keys, progress: progress, freshUntil: freshUntil)
    }
}
