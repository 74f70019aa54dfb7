import EventLog
import Failures
import Foundation
import PostgresStore
@_spi(Stores) public import Reel

/// A long-lived process (`reel serve`, `reel ui`) follows the shard map the shards record
/// (`Schemas/postgres-shards.md`, Resharding). It reads the map once; when the map grows by shards
/// at its end, `reel store migrate` records the growth in every shard and `reel store move` moves
/// accounts to their new homes, by other processes. The routing notices when a shard's record is
/// no longer the one it read — an account is not on the shard it was routed to (gone, or moved
/// away), a shard opened later records another map, or every shard is read (`everyLedger`: the
/// service's `/ready` and operator routes) — and then reads the map file again: the map it held
/// grown at its end, which every shard opened records, is followed (the shards opened keep their
/// index; a new one opens when first routed to). A map file the records do not confirm, or one
/// that cannot be read, is not followed: the routing stays as it was and what needs the new map
/// fails as unavailable, saying to restart — never as an account not found.
extension StoreRouter {
    /// After `handle`'s account was not found as it should be on `ledger`, where the routing sent
    /// it (none there, or moved away): the ledger the routing sends it to now when that is another
    /// one (the shards record a grown map, followed), else `nil` (not a shard map, or the routing
    /// stands). Unavailable when the map moved on in a way this process cannot follow.
    public func rerouted(_ handle: AccountHandle, from ledger: AccountService) throws -> AccountService? {
        guard isShardMap, heldShardRouting() != nil else { return nil }
        try followShardMap(checkingFile: false)
        guard let now = try existingLedger(for: handle), now !== ledger else { return nil }
        return now
    }

    /// For a shard whose record disagrees with `map` as it is opened: the map routed by now if it
    /// is another than `map` (the shards this process opened before record a grown map too, and it
    /// was followed), else `nil`. Unavailable when the map moved on in a way this process cannot
    /// follow. Nothing to follow before a first shard was opened (a command's first open).
    func mapFollowed(from map: ShardMap) throws -> ShardMap? {
        guard heldShardRouting() != nil else { return nil }
        try followShardMap(checkingFile: false)
        guard let now = heldShardRouting()?.map, now.shards.count != map.shards.count else { return nil }
        return now
    }

    /// Reads the map file and the record of every shard opened, and follows the map when they
    /// moved on (`everyLedger`: what spans every shard, the service's `/ready` included); whether
    /// the routing changed. Unavailable when the map cannot be followed.
    func checkShardMap() throws -> Bool {
        guard heldShardRouting() != nil else { return false }
        return try followShardMap(checkingFile: true)
    }

    /// Reads the records of the shards opened (and with `checkingFile`, or when a record changed,
    /// the map file) and follows the map they record: whether the routing changed. Stays with the
    /// map it holds while the records still say it (the file may be that map, renamed, or that map
    /// grown at its end and not recorded yet), or while a growth is being recorded (some shards
    /// recording the map held, the others the file's: no account moves before all do).
    @discardableResult
    func followShardMap(checkingFile: Bool) throws -> Bool {
        shardFollowing.lock()
        defer { shardFollowing.unlock() }
        guard let held = heldShardRouting() else { return false }
        let count = held.map.shards.count
        var read: [Int: ShardMembership] = [:]
        var unchanged: Set<Int> = []
        for (index, ledger) in held.ledgers where index < count {
            guard let record = try ShardMembership.recorded(in: ledger.log, store: held.map.shards[index].location.description) else { continue }
            read[index] = record
            if record.fullyEqual(held.records[index] ?? ShardMembership(index: index, shards: count)) { unchanged.insert(index) }
        }
        let opened = held.ledgers.keys.filter { $0 < count }.count
        if unchanged.count == opened && !checkingFile { return false }

        let file: ShardMap
        do {
            file = try shardMap()
        } catch {
            throw Self.cannotFollow(held.map, (error as? any KindedError)?.summary ?? "the map file cannot be read")
        }
        let grownAtEnd = file.shards.count >= count && zip(held.map.shards, file.shards).allSatisfy { $0.location == $1.location }
        guard grownAtEnd else {
            throw Self.cannotFollow(
                held.map,
                "\(file.path) now names other stores than the shards record, or in another order (shards may only be added at the end of a map)")
        }
        // The shards still record the map routed by: it routes right (the file is that map, or
        // that map grown at its end, which `reel store migrate` has not recorded yet).
        if unchanged.count == opened { return false }
        let confirming = Set(read.filter { $0.value == ShardMembership(index: $0.key, shards: file.shards.count) }.keys)
        if confirming.count == opened {
            route(by: file, records: read)
            return true
        }
        // A growth being recorded: each shard records the map held or the file's.
        if file.shards.count > count, unchanged.union(confirming).count == opened { return false }
        let index = held.ledgers.keys.filter { $0 < count && !confirming.contains($0) && !unchanged.contains($0) }.min() ?? 0
        let store = held.map.shards[index].location.description
        let found = read[index].map { "is recorded as shard \($0.index + 1) of \($0.shards)" } ?? "has no record of its place in the map"
        throw Self.cannotFollow(held.map, "the store \(store) \(found), which \(file.path) (\(file.shards.count) shards) does not confirm")
    }

    /// The failure of a map that cannot be followed: what it is, and to restart.
    private static func cannotFollow(_ held: ShardMap, _ what: String) -> Failure {
        Failure(
            .unavailable,
            "the shard map changed in a way this process cannot follow: \(what); it still routes by the map of \(held.shards.count) shards it read from \(held.path), so accounts that moved since are not served: restart it with the map the shards record (Schemas/postgres-shards.md)"
        )
    }
}
