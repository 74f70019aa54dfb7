import Foundation
import Hummingbird
import Reel
import ReportJSON

/// A browser's session (`/v1/session`): a one-time sign-in link (`reel token create --link`)
/// spent for a session cookie, the caller's own credential read, and signing out.
///
/// `POST /v1/session` takes no token (the link's secret is the credential), only as JSON, and
/// only from the service's own pages or a client that sends no `Origin` and no cross-site fetch
/// metadata (a page elsewhere must not sign a browser in to an account of its choosing: a form
/// cannot send JSON, and a script's JSON needs a preflight the service refuses). Guessing a
/// 256-bit secret is hopeless, so attempts are not counted: a per-address budget would only let
/// one client behind a shared proxy lock everyone out.
struct SessionEndpoints {
    let application: Reel.Application
    let input: RequestInput
    let session: BrowserSession

    /// The open route (no token) on `router`, the caller's session on `account`.
    func add(to router: Router<ServiceRequestContext>, account: RouterGroup<ServiceRequestContext>) {
        router.post("v1/session", use: signIn)
        account.get("session", use: current)
        account.delete("session", use: signOut)
    }

    @Sendable func signIn(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let refusal = "a sign-in link is taken only from this service's own pages (the request's Origin is not its own)"
        if request.headers[.origin] != nil { try session.requireOwnOrigin(request, refusal: refusal) }
        if request.headers[.secFetchSite]?.lowercased() == "cross-site" { throw Problem(.forbidden, kind: "forbidden", refusal) }
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw Problem.usage("send the link as JSON: Content-Type: application/json and {\"link\": \"reel_…\"}")
        }
        let body = try await input.object(request)
        guard case .string(let link)? = body["link"] else {
            throw Problem.usage("\"link\" must be the sign-in link's secret (the reel_… after #signin= in the link)")
        }
        // The session this browser had is over once the link is spent: one browser, one session.
        var replacing: String?
        if case .secret(let old)? = session.carried(by: request) { replacing = old }
        guard let issued = try application.signIn(link: link, replacing: replacing) else {
            throw Problem.unauthorized(
                "the sign-in link is not valid (opened already, older than 15 minutes, revoked, or its account deleted): make a new one with `reel token create --user HANDLE --link`"
            )
        }
        var response = try JSONResponse(Self.document(issued.token), status: .created).response(from: request, context: context)
        response.setCookie(session.cookie(issued.secret, for: request))
        return response
    }

    /// Who the request acts for, and with what: the token or session, never its secret.
    @Sendable func current(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        guard let token = context.token else { throw Problem.unauthorized("a bearer token is required") }
        return JSONResponse(Self.document(token))
    }

    /// Revokes the credential the request was made with (the session, or the bearer token) and
    /// makes a browser forget its cookie.
    @Sendable func signOut(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        guard let token = context.token else { throw Problem.unauthorized("a bearer token is required") }
        let revoked = try application.revokeToken(token.id)
        var response = try JSONResponse(Self.document(revoked)).response(from: request, context: context)
        if token.kind == .session { for cookie in BrowserSession.removals { response.setCookie(cookie) } }
        return response
    }

    static func document(_ token: AccessToken) -> JSONValue { ["session": ReportJSON.token(token)] }
}
