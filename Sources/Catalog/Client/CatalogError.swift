/// Everything that can go wrong asking the catalog, each saying what to do about it. Messages
/// name the endpoint (path and query without credentials), never a token or key.
public enum CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No token or key configured: the sample catalog serves instead (its description is that notice).
    case missingCredentials
    /// 401: TMDb refused the credential (code 7 invalid key, 3/35 token, 10 suspended).
    case invalidCredentials(code: Int?, message: String?, hint: String?)
    /// 404 (codes 6 and 34).
    case notFound(endpoint: String)
    /// 429 still after every retry, or a `Retry-After` longer than Reel waits.
    case rateLimited(endpoint: String, retryAfter: Duration?)
    /// 5xx, timeouts, refused or reset connections, DNS: after every retry.
    case unavailable(endpoint: String, reason: String)
    /// 400/422 and other 4xx: TMDb rejected the request itself.
    case rejected(endpoint: String, status: Int, message: String?)
    /// The body did not have the shape Reel expects.
    case malformedResponse(endpoint: String, detail: String)
    /// Offline, and this request has never been answered.
    case notCached(endpoint: String)

    public var description: String {
        switch self {
        case .missingCredentials:
            return "no TMDb credentials (set TMDB_API_TOKEN or TMDB_API_KEY, or run 'reel tmdb login'); showing the bundled sample catalog"
        case .invalidCredentials(let code, let message, let hint):
            var text = "TMDb refused the credentials (HTTP 401"
            if let code { text += ", code \(code)" }
            text += ")"
            if let message { text += ": \(message)" }
            if let hint { text += "; \(hint)" }
            return text
        case .notFound(let endpoint):
            return "TMDb has nothing at \(endpoint) (404)"
        case .rateLimited(let endpoint, let retryAfter):
            var text = "TMDb is rate limiting requests (429) for \(endpoint)"
            if let retryAfter { text += "; it asks to wait \(retryAfter.components.seconds) s" }
            return text + "; try again shortly or lower the request rate (REEL_TMDB_RATE)"
        case .unavailable(let endpoint, let reason):
            return "TMDb is unavailable for \(endpoint): \(reason); try again later or use --offline"
        case .rejected(let endpoint, let status, let message):
            return "TMDb rejected \(endpoint) (HTTP \(status))" + (message.map { ": \($0)" } ?? "")
        case .malformedResponse(let endpoint, let detail):
            return "TMDb sent a malformed response for \(endpoint): \(detail)"
        case .notCached(let endpoint):
            return "offline, and \(endpoint) is not in the cache; go online once to fetch it"
        }
    }
}
