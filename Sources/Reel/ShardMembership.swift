import EventLog
import Failures
import Foundation

/// Where a shard of a sharded ledger stands in the shard map it was made with: its index and the
/// map's number of shards, kept in the shard itself (projection table `shard`, key `membership`,
/// with the shard's name then, for people). Routing depends on both — a handle's home is its
/// hash over the number of shards, an index into the map — so a map with a shard added, removed
/// or moved in the order would send handles to shards that do not hold their accounts, and a
/// command would open a second account for a handle. Until moving accounts between shards is
/// built (`Schemas/postgres-shards.md`, Resharding), `reel store migrate` over a map records it
/// in every shard, refusing a map that disagrees with a shard's record, and commands on accounts
/// refuse a shard with no record or one that disagrees. (A name changed in the map changes neither.)
struct ShardMembership: Equatable {
    static let format = "reel-shard/1"
    let index: Int
    let shards: Int

    /// Checks that `log` holds a record that places it as `self` does.
    func confirm(in log: any EventStore, store: String, map: String) throws {
        guard let found = try recorded(in: log) else {
            throw Failure(
                .unavailable, "the store \(store) has no record of its place in the shard map: run 'reel store migrate --store \(map)' first")
        }
        try check(found, store: store, map: map)
    }

    /// Checks a record `log` holds, if any, without recording one (`reel store migrate` checks
    /// every shard before it records in any); whether there was one.
    @discardableResult
    func confirmIfRecorded(in log: any EventStore, store: String, map: String) throws -> Bool {
        guard let found = try recorded(in: log) else { return false }
        try check(found, store: store, map: map)
        return true
    }

    /// Records `self` in `log` (as shard `name`) when it holds none yet (`reel store migrate` over
    /// a map: the map the shards are made with). Returns the record found instead, if any.
    @discardableResult
    func record(in log: any EventStore, name: String) throws -> [UInt8]? {
        let table = try log.projectionTable(named: "shard")
        return try log.write(shredding: { _ in }) { w in
            // Another process may have recorded it meanwhile: the first record stands.
            if let found = try w.table(table).get(Self.key) { return found }
            try w.table(table).put(Self.key, Array(#"{"format":"\#(Self.format)","index":\#(index),"shards":\#(shards),"name":"\#(name)"}"#.utf8))
            return nil
        }
    }

    private static let key = Array("membership".utf8)

    private func recorded(in log: any EventStore) throws -> [UInt8]? {
        let table = try log.projectionTable(named: "shard")
        return try log.read { try $0.table(table).get(Self.key) }
    }

    private func check(_ bytes: [UInt8], store: String, map: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], object["format"] as? String == Self.format,
            let index = object["index"] as? Int, let shards = object["shards"] as? Int
        else {
            throw Failure(.tampered, "the store \(store) holds a shard record that cannot be read")
        }
        guard ShardMembership(index: index, shards: shards) != self else { return }
        throw Failure(
            .usage,
            "the store \(store) is shard \(index + 1) of \(shards), but the map \(map) makes it shard \(self.index + 1) of \(self.shards): the accounts such a change places elsewhere cannot be moved yet (Schemas/postgres-shards.md), so use the map the shards were made with"
        )
    }
}
