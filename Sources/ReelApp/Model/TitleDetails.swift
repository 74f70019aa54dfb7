public import Reel

/// A title's details as the details screen shows them: every field `reel show` has, taken from
/// the application core's report so the model stays equatable and free of the catalog's types.
/// Texts are TMDb's and OMDb's as they came; the layout makes each terminal-safe as it is drawn.
public struct TitleDetails: Sendable, Equatable {
    /// One of the cast, opened by their TMDb id.
    public struct CastMember: Sendable, Equatable {
        public var id: Int
        public var name: String
        public var character: String?

        public init(id: Int, name: String, character: String? = nil) {
            self.id = id
            self.name = name
            self.character = character
        }
    }

    /// `Directed by` / `Created by` and the names.
    public struct Credit: Sendable, Equatable {
        public var role: String
        public var names: [String]

        public init(role: String, names: [String]) {
            self.role = role
            self.names = names
        }
    }

    public struct Trailer: Sendable, Equatable {
        public var name: String
        public var url: String

        public init(name: String, url: String) {
            self.name = name
            self.url = url
        }
    }

    /// What OMDb adds (the application core's `OMDbFacts`), already in the words `reel show`
    /// uses: the lines the details screen shows after TMDb's facts.
    public struct OMDb: Sendable, Equatable {
        /// `IMDb 8.8 (2.3M votes) · Rotten Tomatoes 79% · Metacritic 66`.
        public var ratings: String?
        /// `🏆🏆🏆 3 Oscars · 108 wins · 145 nominations`.
        public var awards: String?
        /// `$37,030,102`.
        public var boxOffice: String?
        /// The certificate: `R`, `PG-13`, `TV-MA`.
        public var rated: String?
        public var directors: [String] = []
        public var writers: [String] = []
        /// Older than a week, shown because OMDb could not be asked again.
        public var stale = false

        public init(
            ratings: String? = nil, awards: String? = nil, boxOffice: String? = nil, rated: String? = nil, directors: [String] = [],
            writers: [String] = [], stale: Bool = false
        ) {
            self.ratings = ratings
            self.awards = awards
            self.boxOffice = boxOffice
            self.rated = rated
            self.directors = directors
            self.writers = writers
            self.stale = stale
        }

        public init(_ facts: OMDbFacts) {
            self.init(
                ratings: facts.ratingsLine, awards: facts.awardsLine, boxOffice: facts.boxOfficeText, rated: facts.rated,
                directors: facts.directors, writers: facts.writers, stale: facts.stale)
        }
    }

    public var key: MediaKey
    public var title: String
    public var originalTitle: String?
    /// `1999-03-30`.
    public var date: String?
    public var year: Int?
    /// Series: the last air date.
    public var endDate: String?
    /// Minutes (series: per episode).
    public var runtime: Int?
    public var seasons: Int?
    public var episodes: Int?
    public var status: String?
    public var genres: [String] = []
    public var voteAverage: Double = 0
    public var voteCount: Int = 0
    public var popularity: Double = 0
    public var tagline: String?
    public var overview: String?
    /// Directors (movies) or creators (series).
    public var makers: Credit?
    public var cast: [CastMember] = []
    public var originalLanguage: String?
    public var spokenLanguages: [String] = []
    public var companies: [String] = []
    public var trailers: [Trailer] = []
    public var posterURL: String?
    public var backdropURL: String?
    /// TMDb's poster path, for the poster drawn beside the details.
    public var posterPath: String?
    public var similar: [TitleRow] = []
    public var saved: Bool = false
    /// OMDb's facts, when it had them.
    public var omdb: OMDb?
    /// What asking OMDb came to (`TitleDetailsReport.omdbStatus`): `found`, `budget-spent`, … `off`.
    public var omdbStatus = "off"

    public init(key: MediaKey, title: String) {
        self.key = key
        self.title = title
    }

    /// The application core's report, as the screen shows it.
    public init(_ report: TitleDetailsReport) {
        self.init(key: report.key, title: report.title)
        originalTitle = report.originalTitle
        date = report.date?.description
        year = report.date?.year
        endDate = report.endDate?.description
        runtime = report.runtime
        seasons = report.seasons
        episodes = report.episodes
        status = report.status
        genres = report.genres
        voteAverage = report.voteAverage
        voteCount = report.voteCount
        popularity = report.popularity
        tagline = report.tagline
        overview = report.overview
        makers = report.people.first { $0.role != "Starring" }.map { Credit(role: $0.role, names: $0.names) }
        cast = report.cast.map { CastMember(id: $0.id, name: $0.name, character: $0.character) }
        originalLanguage = report.originalLanguage
        spokenLanguages = report.spokenLanguages
        companies = report.companies
        trailers = report.trailers.map { Trailer(name: $0.name, url: $0.url) }
        posterURL = report.posterURL
        backdropURL = report.backdropURL
        posterPath = report.posterPath
        similar = report.similar.map { TitleRow(key: $0.key, title: $0.title, year: $0.year, saved: $0.savedAt != nil) }
        saved = report.savedAt != nil
        omdb = report.omdb.map(OMDb.init)
        omdbStatus = report.omdbStatus
    }
}
