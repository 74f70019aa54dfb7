@_spi(Stores) import EventLog
import LMDB

/// The named databases of `ledger/` (see `Schemas/ledger-layout.md`).
struct LedgerDatabases: Sendable {
    static let format = "reel-ledger/1"

    let events: Database<UInt64, [UInt8]>
    let streams: Database<String, UInt64>
    let streamIndex: Database<[UInt8], UInt64>
    let eventIDs: Database<[UInt8], UInt64>
    let meta: Database<String, [UInt8]>
    /// Streams closed for good: stream id → `ClosedStream` (key destruction pending or done).
    let closedStreams: Database<String, [UInt8]>
    /// The Merkle tree's stored hashes (`TreeLayout`): stored index → 32 bytes. `nil` in a ledger
    /// opened read-only that no Reel with the tree has written yet.
    let tree: Database<UInt64, [UInt8]>?

    init(environment: Environment) throws {
        events = try environment.database(named: "events")
        streams = try environment.database(named: "streams")
        streamIndex = try environment.database(named: "stream-index")
        eventIDs = try environment.database(named: "event-ids")
        meta = try environment.database(named: "meta")
        closedStreams = try environment.database(named: "closed-streams")
        // Read-only, a ledger no Reel with the tree has written has none; writable, it is made.
        tree = environment.configuration.readOnly ? try? environment.database(named: "tree") : try environment.database(named: "tree")
    }

    /// The tree's edge (`meta/tree`): the tree of no leaves when the ledger has none yet.
    func treeFrontier(_ txn: Transaction) throws -> TreeFrontier {
        guard let bytes = try txn.get(meta, "tree") else { return TreeFrontier() }
        guard let frontier = TreeFrontier(record: bytes) else {
            throw EventLogError.corruptEnvelope(position: 0, reason: "meta/tree has \(bytes.count) bytes, not a tree's edge")
        }
        return frontier
    }

    /// The stored hashes at `indexes` (`TreeLayout`), in their order.
    func treeHashes(at indexes: [UInt64], _ txn: Transaction) throws -> [TreeHash] {
        // A run of consecutive indexes (a verify's, a tile's) is one walk of a cursor.
        if let first = indexes.first, let tree, indexes.count > 8, indexes.last! >= first, indexes.last! - first == UInt64(indexes.count - 1),
            zip(indexes, indexes.dropFirst()).allSatisfy({ $1 == $0 + 1 })
        {
            var hashes: [TreeHash] = []
            hashes.reserveCapacity(indexes.count)
            try txn.withCursor(tree) { cursor in
                var entry = try cursor.seek(atLeast: first)
                for index in indexes {
                    guard let found = entry, found.key.count == 8,
                        found.key.loadUnaligned(as: UInt64.self).bigEndian == index, let hash = TreeHash(raw: found.value)
                    else { throw TreeError.mismatch(storedIndex: index, reason: "no stored hash there") }
                    hashes.append(hash)
                    entry = try cursor.next()
                }
            }
            return hashes
        }
        return try indexes.map { index in
            let hash = try tree.flatMap { tree in try txn.withValue(tree, index) { raw in raw.flatMap { TreeHash(raw: $0) } } }
            guard let hash else { throw TreeError.mismatch(storedIndex: index, reason: "no stored hash there") }
            return hash
        }
    }

    /// `stream id ‖ 0x00 ‖ version`: the stream's entries sort together and by version.
    static func streamIndexKey(_ stream: StreamID, _ version: UInt64) -> [UInt8] {
        var key = [UInt8]()
        key.reserveCapacity(stream.rawValue.utf8.count + 9)
        key.append(contentsOf: stream.rawValue.utf8)
        key.append(0)
        withUnsafeBytes(of: version.bigEndian) { key.append(contentsOf: $0) }
        return key
    }

    func head(_ txn: Transaction) throws -> LogHead? {
        guard let bytes = try txn.get(meta, "head") else { return nil }
        guard let head = LogHead(bytes: bytes) else {
            throw EventLogError.corruptEnvelope(position: 0, reason: "meta/head has \(bytes.count) bytes, not 48")
        }
        return head
    }

    func closed(_ stream: StreamID, _ txn: Transaction) throws -> ClosedStream? {
        try txn.get(closedStreams, stream.rawValue).flatMap { ClosedStream(stream: stream, bytes: $0) }
    }

    func version(of stream: StreamID, _ txn: Transaction) throws -> UInt64 {
        try txn.get(streams, stream.rawValue) ?? 0
    }
}
