import Crypto
import Failures
import Foundation

/// Several PostgreSQL stores sharing one ledger's accounts (`Schemas/postgres-shards.md`): a
/// JSON file naming each shard and its store, and the placement of a stream on one of them — a
/// stable hash of the stream id (the first 8 bytes of its SHA-256, big-endian) through Lamping
/// and Veach's jump consistent hash, so adding a shard moves only the streams the new one takes
/// (about 1/n of them), every other stream staying where it was. Each shard keeps its own
/// positions, chain and head.
///
/// ```json
/// { "format": "reel-shards/1",
///   "shards": [ { "name": "eu-1", "url": "postgres://reel@db1/reel" },
///               { "name": "eu-2", "url": "postgres://reel@db2/reel" } ] }
/// ```
public struct ShardMap: Sendable {
    public struct Shard: Sendable {
        public let name: String
        public let location: PostgresLocation
    }

    public static let format = "reel-shards/1"
    public let path: String
    public let shards: [Shard]

    /// Whether `--store`'s value names a shard map (a `.json` file) rather than one store.
    public static func isShardMap(_ text: String) -> Bool {
        !PostgresLocation.isURL(text) && text.hasSuffix(".json")
    }

    /// Reads the map at `path`; a password-less URL takes `PGPASSWORD` from `environment`. Every
    /// mistake is one usage failure naming the file and what is wrong (never a password).
    public static func load(from path: String, environment: [String: String] = [:]) throws -> ShardMap {
        func refuse(_ what: String) -> Failure { Failure(.usage, "the shard map \(path): \(what)") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileManager.default.fileExists(atPath: path) ? refuse("cannot be read") : Failure(.notFound, "no shard map at \(path)")
        }
        guard data.count <= 1 << 20 else { throw refuse("is larger than 1 MiB") }
        guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw refuse("is not a JSON object") }
        guard document["format"] as? String == format else { throw refuse("its \"format\" is not \"\(format)\"") }
        guard Set(document.keys).isSubset(of: ["format", "shards"]) else { throw refuse("it has keys other than \"format\" and \"shards\"") }
        guard let entries = document["shards"] as? [[String: Any]], (1...64).contains(entries.count) else {
            throw refuse("\"shards\" must list 1 to 64 shards, each {\"name\", \"url\"}")
        }
        var shards: [Shard] = []
        for (index, entry) in entries.enumerated() {
            guard Set(entry.keys) == ["name", "url"], let name = entry["name"] as? String, let url = entry["url"] as? String else {
                throw refuse("shard \(index + 1) must be {\"name\": …, \"url\": …}")
            }
            guard (1...64).contains(name.utf8.count), name.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2d || $0 == 0x5f })
            else { throw refuse("shard \(index + 1)'s name must be 1 to 64 of a-z, 0-9, - and _") }
            guard !shards.contains(where: { $0.name == name }) else { throw refuse("the shard name \(name) is given twice") }
            let location: PostgresLocation
            do {
                location = try PostgresLocation(url, environment: environment)
            } catch {
                throw refuse("shard \(name): \((error as? any KindedError)?.summary ?? "not a store URL")")
            }
            guard !shards.contains(where: { $0.location.description == location.description }) else {
                throw refuse("shards \(name) and \(shards.first { $0.location.description == location.description }!.name) are the same store")
            }
            shards.append(Shard(name: name, location: location))
        }
        return ShardMap(path: path, shards: shards)
    }

    /// The index of the shard `stream` is placed on.
    public func shard(of stream: String) -> Int {
        shard(of: stream, among: shards.count)
    }

    /// The index of the shard `stream` is placed on by a map of the first `count` of these
    /// shards (the map before shards were added at its end).
    public func shard(of stream: String, among count: Int) -> Int {
        Self.jump(Self.key(stream), buckets: count)
    }

    /// The index of the home shard of the account handle `handle`: where its open account is
    /// looked for, and where a new account of it is placed (its stream id is drawn until the map
    /// places it there), so routing by handle needs no directory across shards.
    public func home(of handle: String) -> Int {
        home(of: handle, among: shards.count)
    }

    /// The home shard of `handle` in a map of the first `count` of these shards.
    public func home(of handle: String, among count: Int) -> Int {
        Self.jump(Self.key(Array("reel-handle/1".utf8) + [0] + Array(handle.utf8)), buckets: count)
    }

    /// The first 8 bytes of SHA-256(stream id), big-endian.
    static func key(_ stream: String) -> UInt64 {
        key(Array(stream.utf8))
    }

    /// The first 8 bytes of SHA-256(`bytes`), big-endian.
    static func key(_ bytes: [UInt8]) -> UInt64 {
        SHA256.hash(data: bytes).withUnsafeBytes { bytes in
            bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
    }

    /// Jump consistent hash (Lamping, Veach 2014): `key` to one of `buckets`, moving only the keys
    /// the new bucket takes when one is added.
    static func jump(_ key: UInt64, buckets: Int) -> Int {
        var key = key
        var b: Int64 = -1, j: Int64 = 0
        while j < Int64(buckets) {
            b = j
            key = key &* 2_862_933_555_777_941_757 &+ 1
            j = Int64(Double(b + 1) * (Double(Int64(1) << 31) / Double((key >> 33) + 1)))
        }
        return Int(b)
    }

    /// The checkpoint of every shard's head at once: SHA-256 of `reel-shards/1\n` and, for each
    /// shard in the map's order, `name TAB position TAB hash-hex LF` (position 0 and no hash for
    /// an empty shard). One value to record, and to give back to `reel audit verify --expect-head`.
    public static func checkpoint(_ heads: [(name: String, position: UInt64, hash: String?)]) -> String {
        var text = format + "\n"
        for head in heads { text += "\(head.name)\t\(head.position)\t\(head.hash ?? "")\n" }
        return SHA256.hash(data: Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
