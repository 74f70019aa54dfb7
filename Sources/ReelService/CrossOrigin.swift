import Foundation
import HTTPTypes
import Hummingbird
import Reel

/// Which web pages may call the service from a browser (CORS): the origins the operator names in
/// `REEL_SERVE_ORIGINS` (`https://app.example`, or `*` for any). An answer to a request from one
/// of them says so (`Access-Control-Allow-Origin`, echoing the origin, with `Vary: Origin`) and
/// lets the page read the headers an app needs; a preflight from one is answered with the
/// methods the path takes and the request headers the service reads. From any other origin the
/// answers carry nothing of CORS, so the browser keeps them from the page, and a preflight is a
/// 403 problem. Tokens never ride on CORS: a page sends its bearer token itself.
struct CrossOrigin: Sendable {
    let origins: Set<String>
    let anyOrigin: Bool

    init(origins: [String]) {
        self.origins = Set(origins.filter { $0 != "*" })
        anyOrigin = origins.contains("*")
    }

    /// The request headers a page may send: what the service reads.
    static let requestHeaders = ["authorization", "content-type", "idempotency-key", "if-none-match", "last-event-id"]
    /// The answer's headers a page may read beyond the always-readable ones.
    static let exposedHeaders = "Content-Disposition, ETag, Location, Link, Retry-After, WWW-Authenticate, X-Request-Id"
    /// How long a browser may keep a preflight's answer (seconds).
    static let maxAge = "600"

    func allows(_ origin: String) -> Bool { anyOrigin || origins.contains(origin) }

    /// What an answer to `request` adds: with origins named, `Vary: Origin` on every answer (a
    /// cache must not hand a copy made for one origin, or for none, to another: an image is kept
    /// a year); the CORS headers only for an `Origin` the operator allowed.
    func answerHeaders(for request: Request) -> HTTPFields {
        guard anyOrigin || !origins.isEmpty else { return [:] }
        guard let origin = request.headers[.origin], allows(origin) else { return [.vary: "Origin"] }
        return [.accessControlAllowOrigin: origin, .vary: "Origin", .accessControlExposeHeaders: Self.exposedHeaders]
    }

    /// `OPTIONS` on a path that takes `methods`: a preflight (an `Origin` and an
    /// `Access-Control-Request-Method`) is answered 204 with what it may do, or refused with a
    /// problem naming why; a plain `OPTIONS` is 204 with `Allow`.
    func preflight(_ request: Request, route: RouteMethods.Route) throws -> Response {
        guard let origin = request.headers[.origin], let wanted = request.headers[.accessControlRequestMethod] else {
            return Response(status: .noContent, headers: [.allow: route.allow])
        }
        guard allows(origin) else {
            throw Problem(
                .forbidden, kind: "forbidden",
                "pages from \(SafeText.line(origin)) may not call this service (the operator names the origins that may in REEL_SERVE_ORIGINS)")
        }
        guard route.methods.contains(wanted) else { throw Problem.methodNotAllowed(wanted, on: route) }
        let asked = (request.headers[.accessControlRequestHeaders] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }.filter { !$0.isEmpty }
        if let refused = asked.first(where: { !Self.requestHeaders.contains($0) }) {
            throw Problem(
                .forbidden, kind: "forbidden",
                "a page may not send the header \(SafeText.line(refused)); it may send \(Self.requestHeaders.joined(separator: ", "))")
        }
        return Response(status: .noContent, headers: [
            .accessControlAllowOrigin: origin, .vary: "Origin", .accessControlAllowMethods: route.methods.joined(separator: ", "),
            .accessControlAllowHeaders: Self.requestHeaders.joined(separator: ", "), .accessControlMaxAge: Self.maxAge, .allow: route.allow,
        ])
    }
}
