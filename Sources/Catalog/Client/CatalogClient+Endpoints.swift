public import Ledger

/// Typed calls for each TMDb endpoint the viewer uses.
extension CatalogClient {
    public func configuration() async throws -> APIConfiguration { try await get(.configuration) }

    /// Checks the credentials (`GET /authentication`); never cached.
    public func validateCredentials() async throws {
        struct Answer: Decodable, Sendable { let success: Bool? }
        _ = try await get(.authentication, as: Answer.self)
    }

    public func genres(_ mediaType: MediaType, language: String) async throws -> GenreList {
        try await get(.genres(mediaType, language: language))
    }

    public func discoverMovies(_ query: DiscoverQuery) async throws -> Page<MovieSummary> {
        var q = query
        q.mediaType = .movie
        return try await get(q.request)
    }

    public func discoverSeries(_ query: DiscoverQuery) async throws -> Page<SeriesSummary> {
        var q = query
        q.mediaType = .tv
        return try await get(q.request)
    }

    public func movie(_ id: Int, language: String, appending: Set<CatalogRequest.Appendix> = []) async throws -> MovieDetails {
        try await get(.details(.movie, id: id, language: language, appending: appending))
    }

    public func series(_ id: Int, language: String, appending: Set<CatalogRequest.Appendix> = []) async throws -> SeriesDetails {
        try await get(.details(.tv, id: id, language: language, appending: appending))
    }

    public func similarMovies(to id: Int, page: Int = 1, language: String) async throws -> Page<MovieSummary> {
        try await get(.similar(.movie, id: id, page: page, language: language))
    }

    public func similarSeries(to id: Int, page: Int = 1, language: String) async throws -> Page<SeriesSummary> {
        try await get(.similar(.tv, id: id, page: page, language: language))
    }

    public func videos(_ mediaType: MediaType, id: Int, language: String) async throws -> VideoList {
        try await get(.videos(mediaType, id: id, language: language))
    }

    public func credits(_ mediaType: MediaType, id: Int, language: String) async throws -> Credits {
        try await get(.credits(mediaType, id: id, language: language))
    }

    public func person(_ id: Int, language: String) async throws -> PersonDetails {
        try await get(.person(id, language: language))
    }

    public func personCredits(_ id: Int, language: String) async throws -> CombinedCredits {
        try await get(.personCredits(id, language: language))
    }

    public func searchMovies(_ text: String, page: Int = 1, language: String, year: Int? = nil) async throws -> Page<MovieSummary> {
        try await get(.search(.movie, query: text, page: page, language: language, year: year))
    }

    public func searchSeries(_ text: String, page: Int = 1, language: String, year: Int? = nil) async throws -> Page<SeriesSummary> {
        try await get(.search(.tv, query: text, page: page, language: language, year: year))
    }

    /// The movies and series TMDb links to an IMDb id (`tt0137523`).
    public func find(imdbID: String, language: String) async throws -> FindResults {
        try await get(.find(imdbID: imdbID, language: language))
    }

    public func searchPeople(_ text: String, page: Int = 1, language: String) async throws -> Page<PersonSummary> {
        try await get(.search(.person, query: text, page: page, language: language))
    }

    /// Movies, series and people in one list; rows of a media type Reel does not know are
    /// skipped (they still count in TMDb's totals).
    public func searchMulti(_ text: String, page: Int = 1, language: String) async throws -> Page<MultiSearchResult> {
        let raw: Page<MultiSearchResult> = try await get(.search(.multi, query: text, page: page, language: language))
        let known = raw.results.filter { if case .unknown = $0 { return false } else { return true } }
        return Page(page: raw.page, results: known, totalPages: raw.totalPages, totalResults: raw.totalResults)
    }

    public func popularMovies(page: Int = 1, language: String, region: String? = nil) async throws -> Page<MovieSummary> {
        try await get(.chart(.popular, .movie, page: page, language: language, region: region))
    }

    public func topRatedMovies(page: Int = 1, language: String, region: String? = nil) async throws -> Page<MovieSummary> {
        try await get(.chart(.topRated, .movie, page: page, language: language, region: region))
    }

    public func popularSeries(page: Int = 1, language: String) async throws -> Page<SeriesSummary> {
        try await get(.chart(.popular, .tv, page: page, language: language))
    }

    public func topRatedSeries(page: Int = 1, language: String) async throws -> Page<SeriesSummary> {
        try await get(.chart(.topRated, .tv, page: page, language: language))
    }
}
