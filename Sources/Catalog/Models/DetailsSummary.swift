public import Ledger

/// A movie's or series' details cut down to what a list of titles shows: title, original title,
/// date, genres, rating, popularity and poster (Reel's `TitleSummary`). What the summary cache
/// keeps per title, so a long saved list is answered without decoding JSON, and what the sample
/// catalog answers straight from its facts.
public struct DetailsSummary: Sendable, Hashable {
    public let key: MediaKey
    public let title: String
    public let originalTitle: String?
    /// Release date for movies, first air date for series.
    public let date: TMDbDate?
    public let genres: [Genre]
    public let voteAverage: Double
    public let voteCount: Int
    public let popularity: Double
    public let posterPath: String?
    /// The IMDb id (OMDb's facts are found by it), when TMDb knows it.
    public let imdbID: String?

    public init(
        key: MediaKey, title: String, originalTitle: String?, date: TMDbDate?, genres: [Genre],
        voteAverage: Double, voteCount: Int, popularity: Double, posterPath: String?, imdbID: String? = nil
    ) {
        self.imdbID = imdbID
        self.key = key
        self.title = title
        self.originalTitle = originalTitle
        self.date = date
        self.genres = genres
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.popularity = popularity
        self.posterPath = posterPath
    }

    /// Nil when TMDb's id is not one a ledger can hold.
    public init?(_ m: MovieDetails) {
        guard let key = try? MediaKey(.movie, Int64(m.id)) else { return nil }
        self.init(key: key, title: m.title, originalTitle: m.originalTitle, date: m.releaseDate, genres: m.genres,
                  voteAverage: m.voteAverage, voteCount: m.voteCount, popularity: m.popularity, posterPath: m.posterPath, imdbID: m.imdbID)
    }

    public init?(_ s: SeriesDetails) {
        guard let key = try? MediaKey(.tv, Int64(s.id)) else { return nil }
        self.init(key: key, title: s.name, originalTitle: s.originalName, date: s.firstAirDate, genres: s.genres,
                  voteAverage: s.voteAverage, voteCount: s.voteCount, popularity: s.popularity, posterPath: s.posterPath, imdbID: s.imdbID)
    }
}
