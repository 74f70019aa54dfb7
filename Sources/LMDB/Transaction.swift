import CLMDB

/// A transaction lent to a `read {}` or `write {}` closure; it is valid only inside that closure.
///
/// Using it afterwards throws `.badTxn`. Bytes returned by `withValue` and cursors point into the
/// memory map and are valid only until the next write in this transaction or its end: copy them out.
public final class Transaction {
    let environment: Environment
    // A transaction is used on one thread at a time (LMDB's rule), and these two are read on
    // every operation: no dynamic exclusivity check each time.
    @exclusivity(unchecked) private(set) var handle: OpaquePointer?
    public let isReadOnly: Bool
    /// Set when an operation hit `MDB_MAP_FULL`: the transaction is then poisoned (its commit would
    /// fail with `MDB_BAD_TXN`), so the environment aborts it, grows the map and replays the closure.
    @exclusivity(unchecked) var hitMapFull = false

    init(environment: Environment, handle: OpaquePointer, readOnly: Bool) {
        self.environment = environment
        self.handle = handle
        self.isReadOnly = readOnly
    }

    func invalidate() { handle = nil }

    @inline(__always)
    func liveHandle(_ function: String) throws(LMDBError) -> OpaquePointer {
        guard let handle else {
            throw LMDBError(code: .badTxn, function: function, message: "transaction used outside its closure")
        }
        return handle
    }

    @inline(__always)
    func checkWrite(_ rc: Int32, _ function: @autoclosure () -> String) throws(LMDBError) {
        if rc == MDB_MAP_FULL { hitMapFull = true }
        // The name is made only for an error: every put of a large append passes one.
        try check(rc, function())
    }

    /// Throws an `LMDBError` unless `rc` is `MDB_SUCCESS`; one that means a damaged file names it
    /// (LMDB's messages name none).
    ///
    /// `MDB_BAD_TXN` from LMDB itself (not after `MDB_MAP_FULL`, which is retried) means an earlier
    /// call met a broken page and said nothing: `mdb_cursor_open` refreshes a database's root and
    /// ignores that read's failure, leaving the transaction poisoned. That is damage, not a bug.
    @inline(__always)
    func check(_ rc: Int32, _ function: @autoclosure () -> String) throws(LMDBError) {
        if rc != MDB_SUCCESS { throw failure(rc, function()) }
    }

    @inline(never)
    private func failure(_ rc: Int32, _ function: String) -> LMDBError {
        if rc == MDB_BAD_TXN && !hitMapFull {
            return LMDBError(code: .corrupted, function: function, message: "an earlier read met a broken page")
                .naming(damagedFileOf: environment)
        }
        return LMDBError(rc, function).naming(damagedFileOf: environment)
    }

    @inline(__always)
    func checkDatabase<K, V>(_ db: Database<K, V>) {
        precondition(db.environmentID == ObjectIdentifier(environment), "database \(db.name) belongs to another environment")
    }

    // MARK: - Reading

