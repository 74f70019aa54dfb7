import Catalog

/// Which pages of a TMDb list a report holds, and TMDb's totals.
public struct Paging: Sendable, Equatable {
    /// TMDb serves no page past 500.
    public static let lastPage = Page<MovieSummary>.maximumPage

    public let firstPage: Int
    public let pagesFetched: Int
    public let totalPages: Int
    public let totalResults: Int
}
