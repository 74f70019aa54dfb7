/// Why a request got no HTTP answer at all. Every case but `.unresolvableHost` may pass, so the
/// client retries them.
public enum TransportFailure: Error, Sendable, Equatable {
    case timedOut
    case connectionRefused
    case connectionReset
    /// The body ended before its announced length.
    case truncatedBody
    case unresolvableHost(String)
    case tls(String)
    case other(String)

    public var isTransient: Bool {
        switch self {
        case .unresolvableHost, .tls: false
        default: true
        }
    }

    public var reason: String {
        switch self {
        case .timedOut: "the request timed out"
        case .connectionRefused: "the connection was refused"
        case .connectionReset: "the connection was reset"
        case .truncatedBody: "the response was cut short"
        case .unresolvableHost(let host): "cannot resolve \(host) (no network or DNS?)"
        case .tls(let detail): "TLS failed: \(detail)"
        case .other(let detail): detail
        }
    }
}
