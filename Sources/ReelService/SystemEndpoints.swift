import Hummingbird
import Reel
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
        // On PostgreSQL: each server's role and lag, and whether a synchronous standby is attached.
        var servers: [JSONValue] = []
        for (shard, statuses) in shards {
            for server in statuses { servers.append(Self.describe(server, shard: shard)) }
        }
        let attached = shards.allSatisfy { $0.servers.contains { $0.role == "primary" && $0.standbys.contains(where: \.synchronous) } }
        return JSONResponse(.object(["status": "ready", "store": .object(["synchronousStandbyAttached": .bool(attached), "servers": .array(servers)])]))
    }

    /// One server as `/ready` names it (`Ready.store.servers` in the OpenAPI document).
    static func describe(_ server: StoreServerStatus, shard: String?) -> JSONValue {
        func optional<T>(_ value: T?, _ make: (T) -> JSONValue) -> JSONValue { value.map(make) ?? .null }
        return .object([
            "shard": optional(shard, JSONValue.string), "server": .string(server.server), "role": .string(server.role),
            "problem": optional(server.problem, JSONValue.string), "lagBytes": optional(server.lagBytes, JSONValue.integer),
            "lagSeconds": optional(server.lagSeconds, JSONValue.double),
            "standbys": .array(
                server.standbys.map {
                    .object([
                        "name": .string($0.name), "state": .string($0.state), "synchronous": .bool($0.synchronous),
                        "lagBytes": .integer($0.lagBytes), "lagSeconds": .double($0.lagSeconds),
                    ])
                }),
        ])
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
