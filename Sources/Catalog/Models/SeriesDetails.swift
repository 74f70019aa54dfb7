/// `GET /tv/{id}`, optionally with `append_to_response=videos,credits,similar`.
public struct SeriesDetails: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String
    public let originalName: String?
    public let originalLanguage: String?
    public let overview: String?
    public let tagline: String?
    public let firstAirDate: TMDbDate?
    public let lastAirDate: TMDbDate?
    /// Often `[]` on today's TMDb; the episode runtimes when known.
    public let episodeRunTime: [Int]
    public let numberOfSeasons: Int?
    public let numberOfEpisodes: Int?
    public let inProduction: Bool
    public let status: String?
    public let type: String?
    public let genres: [Genre]
    public let popularity: Double
    public let voteAverage: Double
    public let voteCount: Int
    public let homepage: String?
    public let posterPath: String?
    public let backdropPath: String?
    public let originCountry: [String]
    public let languages: [String]
    public let spokenLanguages: [SpokenLanguage]
    public let createdBy: [Creator]
    public let networks: [ProductionCompany]
    public let productionCompanies: [ProductionCompany]
    public let productionCountries: [ProductionCountry]
    public let seasons: [Season]
    public let lastEpisodeToAir: Episode?
    public let nextEpisodeToAir: Episode?
    public let adult: Bool
    public let videos: VideoList?
    public let credits: Credits?
    public let similar: Page<SeriesSummary>?
    /// From `external_ids`, when it was appended.
    public let imdbID: String?

    enum CodingKeys: String, CodingKey {
        case id, name, overview, tagline, status, type, genres, popularity, homepage, languages, networks, seasons, adult
        case videos, credits, similar
        case externalIDs = "external_ids"
        case originalName = "original_name", originalLanguage = "original_language"
        case firstAirDate = "first_air_date", lastAirDate = "last_air_date", episodeRunTime = "episode_run_time"
        case numberOfSeasons = "number_of_seasons", numberOfEpisodes = "number_of_episodes"
        case inProduction = "in_production", voteAverage = "vote_average", voteCount = "vote_count"
        case posterPath = "poster_path", backdropPath = "backdrop_path", originCountry = "origin_country"
        case spokenLanguages = "spoken_languages", createdBy = "created_by"
        case productionCompanies = "production_companies", productionCountries = "production_countries"
        case lastEpisodeToAir = "last_episode_to_air", nextEpisodeToAir = "next_episode_to_air"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = try c.string(.name)
        originalName = try c.text(.originalName)
        originalLanguage = try c.text(.originalLanguage)
        overview = try c.text(.overview)
        tagline = try c.text(.tagline)
        firstAirDate = try c.day(.firstAirDate)
        lastAirDate = try c.day(.lastAirDate)
        episodeRunTime = try c.list(.episodeRunTime)
        numberOfSeasons = try c.decodeIfPresent(Int.self, forKey: .numberOfSeasons)
        numberOfEpisodes = try c.decodeIfPresent(Int.self, forKey: .numberOfEpisodes)
        inProduction = try c.flag(.inProduction)
        status = try c.text(.status)
        type = try c.text(.type)
        genres = try c.list(.genres)
        popularity = try c.number(.popularity)
        voteAverage = try c.number(.voteAverage)
        voteCount = try c.count(.voteCount)
        homepage = try c.text(.homepage)
        posterPath = try c.text(.posterPath)
        backdropPath = try c.text(.backdropPath)
        originCountry = try c.list(.originCountry)
        languages = try c.list(.languages)
        spokenLanguages = try c.list(.spokenLanguages)
        createdBy = try c.list(.createdBy)
        networks = try c.list(.networks)
        productionCompanies = try c.list(.productionCompanies)
        productionCountries = try c.list(.productionCountries)
        seasons = try c.list(.seasons)
        lastEpisodeToAir = try c.decodeIfPresent(Episode.self, forKey: .lastEpisodeToAir)
        nextEpisodeToAir = try c.decodeIfPresent(Episode.self, forKey: .nextEpisodeToAir)
        adult = try c.flag(.adult)
        videos = try c.decodeIfPresent(VideoList.self, forKey: .videos)
        credits = try c.decodeIfPresent(Credits.self, forKey: .credits)
        similar = try c.decodeIfPresent(Page<SeriesSummary>.self, forKey: .similar)
        imdbID = (try? c.decodeIfPresent(ExternalIDs.self, forKey: .externalIDs))??.imdbID
    }
}
