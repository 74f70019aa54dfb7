/// One GET against TMDb v3: a path below the base URL and a query, without credentials (the
/// transport adds those). Its `key` — path plus the query sorted by name — names it for the cache
/// and for single-flight, so no key ever carries a token.
public struct CatalogRequest: Sendable, Hashable, CustomStringConvertible {
    public let endpoint: CatalogEndpoint
    /// Below the base URL, starting with `/`: `/movie/550`.
    public let path: String
    /// Sorted by name, then value.
    public let query: [QueryItem]

    public init(_ endpoint: CatalogEndpoint, path: String, query: [(String, String?)] = []) {
        self.endpoint = endpoint
        self.path = path
        self.query = query.compactMap { name, value in value.map { QueryItem(name, $0) } }.sorted()
    }

    /// `/movie/550?append_to_response=videos,credits&language=de-DE`
    public var key: String {
        query.isEmpty ? path : path + "?" + query.map(\.encoded).joined(separator: "&")
    }

    public var description: String { key }

    public func value(of name: String) -> String? { query.first { $0.name == name }?.value }
}
