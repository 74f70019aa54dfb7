import EventLog
import Failures
import NIOCore
import PostgresNIO

/// A projection table in a PostgreSQL store: the rows of `reel_projections` under one
/// `table_name`, read and written on the connection of the snapshot or write transaction that
/// lends it, so its changes commit with that transaction's events (`Schemas/postgres-layout.md`).
/// A write transaction's tables share its `ProjectionOverlay`: rows read once, writes sent
/// together.
struct PostgresProjectionTable: ProjectionTable {
    let name: String
    let link: PostgresLink
    /// The write transaction's rows; `nil` in a read snapshot, which takes no writes.
    let overlay: ProjectionOverlay?

    /// Rows read at a time by `forEach`, which may stop early.
    static let page = 512

    func withValue<R>(_ key: [UInt8], _ body: (RawSpan?) throws -> R) throws -> R {
        if let kept = overlay?.value(name, key) {
            guard let value = kept else { return try body(nil) }
            return try value.withUnsafeBytes { try body($0.bytes) }
        }
        let rows = try link.run("SELECT value FROM reel_projections WHERE table_name = \(name) AND key = \(ByteBuffer(bytes: key))")
        guard let row = rows.first else {
            overlay?.keep(name, key, nil)
            return try body(nil)
        }
        let value = try row.decode(ByteBuffer.self)
        if let overlay {
            let bytes = Array(buffer: value)
            overlay.keep(name, key, bytes)
            return try bytes.withUnsafeBytes { try body($0.bytes) }
        }
        return try value.withUnsafeReadableBytes { try body($0.bytes) }
    }

    func forEach(from key: [UInt8], _ body: (RawSpan, RawSpan) throws -> Bool) throws {
        try overlay?.flush(name)
        var after: ByteBuffer?
        while true {
            let rows: [PostgresRow]
            if let after {
                rows = try link.run(
                    "SELECT key, value FROM reel_projections WHERE table_name = \(name) AND key > \(after) ORDER BY key LIMIT \(Self.page)")
            } else {
                rows = try link.run(
                    "SELECT key, value FROM reel_projections WHERE table_name = \(name) AND key >= \(ByteBuffer(bytes: key)) ORDER BY key LIMIT \(Self.page)"
                )
            }
            for row in rows {
                let (key, value) = try row.decode((ByteBuffer, ByteBuffer).self)
                let more = try key.withUnsafeReadableBytes { k in try value.withUnsafeReadableBytes { v in try body(k.bytes, v.bytes) } }
                guard more else { return }
                after = key
            }
            if rows.count < Self.page { return }
        }
    }

    func put(_ key: [UInt8], _ value: [UInt8]) throws {
        try writable().set(name, key, value)
    }

    func prefetch(_ keys: [[UInt8]]) throws {
        try overlay?.prefetch(name, keys)
    }

    /// Rows written by one statement (`upsert`), and the most writes a transaction keeps unsent
    /// per table (`ProjectionOverlay`).
    static let batch = 1_000

    func put(contentsOf entries: [(key: [UInt8], value: [UInt8])]) throws {
        let overlay = try writable()
        for entry in entries { try overlay.set(name, entry.key, entry.value) }
    }

    /// Writes `entries` (distinct keys), a statement per `batch` of them, sent without waiting
    /// (`PostgresLink.send`): in a write transaction, whose next statement waited for fails
    /// should one of them.
    static func upsert(_ entries: [(key: [UInt8], value: [UInt8])], table name: String, link: PostgresLink) throws {
        var start = entries.startIndex
        while start < entries.endIndex {
            let end = min(entries.endIndex, start + Self.batch)
            let keys = entries[start..<end].map { ByteBuffer(bytes: $0.key) }
            let values = entries[start..<end].map { ByteBuffer(bytes: $0.value) }
            try link.send(
                """
                INSERT INTO reel_projections (table_name, key, value) SELECT \(name), k, v FROM unnest(\(keys)::bytea[], \(values)::bytea[]) AS t(k, v)
                ON CONFLICT (table_name, key) DO UPDATE SET value = excluded.value
                """)
            start = end
        }
    }

    func removeAll(prefix: [UInt8]) throws {
        let overlay = try writable()
        try overlay.flush(name)
        overlay.forget(name, prefix: prefix)
        // The keys from `prefix` up to (not including) the first key after all that start with it.
        var successor = prefix
        while let last = successor.last, last == 0xFF { successor.removeLast() }
        if let last = successor.last {
            successor[successor.count - 1] = last + 1
            try link.run(
                "DELETE FROM reel_projections WHERE table_name = \(name) AND key >= \(ByteBuffer(bytes: prefix)) AND key < \(ByteBuffer(bytes: successor))")
        } else {
            try link.run("DELETE FROM reel_projections WHERE table_name = \(name) AND key >= \(ByteBuffer(bytes: prefix))")
        }
    }

    func delete(_ key: [UInt8]) throws {
        try writable().set(name, key, nil)
    }

    func removeAll() throws {
        let overlay = try writable()
        overlay.discardUnsent(name)
        overlay.forget(name)
        try link.run("DELETE FROM reel_projections WHERE table_name = \(name)")
    }

    func storedBytes() throws -> Int {
        try overlay?.flush(name)
        let rows = try link.run(
            "SELECT coalesce(sum(pg_column_size(key) + pg_column_size(value) + 32), 0)::bigint FROM reel_projections WHERE table_name = \(name)")
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    /// The write transaction's overlay; a failure in a read snapshot.
    private func writable() throws -> ProjectionOverlay {
        guard let overlay else { throw Failure(.storage, "projection table \(name) was written in a read snapshot, which takes no writes") }
        return overlay
    }
}
