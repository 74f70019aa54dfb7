import Hummingbird
import Reel

@testable import ReelService

/// Stands in for `AccountAuthentication` in tests of the account routes' answers: every request
/// is `account`'s, within a rate limit of its own. (The token store is not this test
/// target's subject; `AccountAuthentication` itself is tested through the service's router.)
struct StandInAuthentication: RouterMiddleware {
    typealias Context = ServiceRequestContext
    /// A real token of the account (made through the core, as `reel token create` makes one).
    let token: AccessToken
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try limiter.admit("stand-in")
        var context = context
        context.token = token
        return try await next(request, context)
    }

    /// The account routes as `ReelServer.router` adds them, behind this middleware instead of the
    /// token check (and the service's own outer middleware, which renders problems and answers
    /// wrong methods and preflights).
    static func router(_ harness: ServiceHarness, as handle: AccountHandle, burst: Double = 1_000) throws -> Router<ServiceRequestContext> {
        let router = Router(context: ServiceRequestContext.self)
        let metrics = ServiceMetrics()
        harness.server.addOuterMiddleware(to: router, metrics: metrics)
        let group = router.group("v1").add(middleware: StandInAuthentication(token: try harness.application.createToken(for: handle).token, limiter: RateLimiter(rate: 0.001, burst: burst)))
        let application = harness.application
        AccountEndpoints(application: application, input: RequestInput(settings: harness.settings), generator: "reel tests", savedAnswers: SavedAnswers()).add(to: group)
        CatalogEndpoints(application: application).add(to: group)
        EventStreamEndpoint(
            application: application, settings: harness.settings, streams: StreamCounter(), metrics: metrics,
            lifecycle: ServiceLifecycleState(application: application), tokens: TokenWatch(store: application)
        ).add(to: group)
        return router
    }
}
