/// One page of a browsed list as it came back from the application core.
public struct TitlePage: Sendable, Equatable {
    public var page: Int
    public var rows: [TitleRow]
    /// TMDb's last page of this list (at most 500, TMDb serves no page past it).
    public var totalPages: Int
    public var totalResults: Int
    /// The language the titles are in (the account's).
    public var language: String
    /// The query the page answers: a page of a query the list no longer shows is dropped.
    public var query: BrowseQuery

    public init(page: Int, rows: [TitleRow], totalPages: Int, totalResults: Int, language: String, query: BrowseQuery = BrowseQuery()) {
        self.page = page
        self.rows = rows
        self.totalPages = totalPages
        self.totalResults = totalResults
        self.language = language
        self.query = query
    }
}
