import Foundation
import Hummingbird
import Reel
import ReportJSON
import Stores

/// The operator's routes (`/v1/admin/...`, the operator token): every account, the tokens, the
/// audit of the whole ledger, and rebuilding the projections with progress as Server-Sent Events
/// (with a shard map: of every shard).
struct OperatorEndpoints {
    let application: Reel.Application

    func add(to group: RouterGroup<ServiceRequestContext>) {
        group.get("accounts", use: accounts)
        group.get("tokens", use: tokens)
        group.post("audit/verify", use: verify)
        group.post("projections/rebuild", use: rebuild)
    }

    @Sendable func accounts(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        JSONResponse(ReportJSON.accounts(try application.accounts()))
    }

    @Sendable func tokens(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let handle = try RequestInput.query(request, "user").map { try AccountHandle($0) }
        return JSONResponse(ReportJSON.tokens(try application.tokens(of: handle)))
    }

    /// Walks the whole ledger (every shard of a shard map); 200 with `intact: false` and the
    /// problem when it does not verify.
    @Sendable func verify(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        let application = self.application
        if application.storeIsShardMap {
            return JSONResponse(ReportJSON.shardVerification(try await Self.offThread { try application.verifyShards() }))
        }
        let report = try await Self.offThread { try application.verifyLedger() }
        return JSONResponse(ReportJSON.verification(report))
    }

    /// Rebuilds (or with `checkOnly` checks) the projections of the ledger, or of every shard of
    /// a shard map (`progress` then names the shard), as the answer's JSON.
    static func rebuilt(_ application: Reel.Application, checkOnly: Bool, progress: ((String?, UInt64, UInt64) -> Void)? = nil) throws -> JSONValue {
        if application.storeIsShardMap {
            let reports = try application.rebuildShards(checkOnly: checkOnly) { shard, done, total in progress?(shard, done, total) }
            return ReportJSON.shardRebuild(reports, check: checkOnly)
        }
        return ReportJSON.rebuild(try application.rebuildProjections(checkOnly: checkOnly) { done, total in progress?(nil, done, total) }, check: checkOnly)
    }

    /// Rebuilds the projections (`?check=true`: compares only). With `Accept: text/event-stream`
    /// the answer is Server-Sent Events: `progress` events (`{"done":…,"total":…}`) and a last
    /// `result` (or `error`) event; otherwise one JSON document when it is done.
    @Sendable func rebuild(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let check = try RequestInput.flag(request, "check") ?? false
        let application = self.application
        guard request.headers[.accept]?.contains("text/event-stream") == true else {
            let report = try await Self.offThread { try Self.rebuilt(application, checkOnly: check) }
            return try JSONResponse(report).response(from: request, context: context)
        }
        let (frames, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        Thread.detachNewThread {
            var last = ContinuousClock.now
            do {
                let report = try Self.rebuilt(application, checkOnly: check) { shard, done, total in
                    let now = ContinuousClock.now
                    guard done == total || now - last > .milliseconds(100) else { return }
                    last = now
                    var data: JSONValue = ["done": .integer(Int64(done)), "total": .integer(Int64(total))]
                    if let shard, case .object(var fields) = data {
                        fields["shard"] = .string(shard)
                        data = .object(fields)
                    }
                    continuation.yield("event: progress\ndata: \(data.text)\n\n")
                }
                continuation.yield("event: result\ndata: \(report.text)\n\n")
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
