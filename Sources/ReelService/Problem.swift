public import HTTPTypes
import Hummingbird
import NIOCore
import Reel

/// An error as the service answers it: RFC 9457 problem details (`application/problem+json`)
/// with the same kinds as `reel`'s exit codes, so a script that knows one knows the other.
///
/// ```json
/// {"type": "https://reel.invalid/problems/not-found", "title": "Not found", "status": 404,
///  "kind": "notFound", "detail": "no movie 550 is saved"}
/// ```
public struct Problem: Error, Sendable {
    public let status: HTTPResponse.Status
    /// The failure kind (`FailureKind`'s raw value), or a kind of the service's own
    /// (`unauthorized`, `rateLimited`, `tooLarge`, `methodNotAllowed`, `internal`).
    public let kind: String
    public let detail: String
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, kind: String, _ detail: String, headers: HTTPFields = [:]) {
        self.status = status
        self.kind = kind
        self.detail = detail
        self.headers = headers
    }

    /// The problem a use case's error is: its kind decides the status. An error no kind names is
    /// a bug: 500, its words kept out of the answer (they may name files), logged instead.
    public init(_ error: any Error) {
        switch error {
        case let problem as Problem: self = problem
        case let kinded as any KindedError: self.init(Self.status(of: kinded.kind), kind: kinded.kind.rawValue, SafeText.line(kinded.summary))
        case let http as HTTPError where http.status == .contentTooLarge:
            self.init(.contentTooLarge, kind: "tooLarge", http.body ?? "the request body is larger than the limit")
        case let http as HTTPError:
            let kind = http.status == .notFound ? "notFound" : http.status == .methodNotAllowed ? "methodNotAllowed" : "usage"
            self.init(http.status, kind: kind, http.body ?? http.status.reasonPhrase)
        case let tooMany as NIOTooManyBytesError:
            // A body collected over a limit anywhere (`RequestInput` names its own limit first).
            self = tooMany.maxBytes.map(Self.tooLarge) ?? Problem(.contentTooLarge, kind: "tooLarge", "the request body is larger than the limit")
        default: self.init(.internalServerError, kind: "internal", "an internal error; the service's log has its request id")
        }
    }

    /// The one table from a failure's kind to an HTTP status (handbook, "The HTTP service").
    static func status(of kind: FailureKind) -> HTTPResponse.Status {
        switch kind {
        case .usage: .badRequest
        case .notFound: .notFound
        case .data: .unprocessableContent
        case .tampered: .conflict
        case .unavailable: .serviceUnavailable
        case .temporary: .conflict
        case .refusedCredentials: .badGateway
        case .noSpace: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
        case .outputFailed, .storage: .internalServerError
        }
    }

    /// The problem as a response: `application/problem+json`.
    func response() -> Response {
        let document: JSONValue = [
            "type": .string("https://reel.invalid/problems/\(kind)"),
            "title": .string(status.reasonPhrase),
            "status": .integer(Int64(status.code)),
            "kind": .string(kind),
            "detail": .string(detail),
        ]
        var fields = headers
        fields[.contentType] = "application/problem+json"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: document.encoded())))
    }

    static func unauthorized(_ detail: String) -> Problem {
        Problem(.unauthorized, kind: "unauthorized", detail, headers: [.wwwAuthenticate: #"Bearer realm="reel""#])
    }

    /// 401 that also makes the browser forget session cookies that no longer work.
    static func unauthorized(_ detail: String, removing cookies: [Cookie]) -> Problem {
        var problem = unauthorized(detail)
        problem.headers[values: .setCookie] = cookies.map(\.description)
        return problem
    }

    static func usage(_ detail: String) -> Problem { Problem(.badRequest, kind: FailureKind.usage.rawValue, detail) }

    static func notFound(_ detail: String) -> Problem { Problem(.notFound, kind: FailureKind.notFound.rawValue, detail) }

    /// `method` asked of a documented path that does not take it: 405 with `Allow`.
    static func methodNotAllowed(_ method: String, on route: RouteMethods.Route) -> Problem {
        Problem(
            .methodNotAllowed, kind: "methodNotAllowed", "\(route.pattern) takes \(route.methods.joined(separator: ", ")), not \(SafeText.line(method))",
            headers: [.allow: route.allow])
    }

    static func tooLarge(_ limit: Int) -> Problem {
        Problem(.contentTooLarge, kind: "tooLarge", "the request body is larger than the limit of \(GroupedDigits.of(limit)) bytes")
    }
}
