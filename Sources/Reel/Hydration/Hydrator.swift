import Catalog
import Ledger

/// Fills ledger items in with catalog details, in the account's language. Titles are looked up
/// in parallel; the client keeps within its limits (rate, connections) and answers from its
/// cache when it can. Only refused credentials fail the whole lookup: any other failure marks
/// the titles it concerns.
public struct Hydrator: Sendable {
    public let client: CatalogClient
    public let language: String

    public init(client: CatalogClient, language: String) {
        self.client = client
        self.language = language
    }

    /// One title's details, or why they are missing.
    public func lookUp(_ key: MediaKey) async throws -> TitleLookup {
        do {
            switch key.mediaType {
            case .movie:
                let details = try await client.movie(Int(key.id), language: language)
                return TitleSummary(details).map(TitleLookup.known) ?? .notFound
            case .tv:
                let details = try await client.series(Int(key.id), language: language)
                return TitleSummary(details).map(TitleLookup.known) ?? .notFound
            }
        } catch let error as CatalogError {
            switch error {
            case .invalidCredentials, .missingCredentials: throw error
            case .notFound: return .notFound
            case .notCached: return .notCached
            case .unavailable, .rateLimited, .rejected, .malformedResponse: return .failed(error.description)
            }
        }
    }

    /// Every distinct key's details. `progress(done, total)` is called after each title.
    public func lookUp(_ keys: [MediaKey], progress: ((Int, Int) -> Void)? = nil) async throws -> [MediaKey: TitleLookup] {
        var seen = Set<MediaKey>()
        let distinct = keys.filter { seen.insert($0).inserted }
        var found: [MediaKey: TitleLookup] = [:]
        found.reserveCapacity(distinct.count)
        try await withThrowingTaskGroup(of: (MediaKey, TitleLookup).self) { group in
            for key in distinct {
                group.addTask { (key, try await lookUp(key)) }
            }
            for try await (key, lookup) in group {
                found[key] = lookup
                progress?(found.count, distinct.count)
            }
        }
        return found
    }
}
