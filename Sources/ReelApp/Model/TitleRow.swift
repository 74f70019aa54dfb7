public import Reel

/// One row of a list as the app shows it: what the view needs, already taken from a report, so
/// the model stays small, equatable and free of the catalog's types.
public struct TitleRow: Sendable, Equatable {
    /// OMDb's scores of a saved title, for the saved list's score column and its sorts.
    public struct Scores: Sendable, Equatable {
        public var imdbRating: Double?
        public var metascore: Int?
        public var tomatometer: Int?

        public init(imdbRating: Double? = nil, metascore: Int? = nil, tomatometer: Int? = nil) {
            self.imdbRating = imdbRating
            self.metascore = metascore
            self.tomatometer = tomatometer
        }

        /// The scores OMDb had; nil when it had none (it does not know the title, or has no score).
        init?(_ scores: OMDbScores?) {
            guard let scores, scores.found, scores.imdbRating != nil || scores.metascore != nil || scores.tomatometer != nil else { return nil }
            self.init(imdbRating: scores.imdbRating, metascore: scores.metascore, tomatometer: scores.tomatometer)
        }
    }

    public var key: MediaKey
    public var title: String
    public var year: Int?
    /// The release (series: first air) date, `1999-10-15`, when known; lists show it, else the year.
    public var date: String?
    public var genres: [String]
    /// TMDb's vote average, `nil` with no votes (or no details).
    public var rating: Double?
    public var saved: Bool
    /// TMDb's poster path, for the row's thumbnail (`p`).
    public var posterPath: String?
    /// OMDb's scores (saved list rows only; nil when not known).
    public var scores: Scores?

    public init(
        key: MediaKey, title: String, year: Int? = nil, date: String? = nil, genres: [String] = [], rating: Double? = nil, saved: Bool = false,
        posterPath: String? = nil, scores: Scores? = nil
    ) {
        self.key = key
        self.title = title
        self.year = year
        self.date = date
        self.genres = genres
        self.rating = rating
        self.saved = saved
        self.posterPath = posterPath
        self.scores = scores
    }

    /// A row of a browsed list.
    public init(_ row: TitleListReport.Row) {
        self.init(summary: row.summary, saved: row.savedAt != nil)
    }

    /// A row of the saved list: details when the catalog had them, else the key and why not.
    public init(_ item: SavedListReport.Item) {
        if let summary = item.lookup.summary {
            self.init(summary: summary, saved: true)
            scores = Scores(item.omdb)
        } else {
            let why = switch item.lookup {
            case .notCached: "no details offline"
            case .notFound: "not on TMDb"
            case .failed: "details failed"
            case .known: ""
            }
            self.init(key: item.saved.key, title: "\(item.saved.key.mediaType.rawValue) \(item.saved.key.id) (\(why))", saved: true)
        }
    }

    private init(summary: TitleSummary, saved: Bool) {
        self.init(
            key: summary.key, title: summary.title, year: summary.year, date: summary.date?.description, genres: summary.genres.map(\.name),
            rating: summary.voteCount == 0 ? nil : summary.voteAverage, saved: saved, posterPath: summary.posterPath)
    }
}
