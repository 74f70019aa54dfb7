import CLMDB

/// A position in a database, lent to a `withCursor {}` closure.
///
/// Each move returns the entry it lands on, or `nil` past either end. The bytes of an entry point
/// into the memory map: they are valid until the next write in the transaction or its end.
public final class Cursor {
    /// One key and value as stored.
    public struct Entry {
        public let key: UnsafeRawBufferPointer
        public let value: UnsafeRawBufferPointer

        public func decodeKey<K: LMDBDecodable>(as: K.Type = K.self) throws -> K { try K(lmdbBytes: key) }
        public func decodeValue<V: LMDBDecodable>(as: V.Type = V.self) throws -> V { try V(lmdbBytes: value) }
    }

    private var handle: OpaquePointer?
    /// `unowned(unsafe)`: a cursor is used only inside its transaction's `withCursor`, which
    /// invalidates it (`handle` is checked first), and a counted reference cost an atomic retain
    /// and release on every move, contended when lanes step cursors of one transaction at once.
    private unowned(unsafe) let transaction: Transaction
    private let name: String

    init(handle: OpaquePointer, transaction: Transaction, name: String) {
        self.handle = handle
        self.transaction = transaction
        self.name = name
    }

    func invalidate() { handle = nil }

    private func move(_ op: MDB_cursor_op, key: UnsafeRawBufferPointer? = nil) throws -> Entry? {
        guard let handle, transaction.handle != nil else {
            throw LMDBError(code: .badTxn, function: "mdb_cursor_get", message: "cursor used outside its closure")
        }
        var k = MDB_val(mv_size: key?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: key?.baseAddress))
        var v = MDB_val()
        let rc = mdb_cursor_get(handle, &k, &v, op)
        if rc != MDB_SUCCESS {
            // Only on this path: the error's name is made, and the transaction names the file.
            if rc == MDB_NOTFOUND { return nil }
            try failure(rc)
        }
        return Entry(
            key: UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size),
            value: UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size))
    }

    @inline(never)
    private func failure(_ rc: Int32) throws {
        try transaction.check(rc, "mdb_cursor_get(\(name))")
    }

    public func first() throws -> Entry? { try move(MDB_FIRST) }
    public func last() throws -> Entry? { try move(MDB_LAST) }
    public func next() throws -> Entry? { try move(MDB_NEXT) }
    public func previous() throws -> Entry? { try move(MDB_PREV) }
    public func current() throws -> Entry? { try move(MDB_GET_CURRENT) }

    /// Moves to the first entry whose key is greater than or equal to `key`.
    public func seek<K: LMDBEncodable>(atLeast key: K) throws -> Entry? {
        try key.withLMDBBytes { try move(MDB_SET_RANGE, key: $0) }
    }

    /// Moves to the entry whose key is exactly `key`.
    public func seek<K: LMDBEncodable>(exactly key: K) throws -> Entry? {
        try key.withLMDBBytes { try move(MDB_SET_KEY, key: $0) }
    }

    /// Deletes the entry under the cursor.
    public func deleteCurrent() throws {
        guard let handle else {
            throw LMDBError(code: .badTxn, function: "mdb_cursor_del", message: "cursor used outside its closure")
        }
        try transaction.checkWrite(mdb_cursor_del(handle, 0), "mdb_cursor_del(\(name))")
    }
}
