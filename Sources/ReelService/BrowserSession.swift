import Foundation
import HTTPTypes
import Hummingbird
import Reel

/// How a browser signed in with a link (`reel token create --link`) carries its session: the
/// session's secret in one cookie, `HttpOnly` (no script reads it), `SameSite=Strict`, `Path=/`,
/// and `Secure` with the `__Host-` prefix when the page is served over TLS (by the service, or
/// by a reverse proxy that says so in `X-Forwarded-Proto`). A change made with the cookie must
/// come from the service's own pages: its `Origin` names the host the request was sent to (a
/// page of another origin, even on the same site, is refused), so a form or a script elsewhere
/// cannot act with a signed-in browser's cookie (CSRF).
struct BrowserSession: Sendable {
    /// Whether the service serves TLS itself.
    let secure: Bool

    init(secure: Bool) {
        self.secure = secure
    }

    static let plainName = "reel_session"
    static let secureName = "__Host-reel_session"

    /// What a request's cookies carry of a session (`nil` from `carried(by:)`: none).
    enum Carried {
        case secret(String)
        /// More than one session cookie: one may have been planted by another page of the same
        /// host (another port shares a host's cookies), so none is trusted.
        case ambiguous
    }

    /// The session cookie of a request: the `__Host-` one, else the plain one (a page of
    /// another port can plant a plain one, never a `__Host-` one); two of a name are ambiguous.
    func carried(by request: Request) -> Carried? {
        var found: [String: [String]] = [:]
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                guard name == Self.plainName || name == Self.secureName else { continue }
                found[name, default: []].append(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        for name in [Self.secureName, Self.plainName] {
            guard let values = found[name]?.filter({ !$0.isEmpty }), !values.isEmpty else { continue }
            return values.count == 1 ? .secret(values[0]) : .ambiguous
        }
        return nil
    }

    /// The cookie that holds `secret` for the session's life, for the page `request` came from:
    /// `Secure` and `__Host-` when that page is served over TLS, by the service or by the proxy in
    /// front of it (`X-Forwarded-Proto: https`).
    func cookie(_ secret: String, for request: Request) -> Cookie {
        let secure = self.secure || Self.forwardedScheme(request) == "https"
        return Cookie(
            name: secure ? Self.secureName : Self.plainName, value: secret, maxAge: Int(TokenKind.sessionLifetime / 1_000_000), path: "/",
            secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The cookies that make a browser forget its session (both names: a browser keeps the one it has).
    static let removals: [Cookie] = [
        Cookie(name: plainName, value: "", maxAge: 0, path: "/", secure: false, httpOnly: true, sameSite: .strict),
        Cookie(name: secureName, value: "", maxAge: 0, path: "/", secure: true, httpOnly: true, sameSite: .strict),
    ]

    /// The scheme a reverse proxy names (`X-Forwarded-Proto`, its first value), if any.
    static func forwardedScheme(_ request: Request) -> String? {
        guard let value = request.headers[.xForwardedProto]?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased(),
            value == "http" || value == "https"
        else { return nil }
        return value
    }

    /// Why a change made with a cookie from another page is refused.
    static let foreignChange =
        "a change made with a session cookie is taken only from this service's own pages (the request's Origin is not its own); nothing was changed. Apps send a bearer token"

    /// Whether `method` changes something (a cookie may then be used only from the service's own pages).
    static func changes(_ method: HTTPRequest.Method) -> Bool {
        ![.get, .head, .options].contains(method)
    }

    /// Refuses (403) a request whose `Origin` is not the service's own: its scheme, host and port
    /// must be those the request was sent to (`Host`, or the proxy's `X-Forwarded-Host`, and the
    /// scheme the service serves, or the one a proxy names in `X-Forwarded-Proto`), a missing port being the scheme's
    /// default. A browser sends `Origin` with every change; a request without one, or with `null`
    /// (a sandboxed or privacy-stripped page), is refused too, since only a browser sends a cookie.
    func requireOwnOrigin(_ request: Request, refusal: String) throws {
        let scheme = Self.forwardedScheme(request) ?? (secure ? "https" : "http")
        // The host a reverse proxy was asked for (`X-Forwarded-Host`), else the request's own. No
        // page of another origin can send either header: a form cannot, and a script would need a
        // preflight, which names neither.
        let forwardedHost = request.headers[.xForwardedHost]?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces)
        guard let origin = request.headers[.origin].flatMap(Self.origin), let authority = forwardedHost ?? request.head.authority,
            let own = Self.endpoint(scheme: scheme, authority: authority), origin == own
        else {
            throw Problem(.forbidden, kind: "forbidden", refusal)
        }
    }

    /// Scheme, host (lower case) and port (the scheme's default when none is written) of an
    /// origin as a browser writes it (`https://app.example:8443`), else nil.
    static func origin(_ text: String) -> Endpoint? {
        let lowered = text.lowercased()
        for scheme in ["http", "https"] where lowered.hasPrefix(scheme + "://") {
            return endpoint(scheme: scheme, authority: String(lowered.dropFirst(scheme.count + 3)))
        }
        return nil
    }

    struct Endpoint: Equatable {
        let scheme: String
        let host: String
        let port: Int
    }

    /// `host[:port]` (a name, an IPv4 address or a bracketed IPv6 one) under `scheme`, else nil
    /// (a path, a user, an empty host or a port out of range).
    static func endpoint(scheme: String, authority: String) -> Endpoint? {
        let text = authority.lowercased()
        guard !text.isEmpty, !text.contains(where: { "/?#@ \t".contains($0) }) else { return nil }
        var host = text
        var port = scheme == "https" ? 443 : 80
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[...close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()), (1...65535).contains(number) else { return nil }
                port = number
            }
        } else if let colon = text.lastIndex(of: ":") {
            guard let number = Int(text[text.index(after: colon)...]), (1...65535).contains(number) else { return nil }
            host = String(text[..<colon])
            port = number
        }
        guard !host.isEmpty, !host.contains(":") || host.hasPrefix("[") else { return nil }
        return Endpoint(scheme: scheme, host: host, port: port)
    }
}

extension HTTPField.Name {
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    static let xForwardedHost = Self("X-Forwarded-Host")!
    static let secFetchSite = Self("Sec-Fetch-Site")!
}
