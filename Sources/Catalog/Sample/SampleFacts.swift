/// The sample catalog as written down: compact facts per movie, series and person (titles,
/// dates, genres, ids and credits are real TMDb facts; overviews and biographies are our own
/// words). `SampleCatalog` turns them into TMDb-shaped responses. A title with an IMDb id also
/// has OMDb's facts about it (`omdb`, answered by `SampleOMDbResponder`).
struct SampleFacts: Sendable {
    struct Company: Sendable {
        let id: Int
        let name: String
        let origin_country: String
    }

    struct Translation: Sendable {
        let title: String?
        let name: String?
        let overview: String?
        let tagline: String?
        let biography: String?
    }

    struct VideoFact: Sendable {
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

    struct CastFact: Sendable {
        let person: Int
        let character: String
    }

    struct CrewFact: Sendable {
        let person: Int
        let job: String
        let department: String
    }

    struct Movie: Sendable {
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
        /// OMDb's facts, for a title with an IMDb id (a synthetic movie's are made on request:
        /// `SampleCatalog.omdbFact(imdbID:)`).
        let omdb: SampleOMDbFact?
    }

    struct Series: Sendable {
        let id: Int
        let imdb_id: String?
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
        let omdb: SampleOMDbFact?
    }

    struct Person: Sendable {
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

// Read from the parsed JSON (see `SampleFactReader`).

extension SampleFacts.Company {
    init(_ r: SampleFactReader) throws(SampleFactReader.Failure) {
        id = try r.int("id")
        name = try r.string("name")
        origin_country = try r.string("origin_country")
    }
}

extension SampleFacts.Translation {
    init(_ r: SampleFactReader) throws(SampleFactReader.Failure) {
        title = try r.optionalString("title")
        name = try r.optionalString("name")
        overview = try r.optionalString("overview")
        tagline = try r.optionalString("tagline")
        biography = try r.optionalString("biography")
    }
}

extension SampleFacts.VideoFact {
    init(_ r: SampleFactReader) throws(SampleFactReader.Failure) {
        key = try r.string("key")
        name = try r.string("name")
        type = try r.string("type")
        site = try r.string("site")
        official = try r.bool("official")
        published_at = try r.string("published_at")
        language = try r.string("language")
        size = try r.int("size")
    }
}

extension SampleFacts.CastFact {
    init(_ r: SampleFactReader) throws(SampleFactReader.Failure) {
        person = try r.int("person")
        character = try r.string("character")
    }
}

extension SampleFacts.CrewFact {
    init(_ r: SampleFactReader) throws(SampleFactReader.Failure) {
        person = try r.int("person")
        job = try r.string("job")
        department = try r.string("department")
    }
}

extension SampleFacts.Movie {
    init(_ r: SampleFactReader) throws(SampleFactReader.Failure) {
        id = try r.int("id")
        imdb_id = try r.optionalString("imdb_id")
        title = try r.string("title")
        original_title = try r.string("original_title")
        original_language = try r.string("original_language")
        release_date = try r.string("release_date")
        genre_ids = try r.ints("genre_ids")
        runtime = try r.optionalInt("runtime")
        status = try r.string("status")
        tagline = try r.string("tagline")
        budget = try r.int("budget")
        revenue = try r.int("revenue")
        vote_average = try r.double("vote_average")
        vote_count = try r.int("vote_count")
        popularity = try r.double("popularity")
        poster_path = try r.optionalString("poster_path")
        backdrop_path = try r.optionalString("backdrop_path")
        origin_country = try r.strings("origin_country")
        spoken_languages = try r.strings("spoken_languages")
        production_countries = try r.strings("production_countries")
        production_companies = try r.objects("production_companies", SampleFacts.Company.init)
        overview = try r.string("overview")
        translations = try r.dictionary("translations", SampleFacts.Translation.init)
        videos = try r.objects("videos", SampleFacts.VideoFact.init)
        cast = try r.objects("cast", SampleFacts.CastFact.init)
        crew = try r.objects("crew", SampleFacts.CrewFact.init)
        similar = try r.ints("similar")
        omdb = try r.optional("omdb", SampleOMDbFact.init)
    }
}

extension SampleFacts.Series {
    init(_ r: SampleFactReader) throws(SampleFactReader.Failure) {
        id = try r.int("id")
        imdb_id = try r.optionalString("imdb_id")
        name = try r.string("name")
        original_name = try r.string("original_name")
        original_language = try r.string("original_language")
        first_air_date = try r.string("first_air_date")
        last_air_date = try r.optionalString("last_air_date")
        genre_ids = try r.ints("genre_ids")
        status = try r.string("status")
        type = try r.string("type")
        in_production = try r.bool("in_production")
        tagline = try r.string("tagline")
        number_of_seasons = try r.int("number_of_seasons")
        number_of_episodes = try r.int("number_of_episodes")
        episode_run_time = try r.ints("episode_run_time")
        vote_average = try r.double("vote_average")
        vote_count = try r.int("vote_count")
        popularity = try r.double("popularity")
        poster_path = try r.optionalString("poster_path")
        backdrop_path = try r.optionalString("backdrop_path")
        origin_country = try r.strings("origin_country")
        languages = try r.strings("languages")
        spoken_languages = try r.strings("spoken_languages")
        networks = try r.objects("networks", SampleFacts.Company.init)
        production_companies = try r.objects("production_companies", SampleFacts.Company.init)
        production_countries = try r.strings("production_countries")
        overview = try r.string("overview")
        translations = try r.dictionary("translations", SampleFacts.Translation.init)
        videos = try r.objects("videos", SampleFacts.VideoFact.init)
        cast = try r.objects("cast", SampleFacts.CastFact.init)
        crew = try r.objects("crew", SampleFacts.CrewFact.init)
        created_by = try r.ints("created_by")
        similar = try r.ints("similar")
        omdb = try r.optional("omdb", SampleOMDbFact.init)
    }
}

extension SampleFacts.Person {
    init(_ r: SampleFactReader) throws(SampleFactReader.Failure) {
        id = try r.int("id")
        imdb_id = try r.optionalString("imdb_id")
        name = try r.string("name")
        gender = try r.int("gender")
        birthday = try r.optionalString("birthday")
        deathday = try r.optionalString("deathday")
        place_of_birth = try r.optionalString("place_of_birth")
        known_for_department = try r.string("known_for_department")
        popularity = try r.double("popularity")
        profile_path = try r.optionalString("profile_path")
        also_known_as = try r.strings("also_known_as")
        homepage = try r.optionalString("homepage")
        biography = try r.string("biography")
        translations = try r.dictionary("translations", SampleFacts.Translation.init)
    }
}
