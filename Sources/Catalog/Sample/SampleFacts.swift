/// The sample catalog as written down: compact facts per movie, series and person (titles,
/// dates, genres, ids and credits are real TMDb facts; overviews and biographies are our own
/// words). `SampleCatalog` turns them into TMDb-shaped responses.
struct SampleFacts: Sendable {
    struct Company: Decodable, Sendable {
        let id: Int
        let name: String
        let origin_country: String
    }

    struct Translation: Decodable, Sendable {
        let title: String?
        let name: String?
        let overview: String?
        let tagline: String?
        let biography: String?
    }

    struct VideoFact: Decodable, Sendable {
        let key: String
        let name: String
        let type: String
        let site: String
        let official: Bool
        let published_at: String
        /// `en-US`: TMDb's `iso_639_1` and `iso_3166_1` together.
        let language: String
        let size: Int
    }

    struct CastFact: Decodable, Sendable {
        let person: Int
        let character: String
    }

    struct CrewFact: Decodable, Sendable {
        let person: Int
        let job: String
        let department: String
    }

    struct Movie: Decodable, Sendable {
        let id: Int
        let imdb_id: String?
        let title: String
        let original_title: String
        let original_language: String
        let release_date: String
        let genre_ids: [Int]
        let runtime: Int?
        let status: String
        let tagline: String
        let budget: Int
        let revenue: Int
        let vote_average: Double
        let vote_count: Int
        let popularity: Double
        let poster_path: String?
        let backdrop_path: String?
        let origin_country: [String]
        let spoken_languages: [String]
        let production_countries: [String]
        let production_companies: [Company]
        let overview: String
        let translations: [String: Translation]
        let videos: [VideoFact]
        let cast: [CastFact]
        let crew: [CrewFact]
        let similar: [Int]
    }

    struct Series: Decodable, Sendable {
        let id: Int
        let name: String
        let original_name: String
        let original_language: String
        let first_air_date: String
        let last_air_date: String?
        let genre_ids: [Int]
        let status: String
        let type: String
        let in_production: Bool
        let tagline: String
        let number_of_seasons: Int
        let number_of_episodes: Int
        let episode_run_time: [Int]
        let vote_average: Double
        let vote_count: Int
        let popularity: Double
        let poster_path: String?
        let backdrop_path: String?
        let origin_country: [String]
        let languages: [String]
        let spoken_languages: [String]
        let networks: [Company]
        let production_companies: [Company]
        let production_countries: [String]
        let overview: String
        let translations: [String: Translation]
        let videos: [VideoFact]
        let cast: [CastFact]
        let crew: [CrewFact]
        let created_by: [Int]
        let similar: [Int]
    }

    struct Person: Decodable, Sendable {
        let id: Int
        let imdb_id: String?
        let name: String
        let gender: Int
        let birthday: String?
        let deathday: String?
        let place_of_birth: String?
        let known_for_department: String
        let popularity: Double
        let profile_path: String?
        let also_known_as: [String]
        let homepage: String?
        let biography: String
        let translations: [String: Translation]
    }

    let movies: [Movie]
    let series: [Series]
    let people: [Person]
}
