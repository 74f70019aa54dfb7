/// A movie or a series in a mixed list (a person's known-for, combined credits), told apart by
/// TMDb's `media_type`.
public enum MediaSummary: Sendable, Hashable {
    case movie(MovieSummary)
    case series(SeriesSummary)

    public var id: Int {
        switch self {
        case .movie(let m): m.id
        case .series(let s): s.id
        }
    }

    public var title: String {
        switch self {
        case .movie(let m): m.title
        case .series(let s): s.name
        }
    }

    /// Release date for a movie, first air date for a series.
    public var date: TMDbDate? {
        switch self {
        case .movie(let m): m.releaseDate
        case .series(let s): s.firstAirDate
        }
    }

    public var popularity: Double {
        switch self {
        case .movie(let m): m.popularity
        case .series(let s): s.popularity
        }
    }
}
