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
}
