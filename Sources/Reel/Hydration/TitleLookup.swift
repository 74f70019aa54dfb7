import Catalog

/// What the catalog said about one saved title: its details, or why they are missing. A missing
/// title never fails a whole list; it is shown marked.
public enum TitleLookup: Sendable, Equatable {
    case known(TitleSummary)
    /// Offline, and the details were never fetched.
    case notCached
    /// TMDb has no title with this id (any more).
    case notFound
    /// TMDb failed for this title after every retry; the reason.
    case failed(String)

    public var summary: TitleSummary? {
        if case .known(let summary) = self { return summary }
        return nil
    }

    /// A stable name for scripts: `known`, `not-cached`, `not-found`, `failed`.
    public var status: String {
        switch self {
        case .known: "known"
        case .notCached: "not-cached"
        case .notFound: "not-found"
        case .failed: "failed"
        }
    }

    /// What to show in place of the title.
    public var placeholder: String {
        switch self {
        case .known(let summary): summary.title
        case .notCached: "(details not cached)"
        case .notFound: "(not in the catalog)"
        case .failed: "(details unavailable)"
        }
    }
}

extension TitleLookup {
    /// What the catalog's answer means for a list row. Refused credentials never get here: they
    /// fail the whole lookup.
    init(_ answer: CatalogClient.SummaryAnswer) {
        switch answer {
        case .success(let summary): self = .known(summary)
        case .failure(let error):
            switch error {
            case .notFound, .invalidCredentials, .missingCredentials: self = .notFound
            case .notCached: self = .notCached
            case .unavailable, .rateLimited, .rejected, .malformedResponse: self = .failed(error.description)
            }
        }
    }
}
