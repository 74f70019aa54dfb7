public import Reel

/// The app's tabs, in the order the tab bar shows them and `1`–`5` choose them.
public enum Tab: Int, CaseIterable, Sendable, Equatable {
    case movies, series, search, saved, settings

    public var title: String {
        switch self {
        case .movies: "Movies"
        case .series: "Series"
        case .search: "Search"
        case .saved: "Saved"
        case .settings: "Settings"
        }
    }

    /// The kind of title a browsed tab lists (Movies, Series); `nil` for the others.
    public var mediaType: MediaType? {
        switch self {
        case .movies: .movie
        case .series: .tv
        default: nil
        }
    }

    /// The tab after this one (`tab`), wrapping around.
    public var next: Tab { Tab(rawValue: (rawValue + 1) % Tab.allCases.count)! }

    /// The tab before this one (`shift-tab`), wrapping around.
    public var previous: Tab { Tab(rawValue: (rawValue + Tab.allCases.count - 1) % Tab.allCases.count)! }
}
