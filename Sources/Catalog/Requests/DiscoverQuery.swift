public import Ledger

/// `GET /discover/movie` and `/discover/tv`: what to browse and in which order.
public struct DiscoverQuery: Sendable, Hashable {
    public enum Order: String, Sendable, CaseIterable {
        case popularity, release, rating, title
    }

    /// Several genres: all of them (TMDb's `,`) or any of them (`|`).
    public enum GenreMatch: Sendable { case all, any }

    public var mediaType: MediaType
    public var order: Order = .popularity
    public var descending: Bool = true
    public var genres: [Int] = []
    public var genreMatch: GenreMatch = .all
    /// People (TMDb person ids) in the cast or crew; movies only.
    public var people: [Int] = []
    public var year: Int?
    public var page: Int = 1
    public var language: String = "en-US"
    /// ISO 3166-1 region for release dates (movies).
    public var region: String?
    /// With `order == .rating`, titles with fewer votes are left out so a 10/10 from two votes does
    /// not top the list (TMDb's own site does the same).
    public var minimumVotesForRating: Int = 200

    public init(mediaType: MediaType) { self.mediaType = mediaType }

    /// TMDb's `sort_by` value.
    public var sortBy: String {
        let field: String
        switch (order, mediaType) {
        case (.popularity, _): field = "popularity"
        case (.release, .movie): field = "primary_release_date"
        case (.release, .tv): field = "first_air_date"
        case (.rating, _): field = "vote_average"
        case (.title, .movie): field = "title"
        case (.title, .tv): field = "name"
        }
        return field + (descending ? ".desc" : ".asc")
    }

    public var request: CatalogRequest {
        let separator = genreMatch == .all ? "," : "|"
        var query: [(String, String?)] = [
            ("sort_by", sortBy),
            ("include_adult", "false"),
            ("language", language),
            ("page", String(page)),
            ("with_genres", genres.isEmpty ? nil : genres.map(String.init).joined(separator: separator)),
        ]
        switch mediaType {
        case .movie:
            query.append(("include_video", "false"))
            query.append(("with_people", people.isEmpty ? nil : people.map(String.init).joined(separator: ",")))
            query.append(("primary_release_year", year.map(String.init)))
            query.append(("region", region))
        case .tv:
            query.append(("first_air_date_year", year.map(String.init)))
            query.append(("include_null_first_air_dates", "false"))
        }
        if order == .rating { query.append(("vote_count.gte", String(minimumVotesForRating))) }
        return CatalogRequest(.discover, path: mediaType == .movie ? "/discover/movie" : "/discover/tv", query: query)
    }
}
