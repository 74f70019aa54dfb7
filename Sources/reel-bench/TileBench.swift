import EventLog
import Foundation
import Ledger
import Reel
import Stores

/// Tiles served by `reel serve` (issue 40): `GET /tile/…` of a ledger's full tiles, at random,
/// beside `GET /health` of the same service and a plain Hummingbird route answering a body of a
/// tile's size, under the same wrk run.
struct TileBench {
    let served: WrkRun
    /// `GET /health` of the same `reel serve`: its middleware, no store.
    let health: WrkRun
    let baseline: WrkRun
    let tiles: Int

    /// A ledger of `events` favorites over 1,000 accounts in `directory` (its tree grown as they
    /// are written), served by the `reel` binary `reel`; `connections` wrk connections for
    /// `seconds` on each route.
    static func measure(reel: String, directory: String, events: Int, connections: Int, seconds: Int) async throws -> TileBench {
        let service = try AccountService.open(at: directory)
        let perAccount = max(1, events / 1_000)
        for account in 0..<(events / perAccount) {
            let keys = try (1...perAccount).map { try MediaKey(.movie, Int64(account * perAccount + $0)) }
            _ = try service.execute(.addFavorites(keys), for: try AccountHandle("tiles\(account)"))
        }
        let size = try service.log.read { try $0.treeFrontier().size }
        // Every full tile at level 0, and at level 1 when there is one.
        let paths = (0..<(size / 256)).compactMap { TileAddress(level: 0, index: $0, width: 256)?.path }
            + (0..<(size / 65_536)).compactMap { TileAddress(level: 1, index: $0, width: 256)?.path }
        guard !paths.isEmpty else { throw BenchmarkError("a ledger of \(size) events has no full tile") }
        let script = """
            local paths = {\(paths.map { "\"/\($0)\"" }.joined(separator: ","))}
            request = function() return wrk.format("GET", paths[math.random(#paths)]) end
            """
        let process = try ServeBench.service(reel, directory, extra: ServeBench.unchecked)
        defer { _ = process.stop() }
        let served = try WrkRun.run(process.url, connections: connections, seconds: seconds, script: script)
        guard served.errors == 0 else { throw BenchmarkError("\(served.errors) tile requests were not answered 200") }
        let health = try WrkRun.run(process.url + "/health", connections: connections, seconds: seconds)
        let baseline = try await ServeBench.baseline(
            connections: connections, seconds: seconds, body: [UInt8](repeating: 0x5a, count: 8_192), type: "application/octet-stream")
        return TileBench(served: served, health: health, baseline: baseline, tiles: paths.count)
    }
}
