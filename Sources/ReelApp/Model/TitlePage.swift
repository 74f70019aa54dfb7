/// One page of a browsed list as it came back from the application core.
public struct TitlePage: Sendable, Equatable {
    public var page: Int
    public var rows: [TitleRow]
    /// TMDb's last page of this list (at most 500, TMDb serves no page past it).
    public var totalPages: Int
    public var totalResults: Int
    /// The language the titles are in (the account's).
    public var language: String

    public init(page: Int, rows: [TitleRow], totalPages: Int, totalResults: Int, language: String) {
        self.page = page
        self.rows = rows
        self.totalPages = totalPages
        self.totalResults = totalResults
        self.language = language
    }
}
