import EventLog
import Failures
import Foundation
import Ledger
import PostgresStore
@_spi(Stores) public import Reel

extension Application {
    /// Verifies every shard of the configured map, each in a snapshot of its own (rules of
    /// `Schemas/ledger-layout.md`), and that every stream is on the shard the map places it on;
    /// then the checkpoint of all the heads, compared with `expectedCheckpoint` when given.
    public func verifyShards(expectedCheckpoint: String? = nil, progress: ((String, UInt64, UInt64) -> Void)? = nil) throws -> ShardVerificationReport {
        let map = try stores.shardMap()
        // Every shard's record first: a map the shards were not made with (one shrunk or
        // reordered, or grown and not migrated) is refused as every other command refuses it,
        // before anything is verified — verified through it, a shard left out would go unseen.
        // (A record that cannot be read is the map's size alone: `verify` is no place to refuse it.)
        var opened: [(store: PostgresEventStore, record: ShardMembership?)] = []
        for (index, shard) in map.shards.enumerated() {
            let store = try stores.openPostgres(shard.location, connections: 2)
            let record = (try? ShardMembership.recorded(in: store, store: shard.location.description)) ?? nil
            if let record { try ShardMembership(index: index, shards: map.shards.count).check(record, store: shard.location.description, map: map.path) }
            opened.append((store, record))
        }
        var shards: [ShardVerificationReport.Shard] = []
        for (index, shard) in map.shards.enumerated() {
            let (store, record) = opened[index]
            let report = try store.verify(expectedHead: nil) { done, total in progress?(shard.name, done, total) }
            let misplaced = try Self.misplacedStreams(in: store, shard: index, of: map, sizes: Self.placementSizes(record, map: map))
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
        let map = try stores.shardMap()
        // The shards' ledgers this process routes to keep states read from the slots swapped out.
        defer { if !checkOnly { try? stores.forgetKeptStates() } }
        var reports: [ShardRebuildReport] = []
        for shard in map.shards {
            let service = try AccountService(log: try stores.openPostgres(shard.location, connections: 2))
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
        let router = try self.stores
        let map = try router.shardMap()
        var reports: [(String, StoreSchemaReport)] = []
        var stores: [PostgresEventStore] = []
        for shard in map.shards {
            let report = try await PostgresMigrator.migrate(shard.location)
            stores.append(try router.openPostgres(shard.location, connections: 2))
            reports.append(
                (shard.name,
                 StoreSchemaReport(
                    store: report.store, from: report.from, to: report.to, latest: PostgresMigration.latest,
                    applied: report.applied.map { StoreSchemaReport.Step(version: $0.version, name: $0.name) })))
        }
        // The map the shards are made with, recorded in each — unless a shard's record says the
        // map has changed since, or a shard with none holds streams the map places elsewhere (it
        // was filled under another map, or around the routing): then none is recorded, and the
        // map is refused. A map grown by shards at its end is recorded as such (`recordGrowth`).
        let count = map.shards.count
        var found: [ShardMembership?] = []
        for (index, store) in stores.enumerated() {
            found.append(try ShardMembership.recorded(in: store, store: map.shards[index].location.description))
        }
        if let grown = try growth(of: map, found: found, stores: stores) {
            try recordGrowth(of: map, from: grown, found: found, stores: stores)
            return reports.enumerated().map { index, entry in (entry.0, entry.1, found[index]?.shards != count) }
        }
        let memberships = map.shards.indices.map { ShardMembership(index: $0, shards: count) }
        var unrecorded: [Int] = []
        for (index, store) in stores.enumerated() {
            let name = map.shards[index].location.description
            guard try !memberships[index].confirmIfRecorded(in: store, store: name, map: map.path) else { continue }
            unrecorded.append(index)
            try refuseMisplaced(in: store, shard: index, of: map, sizes: [count])
        }
        // Shards added to the map by a growth that another migration recorded in part.
        let history = found.compactMap { $0 }.first
        for index in unrecorded {
            let name = map.shards[index].location.description
            var membership = memberships[index]
            membership.earlier = history?.earlier ?? []
            membership.settled = history?.settled ?? true
            // Another migration may have recorded a map meanwhile: the first record stands.
            try membership.record(in: stores[index], name: map.shards[index].name)
            try membership.confirm(in: stores[index], store: name, map: map.path)
        }
        return reports.enumerated().map { index, entry in (entry.0, entry.1, unrecorded.contains(index)) }
    }

    /// The number of shards `map` had before it grew, when the shards' records say it grew by
    /// shards at its end: every recorded shard is either of the earlier map (its index, that size)
    /// or of this one recording that earlier size (a growth recorded in part), and at least one of
    /// the earlier map's. `nil` when nothing grew.
    private func growth(of map: ShardMap, found: [ShardMembership?], stores: [PostgresEventStore]) throws -> Int? {
        let count = map.shards.count
        let earlier = Set(found.compactMap { $0 }.filter { $0.shards < count }.map(\.shards))
        guard earlier.count == 1, let previous = earlier.first else { return nil }
        for (index, record) in found.enumerated() {
            guard let record else { continue }
            let fits = record.index == index && (record.shards == previous || (record.shards == count && record.earlier.last == previous))
            guard fits else { return nil }
        }
        guard (0..<previous).allSatisfy({ found[$0] != nil }) else { return nil }
        return previous
    }

    /// Records in every shard of `map` that it grew from `previous` shards: its place in the map,
    /// the earlier sizes, and that accounts are not settled (some are on their home under the
    /// earlier size until `reel store move --all` moves them). Shards added must hold no stream
    /// the grown map does not place on them.
    private func recordGrowth(of map: ShardMap, from previous: Int, found: [ShardMembership?], stores: [PostgresEventStore]) throws {
        let count = map.shards.count
        for index in previous..<count where found[index] == nil {
            try refuseMisplaced(in: stores[index], shard: index, of: map, sizes: [count])
        }
        for (index, store) in stores.enumerated() {
            let earlier = (found[index]?.earlier ?? found.compactMap { $0 }.first?.earlier ?? []).filter { $0 < previous } + [previous]
            if let record = found[index], record.shards == count { continue }
            let membership = ShardMembership(index: index, shards: count, earlier: earlier, settled: false)
            try membership.replace(found[index], in: store, name: map.shards[index].name, store: map.shards[index].location.description)
        }
    }

    /// Refuses (usage) when `store`, shard `index` of `map`, holds streams that no map of `sizes`
    /// shards places on it (see `misplacedStreams`).
    private func refuseMisplaced(in store: PostgresEventStore, shard index: Int, of map: ShardMap, sizes: [Int]) throws {
        let misplaced = try Self.misplacedStreams(in: store, shard: index, of: map, sizes: sizes)
        if let first = misplaced.first {
            throw Failure(
                .usage,
                "the store \(map.shards[index].location.description) holds \(misplaced.count) stream(s) the map \(map.path) places on other shards (first \(first)): it was not filled under this map, so the map is not recorded in any shard ('reel audit verify' lists them)")
        }
    }

    /// The shard of the configured map that `stream` is placed on: its name and store URL (without
    /// the password).
    public func shard(of stream: String) throws -> (name: String, store: String) {
        let map = try stores.shardMap()
        let shard = map.shards[map.shard(of: stream)]
        return (shard.name, shard.location.description)
    }

    /// The streams `store`, shard `index` of `map`, holds that no map of the first `sizes` shards
    /// places on it: a stream is made on the shard the map of its day places it on, and stays
    /// there unless moved. A stream an account moved away from (its last event
    /// `account-moved-out`) or arrived by (its first envelope laid by a move, format 2) is in
    /// place: a move follows the handle's home, not the stream id.
    static func misplacedStreams(in store: PostgresEventStore, shard index: Int, of map: ShardMap, sizes: [Int]) throws -> [String] {
        let candidates = try store.streams().filter { summary in !sizes.contains { map.shard(of: summary.stream.rawValue, among: $0) == index } }
        return try candidates.filter { summary in
            if try store.read(stream: summary.stream, from: summary.version, maxCount: 1).first?.type == StreamClosing.movedOutType { return false }
            // Arrived by a move: its events laid by it (format 2), then `account-moved-in`.
            let events = try store.read(stream: summary.stream, from: 1, maxCount: Int(summary.version))
            let laid = events.prefix { $0.envelope.format == 2 }.count
            return !(laid > 0 && laid < events.count && events[laid].type == DomainEvent.accountMovedInType)
        }.map(\.stream.rawValue)
    }

    /// The sizes a shard's streams may have been placed under: the map's, and earlier ones.
    static func placementSizes(_ record: ShardMembership?, map: ShardMap) -> [Int] {
        [map.shards.count] + (record?.earlier ?? [])
    }

    /// The home shard of `handle` in the configured map: where its account is looked for, and a
    /// new one placed (its name and store URL without the password).
    public func homeShard(of handle: AccountHandle) throws -> (name: String, store: String) {
        let map = try stores.shardMap()
        let shard = map.shards[map.home(of: handle.value)]
        return (shard.name, shard.location.description)
    }
}
