import Hummingbird
import Reel

/// The ledger as a C2SP tiled transparency log, open to anyone (no token): `/checkpoint`, the
/// latest signed checkpoint (cached a few seconds at most), and `/tile/<L>/<N>[.p/<W>]`, the
/// tree's hashes (immutable: cached for a year). Only hashes: the envelopes (entry bundles) are
/// not published, as they would show every account's activity; a proof carries its envelope.
/// With a shard map each shard is a log of its own, served under `/shards/<name>/`.
struct TransparencyEndpoints {
    let application: Reel.Application

    func add(to router: Router<ServiceRequestContext>) {
        router.get("checkpoint") { _, _ in try Self.open { try checkpoint(shard: nil) } }
        router.get("tile/**") { _, context in try Self.open { try tile(context.parameters.getCatchAll().joined(separator: "/"), shard: nil) } }
        router.get("shards/:shard/checkpoint") { _, context in try Self.open { try checkpoint(shard: try shard(context)) } }
        router.get("shards/:shard/tile/**") { _, context in
            try Self.open { try tile(context.parameters.getCatchAll().joined(separator: "/"), shard: try shard(context)) }
        }
    }

    func checkpoint(shard: String?) throws -> Response {
        try requireLog(shard)
        let (note, _) = try application.checkpoint(shard: shard, building: false)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "public, max-age=2"],
            body: .init(byteBuffer: ByteBuffer(string: note)))
    }

    func tile(_ path: String, shard: String?) throws -> Response {
        try requireLog(shard)
        guard let bytes = try application.tile(path, shard: shard) else {
            throw Problem.notFound("no tile at tile/\(path.prefix(120)): not a tile's path (C2SP tlog-tiles), or the tree does not hold it yet")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/octet-stream", .cacheControl: "public, max-age=31536000, immutable"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The shard a `/shards/<name>/` path names (one the map does not have is 404 from the core).
    func shard(_ context: ServiceRequestContext) throws -> String {
        guard application.storeIsShardMap else { throw Problem.notFound("this service's store is one log: at /checkpoint and /tile/") }
        return context.parameters.get("shard") ?? ""
    }

    /// `body`'s answer; on a route open to anyone, a failure of the core is answered by its
    /// status in general words (its own may name the server's files: a key's, the data
    /// directory's), except for a log with nothing to sign yet.
    static func open(_ body: () throws -> Response) throws -> Response {
        do {
            return try body()
        } catch let problem as Problem {
            throw problem
        } catch let kinded as any KindedError {
            let detail =
                kinded.kind == .notFound
                ? "no log here has events to sign yet"
                : "the log cannot be served now (its operator sees why with `reel audit checkpoint`)"
            throw Problem(Problem.status(of: kinded.kind), kind: kinded.kind.rawValue, detail)
        }
    }

    /// A log at the path asked: the one log, at `/checkpoint`, unless the store is a shard map.
    func requireLog(_ shard: String?) throws {
        guard shard == nil, application.storeIsShardMap else { return }
        throw Problem.notFound(
            "the store is a shard map: each shard is a log of its own, at /shards/<name>/checkpoint and /shards/<name>/tile/ (\(try application.shardNames().joined(separator: ", ")))")
    }
}
