import EndToEndSupport
import Foundation
import NIOHTTP1
import ReelTestSupport
import Testing

/// A running `reel serve` follows its shard map (issue 36): the map file it was started with grows
/// by a shard, `reel store migrate` records the growth in the shards and `reel store move --all`
/// moves the accounts whose home changed, each run by another process; the service then serves
/// every moved account from its new home (its token keeps working) and `/ready` says it is ready.
/// A map file the shards' records do not confirm cannot be followed: `/ready` answers 503 saying to
/// restart, the accounts it would affect answer 503, and no valid token is ever told 401.
@Suite struct ServiceShardMapTests {
    static let postgres = Task { try await PostgresServer.started("ServiceShardMapTests") }

    /// A service over a map of the first two of three databases, written at a path of its own (the
    /// file the service reads, changed by the test later), migrated; with the accounts of `handles`
    /// (each a token and a favorite, 550, added through the service), and which of them the map
    /// of all three moves to the third shard.
    struct Grown {
        let service: ServiceProcess
        let maps: ShardMapFiles
        /// The file the service was started with.
        let live: String
        let tokens: [String: String]
        let movers: [String]
        let stayers: [String]

        init(_ prefix: String) async throws {
            maps = try await ShardMapFiles(
                try await ServiceShardMapTests.postgres.value, prefix: prefix + "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36), databases: 3)
            live = temporaryDirectory(prefix) + "/shards.json"
            try Data(contentsOf: URL(fileURLWithPath: try maps.map(2))).write(to: URL(fileURLWithPath: live), options: .atomic)
            let tmdb = try await offThread { try FakeTMDbProcess() }
            var home = Home(server: tmdb)
            home.environment["REEL_STORE"] = live
            let fixed = home
            let migrated = try await fixed.reel(["store", "migrate"])
            #expect(migrated.status == 0, "\(migrated)")
            // Two handles the grown map homes on the third shard ("c"), two it leaves where they are.
            let three = try maps.map(3)
            var movers: [String] = [], stayers: [String] = []
            for n in 0..<80 where movers.count < 2 || stayers.count < 2 {
                let out = try await fixed.reel(["store", "shard", "--handle", "user\(n)", "--store", three])
                if out.stdout.hasPrefix("c ") {
                    if movers.count < 2 { movers.append("user\(n)") }
                } else if stayers.count < 2 {
                    stayers.append("user\(n)")
                }
            }
            #expect(movers.count == 2 && stayers.count == 2)
            (self.movers, self.stayers) = (movers, stayers)
            service = try await ServiceProcess.start(home)
            service.companion = tmdb
            var tokens: [String: String] = [:]
            for handle in movers + stayers { tokens[handle] = try await service.token(for: handle) }
            self.tokens = tokens
            for handle in movers + stayers {
                let added = try await service.request(.POST, "/v1/favorites", token: tokens[handle], json: ["mediaType": "movie", "id": 550])
                #expect(added.status == 201, "\(handle): \(added.status) \(added.text)")
            }
            #expect(try await service.request(.GET, "/ready").status == 200)
        }

        /// The ids of `handle`'s saved titles, as the service answers them (else its status).
        func saved(_ handle: String) async throws -> (status: Int, ids: [Int]) {
            let answer = try await service.request(.GET, "/v1/saved", token: tokens[handle])
            let items = answer.status == 200 ? (try answer.json()["items"] as? [[String: Any]] ?? []) : []
            return (answer.status, items.compactMap { $0["id"] as? Int }.sorted())
        }

        /// Writes the map of the first `count` databases, or `text`, over the service's file.
        func write(_ count: Int) throws {
            try Data(contentsOf: URL(fileURLWithPath: try maps.map(count))).write(to: URL(fileURLWithPath: live), options: .atomic)
        }

        func write(_ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: live), options: .atomic)
        }
    }

    /// The map grown under the running service, migrated and settled by other processes: every
    /// moved account's token keeps working, read and write, and `/ready` is 200.
    @Test func aRunningServiceFollowsAGrownMapAndServesMovedAccountsFromTheirNewHome() async throws {
        let grown = try await Grown("follow")
        let service = grown.service

        // The file grown, not yet recorded in the shards: the service keeps serving by the map the
        // shards record, and is ready (every service is told of a growth before it is recorded).
        try grown.write(3)
        #expect(try await service.request(.GET, "/ready").status == 200)
        for handle in grown.movers + grown.stayers { #expect(try await grown.saved(handle) == (200, [550]), "\(handle)") }

        let migrated = try await service.reel(["store", "migrate"])
        #expect(migrated.status == 0, "\(migrated)")
        let moved = try await service.reel(["store", "move", "--all", "--json"])
        #expect(moved.status == 0, "\(moved)")
        let report = try Harness.json(moved.stdout)
        #expect((report["moves"] as? [[String: Any]])?.compactMap { $0["handle"] as? String }.sorted() == grown.movers.sorted(), "\(moved.stdout)")

        // Each moved account's token reads its list and adds to it, on its new home; first asked by
        // a request (before anything asks for `/ready`).
        for handle in grown.movers + grown.stayers {
            #expect(try await grown.saved(handle) == (200, [550]), "\(handle)")
            let added = try await service.request(.POST, "/v1/favorites", token: grown.tokens[handle], json: ["mediaType": "movie", "id": 603])
            #expect(added.status == 201, "\(handle): \(added.status) \(added.text)")
            #expect(try await grown.saved(handle) == (200, [550, 603]), "\(handle)")
        }
        let ready = try await service.request(.GET, "/ready")
        #expect(ready.status == 200, "\(ready.text)")
        // What the service wrote is where the map places it: on the moved accounts' new shard.
        for handle in grown.movers {
            let history = try await service.reel(["history", "--user", handle, "--json", "--offline"])
            let events = try Harness.json(history.stdout)["events"] as? [[String: Any]] ?? []
            #expect(events.map { $0["type"] as? String ?? "?" }.suffix(2) == ["account-moved-in", "favorite-added"], "\(handle): \(history)")
        }
        let verified = try await service.reel(["audit", "verify"])
        #expect(verified.status == 0, "\(verified)")
    }

    /// The map file changed to one the shards' records do not confirm (shards in another order)
    /// while accounts moved: `/ready` is 503 with a problem saying to restart, the moved accounts'
    /// tokens 503, the others' served, none 401. The file put right, the service follows it.
    @Test func aMapTheRecordsDoNotConfirmIsNotFollowedAndNoValidTokenIs401() async throws {
        let grown = try await Grown("unconfirmed")
        let service = grown.service
        // Grown, recorded and settled through a map file of its own; the service's file then
        // names the shards in another order.
        let three = try grown.maps.map(3)
        #expect(try await service.reel(["store", "migrate", "--store", three]).status == 0)
        let moved = try await service.reel(["store", "move", "--all", "--store", three])
        #expect(moved.status == 0, "\(moved)")
        let (a, b, c) = (grown.maps.urls[0], grown.maps.urls[1], grown.maps.urls[2])
        try grown.write(
            #"{"format": "reel-shards/1", "shards": [{"name": "b", "url": "\#(b)"}, {"name": "a", "url": "\#(a)"}, {"name": "c", "url": "\#(c)"}]}"#)

        for _ in 0..<2 {
            for handle in grown.movers {
                let answer = try await service.request(.GET, "/v1/saved", token: grown.tokens[handle])
                #expect(answer.status == 503, "\(handle): \(answer.status) \(answer.text)")
                #expect(answer.header("Content-Type") == "application/problem+json")
                let added = try await service.request(.POST, "/v1/favorites", token: grown.tokens[handle], json: ["mediaType": "movie", "id": 603])
                #expect(added.status == 503, "\(handle): \(added.status) \(added.text)")
            }
            for handle in grown.stayers { #expect(try await grown.saved(handle) == (200, [550]), "\(handle)") }
            let ready = try await service.request(.GET, "/ready")
            #expect(ready.status == 503 && ready.header("Content-Type") == "application/problem+json", "\(ready.status) \(ready.text)")
            let detail = try ready.json()["detail"] as? String ?? ""
            #expect(detail.contains("restart") && detail.contains(grown.live), "\(detail)")
        }

        // Put right (the map the shards record): followed, every token served.
        try grown.write(3)
        #expect(try await service.request(.GET, "/ready").status == 200)
        for handle in grown.movers + grown.stayers { #expect(try await grown.saved(handle) == (200, [550]), "\(handle)") }
        let added = try await service.request(.POST, "/v1/favorites", token: grown.tokens[grown.movers[0]], json: ["mediaType": "movie", "id": 603])
        #expect(added.status == 201, "\(added.status) \(added.text)")
    }
}
