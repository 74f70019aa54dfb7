import Foundation
import HTTPTypes
import Hummingbird
import Reel

/// Lets a request through to an account's routes only with a live account token
/// (`Authorization: Bearer reel_…`) or a browser's session cookie (`BrowserSession`), and only as
/// that account: the token names the account, never the path. No token, a malformed, unknown or
/// revoked one: 401 with `WWW-Authenticate`, the same answer for each, so a caller learns nothing
/// about other tokens. A change made with a cookie must come from the service's own pages (403).
struct AccountAuthentication: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let application: Reel.Application
    let limiter: RateLimiter
    let session: BrowserSession

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let token: AccessToken
        let refusal: Problem
        // A token is its account's: an account deleted and opened again under the same handle is
        // another account, which an old token must not reach. A change's write checks that
        // itself, in its transaction (`BoundAccount`), so a change is not checked here first (a
        // read of the store per request); a read is.
        let writeChecks = BrowserSession.changes(request.method)
        // A bearer token first: an app that sends one means it, whatever cookie a browser holds.
        if let secret = Self.bearer(request.headers[.authorization]) {
            refusal = Problem.unauthorized("the bearer token is not valid (unknown, revoked, or its account deleted)")
            // A store that cannot be read is its own failure (503 and the like), not a bad token.
            guard let found = try application.authenticate(bearer: secret), try writeChecks || application.reachesItsAccount(found) else {
                throw refusal
            }
            token = found
        } else if request.headers[.authorization] == nil, let carried = session.carried(by: request) {
            refusal = Problem.unauthorized(
                "the session is not valid (signed out, expired, revoked, its account deleted, or more than one session cookie): sign in again with a link from `reel token create --link`",
                removing: BrowserSession.removals)
            guard case .secret(let secret) = carried, let found = try application.authenticate(session: secret),
                try writeChecks || application.reachesItsAccount(found)
            else { throw refusal }
            if writeChecks { try session.requireOwnOrigin(request, refusal: BrowserSession.foreignChange) }
            token = found
        } else {
            throw Problem.unauthorized("a bearer token is required: Authorization: Bearer <token from `reel token create`>")
        }
        try limiter.admit(token.id)
        var context = context
        context.token = token
        do {
            return try await next(request, context)
        } catch ReelError.accountGone {
            // The write found the token's account gone. Checked now as a read would have been: a
            // store that cannot tell where the account lives answers for itself (503, a moved
            // account under a map not confirmed), a token whose account is not there is refused as
            // above; else it was deleted after the check, before the write (which wrote nothing).
            if writeChecks, try !application.reachesItsAccount(token) { throw refusal }
            throw Problem.unauthorized("the bearer token is not valid (its account was deleted); nothing was changed")
        }
    }

    /// The credentials of a `Bearer` authorization (the scheme in any case), else `nil`.
    static func bearer(_ header: String?) -> String? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        // Spaces and tabs around the token (Foundation's trimming costs more than the token check).
        let value = header.utf8.dropFirst(7).drop { $0 == 0x20 || $0 == 0x09 }
        let end = value.lastIndex { $0 != 0x20 && $0 != 0x09 }
        guard let end else { return nil }
        return String(Substring(value[...end]))
    }
}
