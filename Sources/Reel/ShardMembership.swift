import EventLog
import Failures
import Foundation

/// What a shard of a sharded ledger was made as: its index in the shard map, the map's number of
/// shards and its name, kept in the shard itself (projection table `shard`, key `membership`).
/// Placement depends on all three, so a map that changes them — a shard added, removed, renamed
/// or moved in the order — would route handles to shards that do not hold their accounts, and a
/// command would open a second account for a handle. Until moving accounts between shards is
/// built (`Schemas/postgres-shards.md`, Resharding), a shard refuses a map that differs from the
/// one it was first used with.
struct ShardMembership: Equatable {
    static let format = "reel-shard/1"
    let index: Int
    let shards: Int
    let name: String

    /// Records `self` in `log` when it holds none yet; else checks that it holds the same.
    func confirm(in log: any EventStore, store: String, map: String) throws {
        if let found = try recorded(in: log) ?? record(in: log) { try check(found, store: store, map: map) }
    }

    /// Records `self` in `log` when it holds none yet (`reel store migrate` over a map: the map
    /// the shards are made with). Returns the record found instead, if any.
    @discardableResult
    func record(in log: any EventStore) throws -> [UInt8]? {
        let table = try log.projectionTable(named: "shard")
        return try log.write(shredding: { _ in }) { w in
            // Another process may have recorded it meanwhile: the first record stands.
            if let found = try w.table(table).get(Self.key) { return found }
            try w.table(table).put(Self.key, encoded)
            return nil
        }
    }

    private static let key = Array("membership".utf8)

    private func recorded(in log: any EventStore) throws -> [UInt8]? {
        let table = try log.projectionTable(named: "shard")
        return try log.read { try $0.table(table).get(Self.key) }
    }

    private var encoded: [UInt8] {
        Array(#"{"format":"\#(Self.format)","index":\#(index),"shards":\#(shards),"name":"\#(name)"}"#.utf8)
    }

    private func check(_ bytes: [UInt8], store: String, map: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], object["format"] as? String == Self.format,
            let index = object["index"] as? Int, let shards = object["shards"] as? Int, let name = object["name"] as? String
        else {
            throw Failure(.tampered, "the store \(store) holds a shard record that cannot be read")
        }
        let recorded = ShardMembership(index: index, shards: shards, name: name)
        guard recorded != self else { return }
        throw Failure(
            .usage,
            "the store \(store) is shard \(recorded.index + 1) of \(recorded.shards) ('\(recorded.name)'), but the map \(map) makes it shard \(self.index + 1) of \(self.shards) ('\(self.name)'): the accounts such a change places elsewhere cannot be moved yet (Schemas/postgres-shards.md), so use the map the shards were made with"
        )
    }
}
