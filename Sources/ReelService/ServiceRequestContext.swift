public import Hummingbird
public import Reel

/// What one request carries through the middleware to its handler: the account its token named
/// (set by `AccountAuthentication`) and the request's id (for the log and the answer's
/// `X-Request-Id`).
public struct ServiceRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The token the request was made with; `nil` before authentication and on open routes.
    public var token: AccessToken?

    /// The address the request came from (the proxy's, behind a reverse proxy): what budgets
    /// kept per client count by. "unknown" when the channel has none.
    public let clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// The account the token reaches; a handler behind `AccountAuthentication` always has one.
    public func account() throws -> AccountHandle {
        guard let token else { throw Problem.unauthorized("a bearer token is required") }
        return token.handle
    }

    /// The account the token is bound to (its handle and stream): what a change carries to the
    /// write that checks it (`BoundAccount`).
    public func boundAccount() throws -> BoundAccount {
        guard let token else { throw Problem.unauthorized("a bearer token is required") }
        return token.account
    }

    /// Request bodies are read by the handlers with their own limits (`RequestBody`).
    public var maxUploadSize: Int { 0 }
}
