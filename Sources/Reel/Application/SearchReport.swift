import Catalog

/// What a search found, in TMDb's order: titles (with when the account saved each) and people.
public struct SearchReport: Sendable {
    public typealias Person = PersonSummary

    public enum Found: Sendable {
        case title(TitleListReport.Row)
        case person(Person)
    }

    public let query: SearchQuery
    public let language: String
    public let results: [Found]
    public let paging: Paging

    public var titles: [TitleListReport.Row] { results.compactMap { if case .title(let row) = $0 { row } else { nil } } }
    public var people: [Person] { results.compactMap { if case .person(let person) = $0 { person } else { nil } } }
}
