extension CatalogError {
    /// What failed, as a person reads it on a screen: no endpoint, query or other detail (those
    /// are in `description`, for logs, scripts and `--verbose`).
    public var inWords: String {
        switch self {
        case .missingCredentials: "no TMDb credentials: showing the bundled sample catalog"
        case .invalidCredentials: description
        case .notFound: "TMDb has no such title or page (404)"
        case .rateLimited(_, let retryAfter):
            "TMDb asks Reel to slow down (429)" + (retryAfter.map { ": wait \($0.components.seconds) s" } ?? "")
        case .unavailable(_, let reason): "Couldn't reach TMDb: " + Self.words(unavailable: reason)
        case .rejected(_, let status, _): "TMDb refused the request (HTTP \(status))"
        case .malformedResponse: "TMDb sent an answer Reel cannot read"
        case .notCached: "offline, and this was never fetched: go online once"
        }
    }

    /// `HTTP 503 (…)` as `it answered 503 (unavailable)`; a transport's reason (`connection
    /// refused`) as it is.
    static func words(unavailable reason: String) -> String {
        guard reason.hasPrefix("HTTP "), let status = Int(reason.dropFirst(5).prefix(3)) else { return reason }
        let name =
            switch status {
            case 502: "bad gateway"
            case 503: "unavailable"
            case 504: "gateway timeout"
            default: status >= 500 ? "server error" : "HTTP \(status)"
            }
        return "it answered \(status) (\(name))"
    }
}
