public import Reel

/// What a browsed tab (Movies, Series) lists: TMDb's discover list, sorted by a key in either
/// direction and narrowed to genres (all or any of them) and a year, or one of its charts
/// (popular, top rated), which TMDb neither sorts nor filters. The same query `reel movies` takes.
public struct BrowseQuery: Sendable, Equatable {
    public var list: TitleListQuery.List = .discover
    public var order: TitleListQuery.Order = .popularity
    public var descending = true
    /// English genre names (what `reel movies --genre` takes whatever the account's language).
    public var genres: [String] = []
    public var anyGenre = false
    public var year: Int?

    public init() {}

    /// Whether sorting and filters apply: on discover only.
    public var isDiscover: Bool { list == .discover }

    /// The application core's query for page `page`. A chart is asked without the filters, which
    /// it does not take; they are kept here for when the tab is back on discover.
    public func titleListQuery(_ mediaType: MediaType, page: Int) -> TitleListQuery {
        TitleListQuery(
            mediaType: mediaType, list: list, order: order, descending: descending, genres: isDiscover ? genres : [], anyGenre: anyGenre,
            year: isDiscover ? year : nil, page: page)
    }

    /// `Discover movies · by rating, highest first · Drama + Crime (all) · 1999`.
    public func heading(_ mediaType: MediaType) -> String {
        let kind = mediaType == .movie ? "movies" : "series"
        switch list {
        case .popular: return "Popular \(kind) · TMDb's chart (l for the next list)"
        case .topRated: return "Top rated \(kind) · TMDb's chart (l for the next list)"
        case .discover: break
        }
        // In the words `reel movies` heads its list with.
        var parts = ["Discover \(kind)", "by \(Self.name(order)), \(descending ? "descending" : "ascending")"]
        if !genres.isEmpty { parts.append(genres.joined(separator: " + ") + (genres.count > 1 ? (anyGenre ? " (any)" : " (all)") : "")) }
        if let year { parts.append(String(year)) }
        return parts.joined(separator: " · ")
    }

    static func name(_ order: TitleListQuery.Order) -> String {
        switch order {
        case .popularity: "popularity"
        case .release: "release date"
        case .rating: "rating"
        case .title: "title"
        }
    }
}