    /// Calls `body` with the stored bytes for `key`, or `nil` when there is none.
    public func withValue<K: LMDBEncodable, V, R>(
        _ db: Database<K, V>, _ key: K, _ body: (UnsafeRawBufferPointer?) throws -> R
    ) throws -> R {
        checkDatabase(db)
        let txn = try liveHandle("mdb_get")
        var data = MDB_val()
        let rc = key.withLMDBBytes { k -> Int32 in
            var kv = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
            return mdb_get(txn, db.dbi, &kv, &data)
        }
        if rc == MDB_NOTFOUND { return try body(nil) }
        try check(rc, "mdb_get(\(db.name))")
        return try body(UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }

    /// The decoded value for `key`, or `nil` when there is none.
    public func get<K: LMDBEncodable, V: LMDBDecodable>(_ db: Database<K, V>, _ key: K) throws -> V? {
        try withValue(db, key) { bytes in try bytes.map { try V(lmdbBytes: $0) } }
    }

    /// Whether `key` is stored.
    public func contains<K: LMDBEncodable, V>(_ db: Database<K, V>, _ key: K) throws -> Bool {
        try withValue(db, key) { $0 != nil }
    }

    /// The transaction's id (`mdb_txn_id`): for a read transaction, the id of the commit it sees.
    public func id() throws -> Int {
        Int(mdb_txn_id(try liveHandle("mdb_txn_id")))
    }

    /// Counters for `db` as this transaction sees it.
    public func statistics<K, V>(_ db: Database<K, V>) throws -> DatabaseStatistics {
        checkDatabase(db)
        var stat = MDB_stat()
        try check(mdb_stat(try liveHandle("mdb_stat"), db.dbi, &stat), "mdb_stat(\(db.name))")
        return DatabaseStatistics(
            entries: stat.ms_entries, depth: Int(stat.ms_depth), branchPages: stat.ms_branch_pages,
            leafPages: stat.ms_leaf_pages, overflowPages: stat.ms_overflow_pages, pageSize: Int(stat.ms_psize))
    }

    /// How many entries `db` holds.
    public func count<K, V>(_ db: Database<K, V>) throws -> Int {
        try statistics(db).entries
    }

    /// Opens a cursor on `db` for the duration of `body`.
    public func withCursor<K, V, R>(_ db: Database<K, V>, _ body: (Cursor) throws -> R) throws -> R {
        checkDatabase(db)
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(try liveHandle("mdb_cursor_open"), db.dbi, &cursor), "mdb_cursor_open(\(db.name))")
        let wrapper = Cursor(handle: cursor!, transaction: self, name: db.name)
        defer {
            wrapper.invalidate()
            mdb_cursor_close(cursor)
        }
        return try body(wrapper)
    }

    // MARK: - Writing

    /// Stores `value` under `key`.
    public func put<K: LMDBEncodable, V: LMDBEncodable>(
        _ db: Database<K, V>, _ key: K, _ value: V, flags: PutFlags = []
    ) throws {
        try value.withLMDBBytes { v in try putBytes(db, key, v, flags: flags) }
    }

    /// Stores raw bytes under `key`, whatever the database's value type.
    public func putBytes<K: LMDBEncodable, V>(
        _ db: Database<K, V>, _ key: K, _ value: UnsafeRawBufferPointer, flags: PutFlags = []
    ) throws {
        checkDatabase(db)
        let txn = try liveHandle("mdb_put")
        let rc = key.withLMDBBytes { k -> Int32 in
            var kv = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
            var vv = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
            return mdb_put(txn, db.dbi, &kv, &vv, flags.rawValue)
        }
        try checkWrite(rc, "mdb_put(\(db.name))")
    }

    /// Reserves `count` bytes under `key` and lets `body` fill them in place (`MDB_RESERVE`).
    public func putReserving<K: LMDBEncodable, V>(
        _ db: Database<K, V>, _ key: K, count: Int, flags: PutFlags = [],
        _ body: (UnsafeMutableRawBufferPointer) throws -> Void
    ) throws {
        checkDatabase(db)
        let txn = try liveHandle("mdb_put")
        var vv = MDB_val(mv_size: count, mv_data: nil)
        let rc = key.withLMDBBytes { k -> Int32 in
            var kv = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
            return mdb_put(txn, db.dbi, &kv, &vv, flags.rawValue | UInt32(MDB_RESERVE))
        }
        try checkWrite(rc, "mdb_put(\(db.name))")
        try body(UnsafeMutableRawBufferPointer(start: vv.mv_data, count: count))
    }

    /// Deletes `key`; returns whether it was there.
    @discardableResult
    public func delete<K: LMDBEncodable, V>(_ db: Database<K, V>, _ key: K) throws -> Bool {
        checkDatabase(db)
        let txn = try liveHandle("mdb_del")
        let rc = key.withLMDBBytes { k -> Int32 in
            var kv = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
            return mdb_del(txn, db.dbi, &kv, nil)
        }
        if rc == MDB_NOTFOUND { return false }
        try checkWrite(rc, "mdb_del(\(db.name))")
        return true
    }

    /// Removes every entry of `db` (the database itself stays).
    public func clear<K, V>(_ db: Database<K, V>) throws {
        checkDatabase(db)
        try checkWrite(mdb_drop(try liveHandle("mdb_drop"), db.dbi, 0), "mdb_drop(\(db.name))")
    }
}
