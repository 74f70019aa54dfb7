import Failures
import Foundation
import Ledger
import PostgresStore

extension Application {
    /// Whether the configured store is a shard map (a `.json` file) rather than one store.
    public var storeIsShardMap: Bool { configuration.storeURL.map(ShardMap.isShardMap) ?? false }

    /// The configured shard map, read.
    func shardMap() throws -> ShardMap {
        guard let path = configuration.storeURL, ShardMap.isShardMap(path) else {
            throw Failure(.usage, "no shard map named: give --store FILE.json (Schemas/postgres-shards.md)")
        }
        return try ShardMap.load(from: path, environment: configuration.environment)
    }

    /// Verifies every shard of the configured map, each in a snapshot of its own (rules of
    /// `Schemas/ledger-layout.md`), and that every stream is on the shard the map places it on;
    /// then the checkpoint of all the heads, compared with `expectedCheckpoint` when given.
    public func verifyShards(expectedCheckpoint: String? = nil, progress: ((String, UInt64, UInt64) -> Void)? = nil) throws -> ShardVerificationReport {
        let map = try shardMap()
        var shards: [ShardVerificationReport.Shard] = []
        for (index, shard) in map.shards.enumerated() {
            let store = try PostgresEventStore.open(shard.location, directory: configuration.dataDirectory, connections: 2)
            let report = try store.verify(expectedHead: nil) { done, total in progress?(shard.name, done, total) }
            let misplaced = try Self.misplacedStreams(in: store, shard: index, of: map)
            shards.append(.init(name: shard.name, store: shard.location.description, report: report, misplaced: misplaced))
        }
        let checkpoint = shards.allSatisfy(\.isIntact)
            ? ShardMap.checkpoint(shards.map { ($0.name, $0.report.head?.position ?? 0, $0.report.head?.hash.hex) }) : nil
        let expected = expectedCheckpoint.map { $0.lowercased() }
        return ShardVerificationReport(
            shards: shards, checkpoint: checkpoint, expectedCheckpoint: expected.flatMap { checkpoint != nil && $0 != checkpoint ? $0 : nil })
    }

    /// Rebuilds the projections of every shard of the configured map (with `checkOnly`, compares
    /// them only), one shard after another, each as `rebuildProjections` does on one store. A
    /// shard that fails stops the run there: the ones before it are rebuilt, and a rebuild that
    /// fails leaves its shard's live projections as they were.
    public func rebuildShards(checkOnly: Bool, progress: ((String, UInt64, UInt64) -> Void)? = nil) throws -> [ShardRebuildReport] {
        let map = try shardMap()
        var reports: [ShardRebuildReport] = []
        for shard in map.shards {
            let service = try AccountService(log: try PostgresEventStore.open(shard.location, directory: configuration.dataDirectory, connections: 2))
            let report = try service.rebuildProjections(checkOnly: checkOnly) { done, total in progress?(shard.name, done, total) }
            reports.append(ShardRebuildReport(name: shard.name, store: shard.location.description, report: report))
        }
        return reports
    }

    /// Migrates every shard of the configured map (each in a transaction of its own, in the map's
    /// order; a shard that fails stops the run there, the ones before it migrated), then records
    /// in each shard that has no record yet its place in the map (`ShardMembership`), unless a
    /// shard's record disagrees with the map (a usage failure; nothing recorded).
    public func migrateShards() async throws -> [(shard: String, report: StoreSchemaReport, recorded: Bool)] {
        let map = try shardMap()
        var reports: [(String, StoreSchemaReport)] = []
        var stores: [PostgresEventStore] = []
        for shard in map.shards {
            let report = try await PostgresMigrator.migrate(shard.location)
            stores.append(try PostgresEventStore.open(shard.location, directory: configuration.dataDirectory, connections: 2))
            reports.append(
                (shard.name,
                 StoreSchemaReport(
                    store: report.store, from: report.from, to: report.to, latest: PostgresMigration.latest,
                    applied: report.applied.map { StoreSchemaReport.Step(version: $0.version, name: $0.name) })))
        }
        // The map the shards are made with, recorded in each — unless a shard's record says the
        // map has changed since, or a shard with none holds streams the map places elsewhere (it
        // was filled under another map, or around the routing): then none is recorded, and the
        // map is refused.
        let memberships = map.shards.indices.map { ShardMembership(index: $0, shards: map.shards.count) }
        var unrecorded: [Int] = []
        for (index, store) in stores.enumerated() {
            let name = map.shards[index].location.description
            guard try !memberships[index].confirmIfRecorded(in: store, store: name, map: map.path) else { continue }
            unrecorded.append(index)
            let misplaced = try Self.misplacedStreams(in: store, shard: index, of: map)
            if let first = misplaced.first {
                throw Failure(
                    .usage,
                    "the store \(name) holds \(misplaced.count) stream(s) the map \(map.path) places on other shards (first \(first)): it was not filled under this map, so the map is not recorded in any shard ('reel audit verify' lists them)")
            }
        }
        for index in unrecorded {
            let name = map.shards[index].location.description
            // Another migration may have recorded a map meanwhile: the first record stands.
            try memberships[index].record(in: stores[index], name: map.shards[index].name)
            try memberships[index].confirm(in: stores[index], store: name, map: map.path)
        }
        return reports.enumerated().map { index, entry in (entry.0, entry.1, unrecorded.contains(index)) }
    }

    /// The shard of the configured map that `stream` is placed on: its name and store URL (without
    /// the password).
    public func shard(of stream: String) throws -> (name: String, store: String) {
        let map = try shardMap()
        let shard = map.shards[map.shard(of: stream)]
        return (shard.name, shard.location.description)
    }

    /// The streams `store`, shard `index` of `map`, holds that the map places on another shard.
    private static func misplacedStreams(in store: PostgresEventStore, shard index: Int, of map: ShardMap) throws -> [String] {
        try store.streams().map(\.stream.rawValue).filter { map.shard(of: $0) != index }
    }

    /// The home shard of `handle` in the configured map: where its account is looked for, and a
    /// new one placed (its name and store URL without the password).
    public func homeShard(of handle: AccountHandle) throws -> (name: String, store: String) {
        let map = try shardMap()
        let shard = map.shards[map.home(of: handle.value)]
        return (shard.name, shard.location.description)
    }
}
