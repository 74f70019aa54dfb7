import HTTPTypes
import Hummingbird

/// Between the log and the routes: a documented path asked with a method it does not take is a
/// 405 problem with `Allow` (a client learns what the path takes, where a 404 said it was not
/// there), and `OPTIONS` on one is answered here (`CrossOrigin.preflight`). Paths the contract
/// does not name go on to the router, which answers 404.
struct MethodGate: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let routes: RouteMethods
    let crossOrigin: CrossOrigin

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let route = routes.route(for: request.uri.path) else { return try await next(request, context) }
        if request.method == .options { return try crossOrigin.preflight(request, route: route) }
        guard route.methods.contains(request.method.rawValue) else { throw Problem.methodNotAllowed(request.method.rawValue, on: route) }
        return try await next(request, context)
    }
}
