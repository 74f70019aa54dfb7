import Catalog
import Ledger

/// Fills ledger items in with catalog details, in the account's language. The client answers a
/// whole list at once: summaries kept in its cache in one read, the rest fetched in parallel
/// within its limits (rate, connections). Only refused credentials fail the whole lookup: any
/// other failure marks the titles it concerns.
public struct Hydrator: Sendable {
    public let client: CatalogClient
    public let language: String

    public init(client: CatalogClient, language: String) {
        self.client = client
        self.language = language
    }

    /// Every distinct key's details. `progress(done, total)` is called as titles are fetched;
    /// `freshUntil` is told until when the details given stay what they are (the client's
    /// `summaries(of:language:progress:as:freshUntil:)`).
    public func lookUp(
        _ keys: [MediaKey], progress: ((Int, Int) -> Void)? = nil, freshUntil: (Int64) -> Void = { _ in }
    ) async throws -> [MediaKey: TitleLookup] {
        try await client.summaries(of: keys, language: language, progress: progress, as: TitleLookup.init, freshUntil: freshUntil)
    }
}
