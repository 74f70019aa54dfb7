import Catalog
import Ledger

/// A browsed list of titles in the account's language: the genres and person the query named
/// (as TMDb names them), the titles with when the account saved each, and which pages they are.
public struct TitleListReport: Sendable {
    public typealias Genre = Catalog.Genre

    public struct Row: Sendable {
        public let summary: TitleSummary
        /// When the account saved the title; `nil`: not saved.
        public let savedAt: Int64?
    }

    public let query: TitleListQuery
    public let language: String
    public let genres: [Genre]
    public let person: PersonName?
    public let rows: [Row]
    public let paging: Paging
}
