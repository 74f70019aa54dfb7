/// One GET against TMDb v3: a path below the base URL and a query, without credentials (the
/// transport adds those). Its `key` — path plus the query sorted by name — names it for the cache
/// and for single-flight, so no key ever carries a token.
public struct CatalogRequest: Sendable, Hashable, CustomStringConvertible {
    public let endpoint: CatalogEndpoint
    /// Below the base URL, starting with `/`: `/movie/550`.
    public let path: String
    /// Sorted by name, then value.
    public let query: [QueryItem]

    /// `/movie/550?append_to_response=videos,credits&language=de-DE`
    public let key: String

    public init(_ endpoint: CatalogEndpoint, path: String, query: [(String, String?)] = []) {
        let items = query.compactMap { name, value in value.map { QueryItem(name, $0) } }.sorted()
        self.init(endpoint, path: path, sortedQuery: items, encodedQuery: items.map(\.encoded).joined(separator: "&"))
    }

    /// A request whose query is sorted and encoded already: many requests sharing one query
    /// (a list of titles in one language) build it once.
    init(_ endpoint: CatalogEndpoint, path: String, sortedQuery: [QueryItem], encodedQuery: String) {
        self.endpoint = endpoint
        self.path = path
        self.query = sortedQuery
        key = sortedQuery.isEmpty ? path : path + "?" + encodedQuery
    }

    public var description: String { key }

    public func value(of name: String) -> String? { query.first { $0.name == name }?.value }
}
