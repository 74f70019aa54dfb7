public import Reel

/// What the Search tab searches among (`←` `→` switch it): everything, movies, series or people.
public enum SearchFilter: Int, CaseIterable, Sendable, Equatable {
    case all, movies, series, people

    public var title: String {
        switch self {
        case .all: "All"
        case .movies: "Movies"
        case .series: "Series"
        case .people: "People"
        }
    }

    /// The application core's search kind.
    public var kind: SearchQuery.Kind {
        switch self {
        case .all: .multi
        case .movies: .movie
        case .series: .tv
        case .people: .person
        }
    }

    /// The next filter (`→`), wrapping around.
    public var next: SearchFilter { SearchFilter(rawValue: (rawValue + 1) % Self.allCases.count)! }

    /// The filter before (`←`), wrapping around.
    public var previous: SearchFilter { SearchFilter(rawValue: (rawValue + Self.allCases.count - 1) % Self.allCases.count)! }
}
