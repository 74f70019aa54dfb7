/// A movie as lists show it: popular, top rated, discover, search, similar, known-for, credits.
public struct MovieSummary: Decodable, Sendable, Hashable {
    public let id: Int
    public let title: String
    public let originalTitle: String?
    public let originalLanguage: String?
    public let overview: String?
    public let releaseDate: TMDbDate?
    public let genreIDs: [Int]
    public let popularity: Double
    public let voteAverage: Double
    public let voteCount: Int
    public let posterPath: String?
    public let backdropPath: String?
    public let adult: Bool

    enum CodingKeys: String, CodingKey {
        case id, title, overview, popularity, adult
        case originalTitle = "original_title", originalLanguage = "original_language"
        case releaseDate = "release_date", genreIDs = "genre_ids"
        case voteAverage = "vote_average", voteCount = "vote_count"
        case posterPath = "poster_path", backdropPath = "backdrop_path"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        title = try c.string(.title)
        originalTitle = try c.text(.originalTitle)
        originalLanguage = try c.text(.originalLanguage)
        overview = try c.text(.overview)
        releaseDate = try c.day(.releaseDate)
        genreIDs = try c.list(.genreIDs)
        popularity = try c.number(.popularity)
        voteAverage = try c.number(.voteAverage)
        voteCount = try c.count(.voteCount)
        posterPath = try c.text(.posterPath)
        backdropPath = try c.text(.backdropPath)
        adult = try c.flag(.adult)
    }
}
