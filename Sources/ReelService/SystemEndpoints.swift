import Hummingbird
import Reel
import ReportJSON
import Stores

/// The routes every deployment has: `/health` (the process answers), `/ready` (it can serve:
/// the ledger opens, and it is not shutting down), `/openapi.json` (the contract), `/metrics`
/// (Prometheus's text format, behind the operator token).
struct SystemEndpoints {
    let application: Reel.Application
    let metrics: ServiceMetrics
    let lifecycle: ServiceLifecycleState

    func add(to router: Router<ServiceRequestContext>) {
        router.get("health", use: health)
        router.get("ready", use: ready)
        router.get("openapi.json", use: openAPI)
    }

    func addMetrics(to group: RouterGroup<ServiceRequestContext>) {
        group.get("metrics", use: metricsText)
    }

    @Sendable func health(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        JSONResponse(["status": "ok"])
    }

    @Sendable func ready(_ request: Request, context: ServiceRequestContext) async throws -> JSONResponse {
        if lifecycle.isDraining {
            throw Problem(.serviceUnavailable, kind: FailureKind.unavailable.rawValue, "the service is shutting down", headers: [.retryAfter: "1"])
        }
        _ = try application.accounts()
        guard let shards = try await application.storeServers() else { return JSONResponse(["status": "ready"]) }
        // On PostgreSQL: each server's role and lag (by shard), and whether a synchronous standby
        // is attached to every shard's primary.
        let servers = shards.flatMap { shard in
            shard.servers.map { server -> JSONValue in
                guard case .object(var members) = ReportJSON.server(server) else { return .null }
                members["shard"] = .init(shard.shard.map(JSONValue.string))
                return .object(members)
            }
        }
        let attached = shards.allSatisfy { ReportJSON.synchronousStandbyAttached($0.servers) }
        return JSONResponse(.object(["status": "ready", "store": .object(["synchronousStandbyAttached": .bool(attached), "servers": .array(servers)])]))
    }

    @Sendable func openAPI(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
    }

    @Sendable func metricsText(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        if let counts = application.catalogCounts() {
            metrics.catalogCache(hits: counts.cacheHits, misses: counts.networkRequests)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: metrics.text())))
    }
}
