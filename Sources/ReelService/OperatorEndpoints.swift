import Foundation
import Hummingbird
import Reel

/// The operator's routes (`/v1/admin/...`, the operator token): every account, the tokens, the
/// audit of the whole ledger, and rebuilding the projections with progress as Server-Sent Events.
struct OperatorEndpoints {
    let application: Reel.Application

    func add(to group: RouterGroup<ServiceRequestContext>) {
        group.get("accounts", use: accounts)
        group.get("tokens", use: tokens)
        group.post("audit/verify", use: verify)
        group.post("projections/rebuild", use: rebuild)
    }

    @Sendable func accounts(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        JSONResponse(["accounts": .array(try application.accounts().map(ServiceJSON.account))])
    }

    @Sendable func tokens(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let handle = try RequestInput.query(request, "user").map { try AccountHandle($0) }
        return JSONResponse(["tokens": .array(try application.tokens(of: handle).map(ServiceJSON.token))])
    }

    /// Walks the whole ledger; 200 with `intact: false` and the problem when it does not verify.
    @Sendable func verify(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let application = self.application
        let report = try await Self.offThread { try application.verifyLedger() }
        return JSONResponse(ServiceJSON.verification(report))
    }

    /// Rebuilds the projections (`?check=true`: compares only). With `Accept: text/event-stream`
    /// the answer is Server-Sent Events: `progress` events (`{"done":…,"total":…}`) and a last
    /// `result` (or `error`) event; otherwise one JSON document when it is done.
    @Sendable func rebuild(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let check = try RequestInput.flag(request, "check") ?? false
        let application = self.application
        guard request.headers[.accept]?.contains("text/event-stream") == true else {
            let report = try await Self.offThread { try application.rebuildProjections(checkOnly: check) }
            return try JSONResponse(ServiceJSON.rebuild(report)).response(from: request, context: context)
        }
        let (frames, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        Thread.detachNewThread {
            var last = ContinuousClock.now
            do {
                let report = try application.rebuildProjections(checkOnly: check) { done, total in
                    let now = ContinuousClock.now
                    guard done == total || now - last > .milliseconds(100) else { return }
                    last = now
                    let data: JSONValue = ["done": .integer(Int64(done)), "total": .integer(Int64(total))]
                    continuation.yield("event: progress\ndata: \(data.text)\n\n")
                }
                continuation.yield("event: result\ndata: \(ServiceJSON.rebuild(report).text)\n\n")
            } catch {
                let problem = Problem(error)
                let data: JSONValue = ["kind": .string(problem.kind), "detail": .string(problem.detail)]
                continuation.yield("event: error\ndata: \(data.text)\n\n")
            }
            continuation.finish()
        }
        let body = ResponseBody { writer in
            for await frame in frames { try await writer.write(ByteBuffer(string: frame)) }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }

    /// Runs long blocking work (a walk of the whole ledger) on a thread of its own, not on the
    /// concurrency pool the requests share.
    static func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
