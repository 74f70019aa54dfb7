/// A keyspace of projections kept with the log: byte keys in byte order, byte values, read and
/// written inside the store's own transaction (`EventStoreSnapshot.table`), so projections change
/// atomically with the events they are made of, on any backend.
///
/// A table lent by a snapshot or a transaction is valid only while that lasts. Bytes are lent to a
/// closure as a `RawSpan`, which cannot outlive the call: copy what you keep (`Array(span)`).
public protocol ProjectionTable {
    /// Calls `body` with the value stored under `key` (`nil` when there is none).
    func withValue<R>(_ key: [UInt8], _ body: (RawSpan?) throws -> R) throws -> R

    /// Calls `body` with each entry whose key is `key` or after it, in key order, until `body`
    /// returns `false` or the table ends.
    func forEach(from key: [UInt8], _ body: (_ key: RawSpan, _ value: RawSpan) throws -> Bool) throws

    /// Stores `value` under `key`, replacing what was there. Throws in a read snapshot.
    func put(_ key: [UInt8], _ value: [UInt8]) throws

    /// Removes `key`'s entry, if any. Throws in a read snapshot.
    func delete(_ key: [UInt8]) throws

    /// Stores each value under its key, replacing what was there; the keys are distinct. Throws
    /// in a read snapshot. (One statement for many rows where a store has statements.)
    func put(contentsOf entries: [(key: [UInt8], value: [UInt8])]) throws

    /// Removes every entry whose key starts with `prefix`. Throws in a read snapshot.
    func removeAll(prefix: [UInt8]) throws

    /// Removes every entry. Throws in a read snapshot.
    func removeAll() throws

    /// About how many bytes the table takes in the store: what a copy of it needs.
    func storedBytes() throws -> Int

    /// Reads the entries of `keys` ahead, in a write transaction of a store where each read is a
    /// round trip (PostgreSQL: one statement for all of them), so the reads of them that follow in
    /// the transaction cost nothing. Changes nothing a read returns; nothing elsewhere.
    func prefetch(_ keys: [[UInt8]]) throws
}

extension ProjectionTable {
    public func prefetch(_ keys: [[UInt8]]) throws {}

    public func put(contentsOf entries: [(key: [UInt8], value: [UInt8])]) throws {
        for entry in entries { try put(entry.key, entry.value) }
    }

    public func removeAll(prefix: [UInt8]) throws {
        var keys: [[UInt8]] = []
        try forEach(prefix: prefix) { key, _ in keys.append(Array(key)) }
        for key in keys { try delete(key) }
    }

    /// A copy of the value stored under `key`.
    public func get(_ key: [UInt8]) throws -> [UInt8]? {
        try withValue(key) { value in if let value { Array(value) } else { nil } }
    }

    /// Every entry, in key order.
    public func forEach(_ body: (_ key: RawSpan, _ value: RawSpan) throws -> Bool) throws {
        try forEach(from: [], body)
    }

    /// The entries whose keys start with `prefix`, in key order.
    public func forEach(prefix: [UInt8], _ body: (_ key: RawSpan, _ value: RawSpan) throws -> Void) throws {
        try forEach(from: prefix) { key, value in
            guard key.starts(with: prefix) else { return false }
            try body(key, value)
            return true
        }
    }
}
