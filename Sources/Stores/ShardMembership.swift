import EventLog
import Failures
import Foundation

/// Where a shard of a sharded ledger stands in the shard map it was made with: its index and the
/// map's number of shards, kept in the shard itself (projection table `shard`, key `membership`,
/// with the shard's name then, for people). Routing depends on both — a handle's home is its
/// hash over the number of shards, an index into the map — so a map with a shard removed or
/// moved in the order would send handles to shards that do not hold their accounts, and a command
/// would open a second account for a handle. `reel store migrate` over a map records it in every
/// shard, refusing a map that disagrees with a shard's record, and commands on accounts refuse a
/// shard with no record or one that disagrees. (A name changed in the map changes neither.)
///
/// A map grown by shards at its end is the one change allowed (`Schemas/postgres-shards.md`,
/// Resharding): `reel store migrate` then records the new size in every shard with the sizes it
/// had before (`earlier`), and that the accounts are not settled yet (`settled`: some are still on
/// their home under an earlier size, until `reel store move --all` has moved them all).
struct ShardMembership: Equatable {
    static let format = "reel-shard/1"
    let index: Int
    let shards: Int
    /// The map's earlier numbers of shards, oldest first (none for a map never grown).
    var earlier: [Int] = []
    /// Whether every account is on its handle's home under `shards` (false from a growth until
    /// `reel store move --all` finished).
    var settled = true

    /// Placement: index and number of shards (not the history).
    static func == (a: ShardMembership, b: ShardMembership) -> Bool { a.index == b.index && a.shards == b.shards }

    /// Checks that `log` holds a record that places it as `self` does; returns that record.
    @discardableResult
    func confirm(in log: any EventStore, store: String, map: String) throws -> ShardMembership {
        guard let found = try Self.recorded(in: log, store: store) else {
            throw Failure(
                .unavailable, "the store \(store) has no record of its place in the shard map: run 'reel store migrate --store \(map)' first")
        }
        try check(found, store: store, map: map)
        return found
    }

    /// Checks a record `log` holds, if any, without recording one (`reel store migrate` checks
    /// every shard before it records in any); whether there was one.
    @discardableResult
    func confirmIfRecorded(in log: any EventStore, store: String, map: String) throws -> Bool {
        guard let found = try Self.recorded(in: log, store: store) else { return false }
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
            try w.table(table).put(Self.key, bytes(name: name))
            return nil
        }
    }

    /// Replaces the record `log` holds with `self`, provided it still holds `expected` (a growth
    /// recorded, or the accounts settled): another process that changed it meanwhile wins, and
    /// this says so (a temporary failure: the command run again sees the record as it is now).
    /// Another process that wrote the same record meanwhile (two `store move --all` at once) is
    /// no failure.
    func replace(_ expected: ShardMembership?, in log: any EventStore, name: String, store: String) throws {
        let table = try log.projectionTable(named: "shard")
        try log.write(shredding: { _ in }) { w in
            let found = try w.table(table).get(Self.key).map { try Self.decode($0, store: store) }
            if fullyEqual(found) { return }
            guard found?.fullyEqual(expected) ?? (expected == nil) else {
                throw Failure(.temporary, "the store \(store)'s shard record changed while this ran: run the command again")
            }
            try w.table(table).put(Self.key, bytes(name: name))
        }
    }

    /// Equal in everything: placement, earlier sizes and whether settled.
    func fullyEqual(_ other: ShardMembership?) -> Bool {
        guard let other else { return false }
        return self == other && earlier == other.earlier && settled == other.settled
    }

    private func bytes(name: String) -> [UInt8] {
        var text = #"{"format":"\#(Self.format)","index":\#(index),"shards":\#(shards),"name":"\#(name)""#
        if !earlier.isEmpty { text += #","earlier":[\#(earlier.map(String.init).joined(separator: ","))],"settled":\#(settled)"# }
        return Array((text + "}").utf8)
    }

    private static let key = Array("membership".utf8)

    /// The record `log` holds, if any.
    static func recorded(in log: any EventStore, store: String) throws -> ShardMembership? {
        let table = try log.projectionTable(named: "shard")
        return try log.read { try $0.table(table).get(Self.key) }.map { try decode($0, store: store) }
    }

    static func decode(_ bytes: [UInt8], store: String) throws -> ShardMembership {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], object["format"] as? String == Self.format,
            let index = object["index"] as? Int, let shards = object["shards"] as? Int, index >= 0, index < shards
        else {
            throw Failure(.tampered, "the store \(store) holds a shard record that cannot be read")
        }
        // A record of a map never grown has neither member; one of a grown map has both.
        guard let earlier = object["earlier"] else { return ShardMembership(index: index, shards: shards) }
        guard let sizes = earlier as? [Int], !sizes.isEmpty, sizes.allSatisfy({ $0 >= 1 && $0 < shards }),
            zip(sizes, sizes.dropFirst()).allSatisfy({ $0 < $1 }), let settled = object["settled"] as? Bool
        else {
            throw Failure(.tampered, "the store \(store) holds a shard record that cannot be read")
        }
        return ShardMembership(index: index, shards: shards, earlier: sizes, settled: settled)
    }

    /// Refuses (usage) a record `found` that does not place its store as `self` does.
    func check(_ found: ShardMembership, store: String, map: String) throws {
        guard found != self else { return }
        if found.index == index, found.shards < shards {
            throw Failure(
                .usage,
                "the store \(store) is shard \(index + 1) of \(found.shards), but the map \(map) has \(shards) shards: run 'reel store migrate --store \(map)' to record the shards added (Schemas/postgres-shards.md, Resharding)"
            )
        }
        throw Failure(
            .usage,
            "the store \(store) is shard \(found.index + 1) of \(found.shards), but the map \(map) makes it shard \(index + 1) of \(shards): shards may only be added at the end of a map (Schemas/postgres-shards.md), so use the map the shards were made with"
        )
    }
}
