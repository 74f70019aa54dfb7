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
        let allow = (route.methods + ["OPTIONS"]).joined(separator: ", ")
        if request.method == .options { return try crossOrigin.preflight(request, route: route, allow: allow) }
        guard route.methods.contains(request.method.rawValue) else {
            throw Problem(
                .methodNotAllowed, kind: "methodNotAllowed",
                "\(route.pattern) takes \(route.methods.joined(separator: ", ")), not \(request.method.rawValue)", headers: [.allow: allow])
        }
        return try await next(request, context)
    }
}
