@_spi(Stores) import EventLog
import LMDB

/// A projection table of the LMDB store: a named database of `ledger/`, seen through one of its
/// transactions, so projections commit with the events.
struct LMDBProjectionTable: ProjectionTable {
    let database: Database<[UInt8], [UInt8]>
    let transaction: Transaction

    func withValue<R>(_ key: [UInt8], _ body: (RawSpan?) throws -> R) throws -> R {
        try transaction.withValue(database, key) { value in
            guard let value else { return try body(nil) }
            return try body(value.bytes)
        }
    }

    func forEach(from key: [UInt8], _ body: (_ key: RawSpan, _ value: RawSpan) throws -> Bool) throws {
        try transaction.withCursor(database) { cursor in
            var entry = try key.isEmpty ? cursor.first() : cursor.seek(atLeast: key)
            while let e = entry, try body(e.key.bytes, e.value.bytes) {
                entry = try cursor.next()
            }
        }
    }

    func put(_ key: [UInt8], _ value: [UInt8]) throws {
        try transaction.put(database, key, value)
    }

    func delete(_ key: [UInt8]) throws {
        try transaction.delete(database, key)
    }

    func removeAll() throws {
        try transaction.clear(database)
    }

    func storedBytes() throws -> Int {
        let s = try transaction.statistics(database)
        return (s.branchPages + s.leafPages + s.overflowPages) * s.pageSize
    }
}
