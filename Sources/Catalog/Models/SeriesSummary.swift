/// A series as lists show it: popular, top rated, discover, search, similar, known-for, credits.
public struct SeriesSummary: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String
    public let originalName: String?
    public let originalLanguage: String?
    public let overview: String?
    public let firstAirDate: TMDbDate?
    public let genreIDs: [Int]
    public let originCountry: [String]
    public let popularity: Double
    public let voteAverage: Double
    public let voteCount: Int
    public let posterPath: String?
    public let backdropPath: String?
    public let adult: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, overview, popularity, adult
        case originalName = "original_name", originalLanguage = "original_language"
        case firstAirDate = "first_air_date", genreIDs = "genre_ids", originCountry = "origin_country"
        case voteAverage = "vote_average", voteCount = "vote_count"
        case posterPath = "poster_path", backdropPath = "backdrop_path"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = try c.string(.name)
        originalName = try c.text(.originalName)
        originalLanguage = try c.text(.originalLanguage)
        overview = try c.text(.overview)
        firstAirDate = try c.day(.firstAirDate)
        genreIDs = try c.list(.genreIDs)
        originCountry = try c.list(.originCountry)
        popularity = try c.number(.popularity)
        voteAverage = try c.number(.voteAverage)
        voteCount = try c.count(.voteCount)
        posterPath = try c.text(.posterPath)
        backdropPath = try c.text(.backdropPath)
        adult = try c.flag(.adult)
    }
}
