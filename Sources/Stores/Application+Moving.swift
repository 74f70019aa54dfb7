import EventLog
import Failures
import Foundation
import Ledger
import PostgresStore
@_spi(Stores) public import Reel

/// Moving accounts between the shards of a shard map (`reel store move`), after shards were added
/// at the map's end (`Schemas/postgres-shards.md`, Resharding).
extension Application {
    /// Moves `handle`'s account to its home shard under the configured map (`ShardMap.home(of:)`)
    /// from the shard it is on, with its history, verified on both sides (`AccountMover`);
    /// finishes a move an earlier run began. An account on its home already is left as it is.
    public func moveAccount(_ handle: AccountHandle, step: (AccountMoveStep) -> Void = { _ in }) throws -> AccountMoveReport {
        let stores = try self.stores
        let map = try stores.shardMap()
        let home = map.home(of: handle.value)
        var holders: [(index: Int, stream: StreamID)] = []
        for index in map.shards.indices {
            if let stream = try stores.shardLedger(index, of: map).openStream(handle) { holders.append((index, stream)) }
        }
        // A move cut short after its first step is finished first: to the shard it laid the account
        // on, if it got that far (whatever the account did there since), else to the home.
        if let unfinished = try holders.first(where: { try isMovingAway($0.stream, on: $0.index, of: map) }) {
            let target = try shard(holding: unfinished.stream, besides: unfinished.index, of: map) ?? home
            let report = try AccountMover(from: try side(unfinished.index, of: map), to: try side(target, of: map)).move(handle, step: step)
            // Laid on a shard that is no longer its home (the map grew again): it moves on from there.
            return target == home ? report : try moveAccount(handle, step: step)
        }
        let target = try stores.shardLedger(home, of: map)
        let atHome = holders.first { $0.index == home }?.stream
        let others = holders.filter { $0.index != home }
        guard let source = others.first else {
            guard let atHome else { throw ReelError.noAccount(handle.value) }
            return AccountMoveReport(
                handle: handle, stream: atHome, from: nil, to: map.shards[home].name, events: try target.log.version(of: atHome), digest: nil,
                movedOutPosition: nil, movedInPosition: nil, resumed: false)
        }
        guard others.count == 1 else {
            throw Failure(
                .tampered,
                "the account '\(handle)' is held on shards \(others.map { map.shards[$0.index].name }.joined(separator: " and ")): 'reel accounts --store \(map.path)' lists them")
        }
        if let atHome, atHome != source.stream {
            throw Failure(
                .usage,
                "shard \(map.shards[home].name) has another account for '\(handle)' (\(atHome)) than shard \(map.shards[source.index].name) (\(source.stream)): delete one of them first")
        }
        let mover = AccountMover(from: try side(source.index, of: map), to: try side(home, of: map))
        return try mover.move(handle, step: step)
    }

    /// Whether `stream` on shard `index` ends with `account-moved-out`: its move began.
    private func isMovingAway(_ stream: StreamID, on index: Int, of map: ShardMap) throws -> Bool {
        let log = try stores.shardLedger(index, of: map).log
        let version = try log.version(of: stream)
        return try version > 0 && log.read(stream: stream, from: version, maxCount: 1).first?.type == DomainEvent.accountMovedOutType
    }

    /// The shard other than `index` that holds `stream`, if any (where a move laid it).
    private func shard(holding stream: StreamID, besides index: Int, of map: ShardMap) throws -> Int? {
        for other in map.shards.indices where other != index {
            if try stores.shardLedger(other, of: map).log.version(of: stream) > 0 { return other }
        }
        return nil
    }

    /// Moves every account not on its home shard under the configured map to its home, shard by
    /// shard in the map's order, then records in every shard that its accounts are settled: from
    /// then on a handle is looked for on its home alone. `step` is told of each account as it
    /// moves. A failure stops the run: the accounts moved stay moved; run it again. Each shard
    /// purges once, after its accounts moved away (`purgeEach`: after each account, for the
    /// benchmark's baseline).
    public func settleShards(
        purgeEach: Bool = false, moving: (AccountHandle, _ from: String, _ to: String) -> Void = { _, _, _ in },
        step: (AccountMoveStep) -> Void = { _ in }
    ) throws -> ShardSettleReport {
        let stores = try self.stores
        let map = try stores.shardMap()
        func moveAll() throws -> [AccountMoveReport] {
            var moves: [AccountMoveReport] = []
            for index in map.shards.indices {
                let ledger = try stores.shardLedger(index, of: map)
                for account in try ledger.accounts() where account.status != .deleted {
                    guard let handle = account.handle, map.home(of: handle.value) != index else { continue }
                    moving(handle, map.shards[index].name, map.shards[map.home(of: handle.value)].name)
                    moves.append(try moveAccount(handle, step: step))
                }
            }
            return moves
        }
        // Each shard purges once, after all its accounts moved away, not once per account.
        let logs = try map.shards.indices.map { try postgresLog($0, of: map) }
        var purgeProblems: [String: String] = [:]
        func deferring(_ index: Int) throws -> [AccountMoveReport] {
            guard index < logs.count, !purgeEach else { return try moveAll() }
            let (moves, purged) = try logs[index].deferPurges { try deferring(index + 1) }
            if !purged { purgeProblems[map.shards[index].name] = logs[index].purgeProblem ?? "the purge did not run" }
            return moves
        }
        var moves = try deferring(0)
        for index in moves.indices where !purgeEach {
            guard let from = moves[index].from else { continue }
            moves[index].keyPurged = purgeProblems[from] == nil
            moves[index].purgeProblem = purgeProblems[from]
        }
        var settled: [String] = []
        for (index, shard) in map.shards.enumerated() {
            let ledger = try stores.shardLedger(index, of: map)
            let name = shard.location.description
            guard let record = try ShardMembership.recorded(in: ledger.log, store: name), !record.settled else { continue }
            var now = record
            now.settled = true
            try now.replace(record, in: ledger.log, name: shard.name, store: name)
            settled.append(shard.name)
        }
        stores.forgetShardRecords()
        return ShardSettleReport(moves: moves, settled: settled)
    }

    private func side(_ index: Int, of map: ShardMap) throws -> AccountMover.Side {
        AccountMover.Side(name: map.shards[index].name, service: try stores.shardLedger(index, of: map), log: try postgresLog(index, of: map))
    }

    /// The store of shard `index` of `map`.
    private func postgresLog(_ index: Int, of map: ShardMap) throws -> PostgresEventStore {
        guard let log = try stores.shardLedger(index, of: map).log as? PostgresEventStore else {
            throw Failure(.usage, "shard \(map.shards[index].name) is not a PostgreSQL store")
        }
        return log
    }
}
