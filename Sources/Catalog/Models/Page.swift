/// A page of a paged list (`page`, `results`, `total_pages`, `total_results`). TMDb serves 20
/// results a page and refuses pages above 500 even when `total_pages` is larger.
public struct Page<Item: Decodable & Sendable>: Decodable, Sendable {
    public static var maximumPage: Int { 500 }

    public let page: Int
    public let results: [Item]
    public let totalPages: Int
    public let totalResults: Int

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalPages = "total_pages", totalResults = "total_results"
    }

    public init(page: Int, results: [Item], totalPages: Int, totalResults: Int) {
        self.page = page
        self.results = results
        self.totalPages = totalPages
        self.totalResults = totalResults
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        page = try c.decodeIfPresent(Int.self, forKey: .page) ?? 1
        results = try c.list(.results)
        totalPages = try c.count(.totalPages)
        totalResults = try c.count(.totalResults)
    }

    /// The last page that can be asked for: `total_pages`, capped at TMDb's 500.
    public var lastReachablePage: Int { min(totalPages, Self.maximumPage) }
}

extension Page: Equatable where Item: Equatable {}
extension Page: Hashable where Item: Hashable {}
