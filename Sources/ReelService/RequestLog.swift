import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: every request is answered (an error becomes its problem), counted
/// in the metrics, logged as one line — request id, method, route pattern, status, duration, never
/// a token, a path's values, a query, a name, a photo or a payload — and answered with its
/// `X-Request-Id` and, for a page of an origin the operator allowed, the CORS headers
/// (`CrossOrigin`; on problems too, so the page can read why).
struct RequestLog: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let metrics: ServiceMetrics
    let crossOrigin: CrossOrigin

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let problem = Problem(error)
            if problem.status.code >= 500 {
                context.logger.error("request failed", metadata: ["error": "\(type(of: error))", "kind": "\(problem.kind)"])
            }
            response = problem.response()
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let route = context.endpointPath.map(Self.pattern).flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
        response.headers[.requestID] = context.id
        if response.headers[.vary] == nil {  // a preflight's answer has its own
            response.headers.append(contentsOf: crossOrigin.answerHeaders(for: request))
        }
        metrics.request(route: route, method: request.method.rawValue, status: response.status.code, seconds: seconds)
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)", "route": "\(route)", "status": .stringConvertible(response.status.code),
                "durationMs": .stringConvertible((seconds * 1_000_000).rounded() / 1_000),
            ])
        return response
    }

    /// `/v1/favorites/:mediaType/:id` written as the OpenAPI document writes it:
    /// `/v1/favorites/{mediaType}/{id}`.
    static func pattern(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
        }.joined(separator: "/")
    }
}

extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-Id")!
}
