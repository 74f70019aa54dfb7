import Failures
import Foundation
import Catalog
import Ledger

extension Application {
    /// Whether the catalog is the bundled sample (no credentials).
    public func catalogIsSample() throws -> Bool { try catalogs.catalog().source == .sample }

    /// Catalog details of `keys` in `language`, fetched in parallel where not cached.
    func lookUp(
        _ keys: [MediaKey], language: String, progress: ((Int, Int) -> Void)? = nil, freshUntil: (Int64) -> Void = { _ in }
    ) async throws -> [MediaKey: TitleLookup] {
        try await Hydrator(client: try catalogs.catalog(), language: language).lookUp(keys, progress: progress, freshUntil: freshUntil)
    }
}
