import Crypto
import HTTPTypes
import Hummingbird
import Reel

/// Lets a request through to the operator's routes only with the configured operator token
/// (`REEL_OPERATOR_TOKEN`), compared in constant time. Without one configured the routes are off:
/// 404, as if they did not exist.
struct OperatorAuthentication: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token else { throw Problem.notFound("the operator endpoints are off: start the service with REEL_OPERATOR_TOKEN set") }
        guard let given = AccountAuthentication.bearer(request.headers[.authorization]), Self.same(given, token) else {
            throw Problem.unauthorized("the operator token is required")
        }
        return try await next(request, context)
    }

    /// Compares the two tokens' SHA-256 digests in constant time, so neither their contents nor
    /// their lengths leak through timing.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(SHA256.hash(data: Array(a.utf8)))
        let y = Array(SHA256.hash(data: Array(b.utf8)))
        var difference: UInt8 = 0
        for i in 0..<x.count { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
