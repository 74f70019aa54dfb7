import Foundation
import HTTPTypes
import Hummingbird
import Reel

/// How a browser signed in with a link (`reel token create --link`) carries its session: the
/// session's secret in one cookie, `HttpOnly` (no script reads it), `SameSite=Strict`, `Path=/`,
/// and `Secure` with the `__Host-` prefix when the service serves TLS. A change made with the
/// cookie must come from the service's own pages: its `Origin` names the host the request was
/// sent to (a page of another origin, even on the same site, is refused), so a form or a script
/// elsewhere cannot act with a signed-in browser's cookie (CSRF).
struct BrowserSession: Sendable {
    let secure: Bool

    init(secure: Bool) {
        self.secure = secure
    }

    /// The cookie's name: `__Host-reel_session` over TLS (a browser then takes it only from a
    /// secure origin, for the whole host), `reel_session` otherwise.
    var cookieName: String { secure ? "__Host-reel_session" : "reel_session" }

    /// The session secret a request's cookie carries, if any.
    func secret(of request: Request) -> String? {
        guard let value = request.cookies[cookieName]?.value, !value.isEmpty else { return nil }
        return value
    }

    /// The cookie that holds `secret` for the session's life.
    func cookie(_ secret: String) -> Cookie {
        Cookie(
            name: cookieName, value: secret, maxAge: Int(TokenKind.sessionLifetime / 1_000_000), path: "/", secure: secure, httpOnly: true,
            sameSite: .strict)
    }

    /// The cookie that makes a browser forget its session.
    var removal: Cookie {
        Cookie(name: cookieName, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// Why a change made with a cookie from another page is refused.
    static let foreignChange =
        "a change made with a session cookie is taken only from this service's own pages (the request's Origin is not its own); nothing was changed. Apps send a bearer token"

    /// Whether `method` changes something (a cookie may then be used only from the service's own pages).
    static func changes(_ method: HTTPRequest.Method) -> Bool {
        ![.get, .head, .options].contains(method)
    }

    /// Refuses (403) a request whose `Origin` is not the service's own: its scheme, host and port
    /// must be those the request was sent to (`Host`, and the scheme the service serves, or the
    /// one a reverse proxy names in `X-Forwarded-Proto`), a missing port being the scheme's
    /// default. A browser sends `Origin` with every change; a request without one, or with `null`
    /// (a sandboxed or privacy-stripped page), is refused too, since only a browser sends a cookie.
    func requireOwnOrigin(_ request: Request, refusal: String) throws {
        let forwarded = request.headers[.xForwardedProto]?.lowercased()
        let scheme = forwarded == "https" || forwarded == "http" ? forwarded! : secure ? "https" : "http"
        guard let origin = request.headers[.origin].flatMap(Self.origin), let authority = request.head.authority,
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
}
