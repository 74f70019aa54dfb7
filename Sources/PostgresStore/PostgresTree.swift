@_spi(Stores) import EventLog
import Failures
import Foundation
import NIOCore
import PostgresNIO

/// The log's Merkle tree in PostgreSQL: its stored hashes in `reel_tree` (stored index → hash,
/// `TreeLayout`), its edge (`TreeFrontier.record`) in `reel_head.tree`, both written with the head
/// in the write transaction that moves it (`Schemas/postgres-layout.md`).
struct PostgresTree {
    /// The edge the transaction leaves.
    let frontier: TreeFrontier
    /// The stored hashes to insert: their stored indexes and bytes.
    let indexes: [Int64]
    let hashes: [ByteBuffer]

    /// The tree grown from `frontier` up to `size` leaves: the envelopes `written` in this
    /// transaction hash as they are; any before them that the tree lacks (a store written before
    /// the tree) are read from `reel_events`, 10,000 at a time.
    static func grown(from frontier: TreeFrontier, to size: UInt64, written: [Envelope], _ link: PostgresLink) throws -> PostgresTree {
        var frontier = frontier
        var indexes: [Int64] = []
        var hashes: [ByteBuffer] = []
        var next = Int64(frontier.nextStoredIndex)
        func add(_ leaf: TreeHash) {
            for hash in frontier.append(leaf: leaf) {
                indexes.append(next)
                hashes.append(ByteBuffer(bytes: hash.bytes))
                next += 1
            }
        }
        guard frontier.size <= size else {
            throw Failure.tampered("reel_head.tree covers \(frontier.size) events, the log ends at \(size)", link.location)
        }
        let firstWritten = written.first?.position ?? size + 1
        while frontier.size + 1 < firstWritten && frontier.size < size {
            let upTo = min(size, firstWritten - 1, frontier.size + 10_000)
            let rows = try link.run(
                """
                SELECT position, envelope FROM reel_events WHERE position > \(Int64(frontier.size)) AND position <= \(Int64(upTo))
                ORDER BY position
                """)
            for row in rows {
                let (position, envelope) = try row.decode((Int64, ByteBuffer).self)
                guard UInt64(position) == frontier.size + 1 else {
                    throw Failure.tampered("reel_events has no row at position \(frontier.size + 1) for the tree", link.location)
                }
                add(envelope.withUnsafeReadableBytes { TreeHash.leaf($0) })
            }
            guard !rows.isEmpty else { throw Failure.tampered("reel_events has no row at position \(frontier.size + 1) for the tree", link.location) }
        }
        for envelope in written where envelope.position == frontier.size + 1 && frontier.size < size {
            add(TreeHash.leaf(envelope.bytes))
        }
        guard frontier.size >= size else {
            throw Failure.tampered("the tree reaches position \(frontier.size), the head \(size)", link.location)
        }
        return PostgresTree(frontier: frontier, indexes: indexes, hashes: hashes)
    }

    /// Inserts all but the last `chunk` stored hashes, `chunk` at a time, and gives the tree with
    /// those left to insert.
    func insertingAllButLast(_ chunk: Int, _ link: PostgresLink) throws -> PostgresTree {
        var start = 0
        while indexes.count - start > chunk {
            let end = start + chunk
            try link.run(
                """
                INSERT INTO reel_tree (stored_index, hash)
                SELECT * FROM unnest(\(Array(indexes[start..<end]))::bigint[], \(Array(hashes[start..<end]))::bytea[])
                """)
            start = end
        }
        return PostgresTree(frontier: frontier, indexes: Array(indexes[start...]), hashes: Array(hashes[start...]))
    }

    /// The edge `reel_head.tree` holds.
    static func frontier(_ bytes: ByteBuffer, _ link: PostgresLink) throws -> TreeFrontier {
        guard let frontier = TreeFrontier(record: Array(buffer: bytes)) else {
            throw Failure.tampered("reel_head.tree holds \(bytes.readableBytes) bytes that are not a tree's edge", link.location)
        }
        return frontier
    }

    /// The leaf hashes of up to `maxCount` envelopes from `position` on, as stored (one statement).
    static func leafHashes(from position: UInt64, maxCount: Int, _ link: PostgresLink) throws -> [TreeHash] {
        guard maxCount > 0 else { return [] }
        let rows = try link.run(
            "SELECT envelope FROM reel_events WHERE position >= \(Int64(clamping: position)) ORDER BY position LIMIT \(Int64(maxCount))")
        return try rows.map { row in try row.decode(ByteBuffer.self).withUnsafeReadableBytes { TreeHash.leaf($0) } }
    }

    /// The stored hashes at `indexes`, in their order (one statement).
    static func hashes(at indexes: [UInt64], _ link: PostgresLink) throws -> [TreeHash] {
        guard !indexes.isEmpty else { return [] }
        var found: [Int64: TreeHash] = [:]
        for row in try link.run("SELECT stored_index, hash FROM reel_tree WHERE stored_index = ANY(\(indexes.map { Int64($0) }))") {
            let (index, bytes) = try row.decode((Int64, ByteBuffer).self)
            found[index] = TreeHash(bytes: Array(buffer: bytes))
        }
        return try indexes.map { index in
            guard let hash = found[Int64(index)] else { throw TreeError.mismatch(storedIndex: index, reason: "no stored hash there") }
            return hash
        }
    }
}
