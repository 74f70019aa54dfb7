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

    /// Refuses (403) a request whose `Origin` is not the service's own: the origin's host and port
    /// must be the `Host` the request was sent to. A browser sends `Origin` with every change; a
    /// request without one, or with `null` (a sandboxed or privacy-stripped page), is refused
    /// too, since only a browser sends a cookie.
    static func requireOwnOrigin(_ request: Request, refusal: String) throws {
        guard let origin = request.headers[.origin], let host = request.head.authority,
            let parsed = URLComponents(string: origin), let scheme = parsed.scheme?.lowercased(), let originHost = parsed.host,
            parsed.path.isEmpty, Self.authority(host: originHost, port: parsed.port, scheme: scheme) == Self.authority(of: host, scheme: scheme)
        else {
            throw Problem(.forbidden, kind: "forbidden", refusal)
        }
    }

    /// `host[:port]` in lower case, without the scheme's default port.
    private static func authority(host: String, port: Int?, scheme: String) -> String {
        let defaultPort = scheme == "https" ? 443 : 80
        let name = host.lowercased()
        let bracketed = name.contains(":") && !name.hasPrefix("[") ? "[\(name)]" : name
        guard let port, port != defaultPort else { return bracketed }
        return "\(bracketed):\(port)"
    }

    /// A `Host` header's authority, normalised as `authority(host:port:scheme:)`.
    private static func authority(of header: String, scheme: String) -> String? {
        guard let parsed = URLComponents(string: "\(scheme)://\(header)"), let host = parsed.host, parsed.path.isEmpty else { return nil }
        return authority(host: host, port: parsed.port, scheme: scheme)
    }
}
