/// The catalog client's figures a front end may show (the service's `/metrics`).
public struct CatalogCounts: Sendable, Equatable {
    public let cacheHits: Int
    public let networkRequests: Int
    public let staleServed: Int
}
