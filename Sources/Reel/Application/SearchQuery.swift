import Failures

/// What to search TMDb for: text, among movies, series, people or all three at once.
public struct SearchQuery: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case movie, tv, person, multi
    }

    public var text: String
    public var kind: Kind = .multi
    /// Only titles released (first aired) in this year: movie and tv searches only.
    public var year: Int?
    public var page = 1
    public var pages = 1

    public init(_ text: String, kind: Kind = .multi, year: Int? = nil, page: Int = 1, pages: Int = 1) {
        self.text = text
        self.kind = kind
        self.year = year
        self.page = page
        self.pages = pages
    }

    /// The query as every face must ask it, checked by the core: a year TMDb can list, and only
    /// for a search of movies or of series (TMDb's searches of people and of everything take
    /// none: the answer would look filtered when it is not).
    public func check() throws {
        try TitleListQuery.check(year: year)
        if year != nil && (kind == .person || kind == .multi) {
            throw Failure(.usage, "a year applies to a search of movies or series, not of \(kind == .person ? "people" : "everything")")
        }
    }
}
