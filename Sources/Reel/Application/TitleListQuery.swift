import Catalog
import Failures
import Ledger

/// Which list of movies or series to browse: TMDb's discover with its filters and order, or its
/// popular or top-rated chart; which pages of it.
public struct TitleListQuery: Sendable {
    public typealias Order = DiscoverQuery.Order

    public enum List: String, Sendable, CaseIterable {
        case discover, popular, topRated = "top-rated"
    }

    public var mediaType: MediaType
    public var list: List = .discover
    public var order: Order = .popularity
    public var descending = true
    /// Only titles with all of these genres (names in the account's language, English names, or
    /// TMDb ids).
    public var genres: [String] = []
    /// With several genres: titles with any of them.
    public var anyGenre = false
    public var year: Int?

    /// The years a list or a search may be filtered by, in every face: TMDb lists no title before
    /// 1874, and a year past 2100 is a typing mistake rather than a plan.
    public static let years: ClosedRange<Int> = 1874...2100
    /// Only movies with this person in the cast or crew: a name or a TMDb person id.
    public var person: String?
    public var page = 1
    public var pages = 1

    public init(
        mediaType: MediaType, list: List = .discover, order: Order = .popularity, descending: Bool = true, genres: [String] = [],
        anyGenre: Bool = false, year: Int? = nil, person: String? = nil, page: Int = 1, pages: Int = 1
    ) {
        self.mediaType = mediaType
        self.list = list
        self.order = order
        self.descending = descending
        self.genres = genres
        self.anyGenre = anyGenre
        self.year = year
        self.person = person
        self.page = page
        self.pages = pages
    }

    /// The query as every face must ask it, checked by the core whichever face forgets: a year
    /// TMDb can list, and the filters that only discover takes (genres, a year, a person; a
    /// person only for movies) not given with TMDb's popular or top-rated list.
    public func check() throws {
        try Self.check(year: year)
        if person != nil && mediaType == .tv { throw Failure(.usage, "a person filter applies to movies, not series") }
        guard list != .discover else { return }
        let filters = [genres.isEmpty ? nil : "a genre", year == nil ? nil : "a year", person == nil ? nil : "a person"].compactMap { $0 }
        guard !filters.isEmpty else { return }
        throw Failure(.usage, "\(filters.joined(separator: ", ")) only narrow\(filters.count == 1 ? "s" : "") discover, not TMDb's \(list.rawValue) list")
    }

    /// A year outside `years` is a usage mistake.
    static func check(year: Int?) throws {
        guard let year, !years.contains(year) else { return }
        throw Failure(.usage, "\(year) is not a year TMDb lists (\(years.lowerBound) to \(years.upperBound))")
    }
}

extension DiscoverQuery.Order {
    /// The direction each key sorts in unless told otherwise: titles A to Z, the rest highest,
    /// newest or best first (as `saved` sorts its keys).
    public var descendsByDefault: Bool { self != .title }

}
