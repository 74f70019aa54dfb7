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

extension TitleLookup {
    /// One line per kind of missing detail, for a reader (stderr, or a JSON document's `notices`).
    public static func notices(for lookups: some Sequence<TitleLookup>, sample: Bool) -> [String] {
        var notCached = 0
        var notFound = 0
        var failed = 0
        var firstFailure: String?
        for lookup in lookups {
            switch lookup {
            case .known: break
            case .notCached: notCached += 1
            case .notFound: notFound += 1
            case .failed(let reason):
                failed += 1
                if firstFailure == nil { firstFailure = reason }
            }
        }
        var notices: [String] = []
        if notCached > 0 { notices.append("offline: \(notCached) title\(notCached == 1 ? "'s" : "s'") details are not cached") }
        if notFound > 0 {
            let titles = "\(notFound) of these titles"
            notices.append(sample ? "the sample catalog does not know \(titles) (TMDb credentials show every title)" : "TMDb does not have \(titles) (any more)")
        }
        if let firstFailure {
            notices.append("details of \(failed) title\(failed == 1 ? "" : "s") could not be fetched: \(firstFailure)")
        }
        return notices
    }
}
