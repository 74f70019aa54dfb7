/// `GET /movie/{id}`, optionally with `append_to_response=videos,credits,similar`.
public struct MovieDetails: Decodable, Sendable, Hashable {
    public let id: Int
    public let imdbID: String?
    public let title: String
    public let originalTitle: String?
    public let originalLanguage: String?
    public let overview: String?
    public let tagline: String?
    public let releaseDate: TMDbDate?
    /// Minutes; nil when TMDb sends null or 0 (unknown).
    public let runtime: Int?
    public let status: String?
    public let genres: [Genre]
    public let popularity: Double
    public let voteAverage: Double
    public let voteCount: Int
    public let budget: Int
    public let revenue: Int
    public let homepage: String?
    public let posterPath: String?
    public let backdropPath: String?
    public let originCountry: [String]
    public let spokenLanguages: [SpokenLanguage]
    public let productionCompanies: [ProductionCompany]
    public let productionCountries: [ProductionCountry]
    public let collection: MovieCollection?
    public let adult: Bool
    public let videos: VideoList?
    public let credits: Credits?
    public let similar: Page<MovieSummary>?

    enum CodingKeys: String, CodingKey {
        case id, title, overview, tagline, runtime, status, genres, popularity, budget, revenue, homepage, adult
        case videos, credits, similar
        case externalIDs = "external_ids"
        case imdbID = "imdb_id", originalTitle = "original_title", originalLanguage = "original_language"
        case releaseDate = "release_date", voteAverage = "vote_average", voteCount = "vote_count"
        case posterPath = "poster_path", backdropPath = "backdrop_path", originCountry = "origin_country"
        case spokenLanguages = "spoken_languages", productionCompanies = "production_companies"
        case productionCountries = "production_countries", collection = "belongs_to_collection"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        imdbID = try c.text(.imdbID) ?? (try? c.decodeIfPresent(ExternalIDs.self, forKey: .externalIDs))??.imdbID
        title = try c.string(.title)
        originalTitle = try c.text(.originalTitle)
        originalLanguage = try c.text(.originalLanguage)
        overview = try c.text(.overview)
        tagline = try c.text(.tagline)
        releaseDate = try c.day(.releaseDate)
        runtime = try c.decodeIfPresent(Int.self, forKey: .runtime).flatMap { $0 > 0 ? $0 : nil }
        status = try c.text(.status)
        genres = try c.list(.genres)
        popularity = try c.number(.popularity)
        voteAverage = try c.number(.voteAverage)
        voteCount = try c.count(.voteCount)
        budget = try c.count(.budget)
        revenue = try c.count(.revenue)
        homepage = try c.text(.homepage)
        posterPath = try c.text(.posterPath)
        backdropPath = try c.text(.backdropPath)
        originCountry = try c.list(.originCountry)
        spokenLanguages = try c.list(.spokenLanguages)
        productionCompanies = try c.list(.productionCompanies)
        productionCountries = try c.list(.productionCountries)
        collection = try c.decodeIfPresent(MovieCollection.self, forKey: .collection)
        adult = try c.flag(.adult)
        videos = try c.decodeIfPresent(VideoList.self, forKey: .videos)
        credits = try c.decodeIfPresent(Credits.self, forKey: .credits)
        similar = try c.decodeIfPresent(Page<MovieSummary>.self, forKey: .similar)
    }
}
