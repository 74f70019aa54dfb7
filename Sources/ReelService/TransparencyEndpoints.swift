import Hummingbird
import Reel

/// The ledger as a C2SP tiled transparency log, open to anyone (no token): `/checkpoint`, the
/// latest signed checkpoint (cached a few seconds at most), and `/tile/<L>/<N>[.p/<W>]`, the
/// tree's hashes (immutable: cached for a year). Only hashes: the envelopes (entry bundles) are
/// not published, as they would show every account's activity; a proof carries its envelope.
struct TransparencyEndpoints {
    let application: Reel.Application

    func add(to router: Router<ServiceRequestContext>) {
        router.get("checkpoint", use: checkpoint)
        router.get("tile/**", use: tile)
    }

    @Sendable func checkpoint(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let (note, _) = try application.checkpoint(building: false)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "public, max-age=2"],
            body: .init(byteBuffer: ByteBuffer(string: note)))
    }

    @Sendable func tile(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let path = context.parameters.getCatchAll().joined(separator: "/")
        guard let bytes = try application.tile(path) else {
            throw Problem.notFound("no tile at tile/\(path.prefix(120)): not a tile's path (C2SP tlog-tiles), or the tree does not hold it yet")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/octet-stream", .cacheControl: "public, max-age=31536000, immutable"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
