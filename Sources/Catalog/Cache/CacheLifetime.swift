import Foundation

/// How long a response may be served from the cache: what its `Cache-Control` says, or the
/// endpoint's default when it says nothing.
public enum CacheLifetime: Sendable, Equatable {
    /// `no-store`: keep nothing.
    case doNotStore
    /// Fresh for this many seconds (0 with `no-cache`: store, but revalidate every time).
    case seconds(Int64)

    public static func of(_ response: TransportResponse, endpoint: CatalogEndpoint) -> CacheLifetime {
        if endpoint.defaultLifetime == 0 { return .doNotStore }
        guard let header = response.header("cache-control") else { return .seconds(endpoint.defaultLifetime) }
        var maxAge: Int64?
        var noCache = false
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            switch parts.first {
            case "no-store": return .doNotStore
            case "no-cache": noCache = true
            case "max-age":
                if parts.count == 2, let n = Int64(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))), n >= 0 { maxAge = n }
            default: break
            }
        }
        // `no-store` wins wherever it stands (`no-cache, no-store, must-revalidate` is common).
        if noCache { return .seconds(0) }
        return .seconds(maxAge ?? endpoint.defaultLifetime)
    }
}
