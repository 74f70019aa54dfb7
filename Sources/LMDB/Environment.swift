import CLMDB
import Dispatch
import Synchronization

#if canImport(Glibc)
public import Glibc
#endif

/// An open LMDB environment: one directory holding `data.mdb` and `lock.mdb`.
///
/// There is at most one `Environment` per directory in a process (LMDB forbids opening a file
/// twice: closing one handle would drop the other's `fcntl` locks); `open` hands back the live one.
/// Transactions are synchronous closures: `read {}` on any thread, `write {}` on the calling thread,
/// and `await write {}` on the environment's serial writer queue, so a write transaction begins and
/// commits on one thread and never spans an `await`. The map grows by itself: a write that hits
/// `MDB_MAP_FULL` is rolled back, the map is grown while no transaction is live, and the closure is
/// run again; a map grown by another process (`MDB_MAP_RESIZED`) is adopted.
///
/// ```swift
/// let env = try Environment.open(at: dir)
/// let db: Database<UInt64, [UInt8]> = try env.database(named: "events")
/// try env.write { txn in try txn.put(db, 1, [0x2a]) }
/// let value = try env.read { txn in try txn.get(db, 1) }
/// ```
public final class Environment: @unchecked Sendable {
    /// How an environment is opened.
    public struct Configuration: Sendable {
        /// The map size to start with, in bytes; it grows on demand.
        public var initialMapSize: Int
        /// Growth stops here: a write that needs more fails with `.mapFull`.
        public var maximumMapSize: Int
        public var maxDatabases: UInt32
        /// Reader slots in the lock file (shared by every process using the environment).
        public var maxReaders: UInt32
        /// Permission bits for new files.
        public var fileMode: Glibc.mode_t
        public var durability: Durability
        /// `false` sets `MDB_NORDAHEAD`, better for random reads of a map larger than memory.
        public var readAhead: Bool
        /// `MDB_RDONLY`: reads only, for a data directory on a read-only file system (LMDB then
        /// works without its lock file). Write transactions fail with `.readOnly`.
        public var readOnly: Bool

        public init(
            initialMapSize: Int = 64 << 20, maximumMapSize: Int = 1 << 44, maxDatabases: UInt32 = 32,
            maxReaders: UInt32 = 1024, fileMode: Glibc.mode_t = 0o600, durability: Durability = .full,
            readAhead: Bool = true, readOnly: Bool = false
        ) {
            self.initialMapSize = initialMapSize
            self.maximumMapSize = maximumMapSize
            self.maxDatabases = maxDatabases
            self.maxReaders = maxReaders
            self.fileMode = fileMode
            self.durability = durability
            self.readAhead = readAhead
            self.readOnly = readOnly
        }
    }

    /// What a successful commit promises.
    public enum Durability: Sendable {
        /// Committed means on disk (`fdatasync` of data and meta page).
        case full
        /// `MDB_NOSYNC`: a crash may lose the last commits. For scratch data and benchmarks only.
        case unsafeNoSync
    }

    /// Sizes and counters of the environment (`mdb_env_info`, `mdb_env_stat`).
    public struct Info: Sendable {
        public let mapSize: Int
        public let lastPageNumber: Int
        public let lastTransactionID: Int
        public let maxReaders: Int
        public let readersInUse: Int
        public let pageSize: Int
        /// Bytes of the map in use: (last page + 1) × page size.
        public var usedBytes: Int { (lastPageNumber + 1) * pageSize }
    }

    /// The directory, resolved to its canonical path.
    public let path: String
    public let configuration: Configuration
    let handle: OpaquePointer
    private let gate = TransactionGate()
    private let databases = Mutex<[String: MDB_dbi]>([:])
    private let writerQueue: DispatchQueue
    /// The thread running a write transaction now, to refuse a nested one instead of deadlocking.
    private let writerThread = Atomic<UInt>(0)
    private let growths = Atomic<Int>(0)
    private let pageSize: Int
    /// Where `DamageGuard` keeps this map (-1: not guarded).
    let guardSlot: Int32

    private final class WeakEnvironment: @unchecked Sendable {
        weak var environment: Environment?
        init(_ environment: Environment) { self.environment = environment }
    }

    private static let registry = Mutex<[String: WeakEnvironment]>([:])

    /// Opens (creating if needed) the environment in directory `path`, or returns the one this
    /// process already has open there.
    public static func open(at path: String, configuration: Configuration = Configuration()) throws -> Environment {
        if !configuration.readOnly { try createDirectory(path) }
        guard let resolved = realpath(path, nil) else {
            throw LMDBError(code: .init(rawValue: errno), function: "realpath", message: "cannot resolve \(path)")
        }
        let canonical = String(cString: resolved)
        free(resolved)
        return try registry.withLock { open in
            if let live = open[canonical]?.environment { return live }
            let environment = try Environment(canonicalPath: canonical, configuration: configuration)
            open[canonical] = WeakEnvironment(environment)
            return environment
        }
    }

    /// Opens `path` afresh even when this process has it open already (after a rewrite replaced
    /// the file), and makes the new handle the one `open(at:)` returns from now on.
    public static func reopen(at path: String, configuration: Configuration) throws -> Environment {
        guard let resolved = realpath(path, nil) else {
            throw LMDBError(code: .init(rawValue: errno), function: "realpath", message: "cannot resolve \(path)")
        }
        let canonical = String(cString: resolved)
        free(resolved)
        return try registry.withLock { open in
            let environment = try Environment(canonicalPath: canonical, configuration: configuration)
            open[canonical] = WeakEnvironment(environment)
            return environment
        }
    }

    /// Makes directory `path` and any missing parent (mode 0700); one that exists is fine. A
    /// component that is a file is `.notADirectory`, one this user may not enter `.accessDenied`.
    public static func createDirectory(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            var info = stat()
            if stat(prefix, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw LMDBError(code: .notADirectory, function: "mkdir", message: "\(prefix) is a file, not a directory")
                }
                prefix += "/"
                continue
            }
            if errno == EACCES {
                throw LMDBError(code: .accessDenied, function: "stat", message: "cannot access \(prefix) (another user's, or its mode forbids it)")
            }
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw LMDBError(code: .init(rawValue: errno), function: "mkdir", message: "cannot create \(prefix): \(String(cString: strerror(errno)))")
            }
            prefix += "/"
        }
    }

    private init(canonicalPath: String, configuration: Configuration) throws {
        self.path = canonicalPath
        self.configuration = configuration
        self.pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        // A file cut short would be mapped as if whole and fault on first read: refuse it first.
        try DataFileCheck.checkBeforeOpening(directory: canonicalPath)
        var env: OpaquePointer?
        try check(mdb_env_create(&env), "mdb_env_create")
        guard let env else { throw LMDBError(code: .invalid, function: "mdb_env_create") }
        var flags = UInt32(MDB_NOTLS)
        if !configuration.readAhead { flags |= UInt32(MDB_NORDAHEAD) }
        if configuration.durability == .unsafeNoSync { flags |= UInt32(MDB_NOSYNC) }
        if configuration.readOnly { flags |= UInt32(MDB_RDONLY) }
        let initial = (max(configuration.initialMapSize, pageSize) + pageSize - 1) / pageSize * pageSize
        var rc = mdb_env_set_maxdbs(env, configuration.maxDatabases)
        if rc == 0 { rc = mdb_env_set_maxreaders(env, configuration.maxReaders) }
        if rc == 0 { rc = mdb_env_set_mapsize(env, initial) }
        if rc == 0 { rc = mdb_env_open(env, canonicalPath, flags, configuration.fileMode) }
        if rc != 0 {
            // lmdb.h: "If this function fails, mdb_env_close() must be called to discard the MDB_env handle."
            mdb_env_close(env)
            throw LMDBError(code: .init(rawValue: rc), function: "mdb_env_open", message: "\(String(cString: mdb_strerror(rc))) (\(canonicalPath))")
        }
        handle = env
        guardSlot = DamageGuard.register(env, path: canonicalPath, advice: nil)
        writerQueue = DispatchQueue(label: "reel.lmdb.writer", qos: .userInitiated)
        // Slots left by processes that died in a read transaction would pin old pages forever.
        if !configuration.readOnly {
            var dead: Int32 = 0
            mdb_reader_check(env, &dead)
        }
    }

    deinit {
        DamageGuard.unregister(guardSlot)
        mdb_env_close(handle)
        Self.registry.withLock { open in
            if let entry = open[path], entry.environment == nil { open[path] = nil }
        }
    }

    // MARK: - Databases

    /// The named database `name`, created when `create` is set and it does not exist yet.
    ///
    /// Handles are opened once per environment and cached; opening is serialised, as LMDB requires.
    public func database<K, V>(named name: String, create: Bool = true, _: K.Type = K.self, _: V.Type = V.self) throws -> Database<K, V> {
        if let dbi = databases.withLock({ $0[name] }) {
            return Database(name: name, dbi: dbi, environmentID: ObjectIdentifier(self))
        }
        let dbi: MDB_dbi = try databases.withLock { open in
            if let dbi = open[name] { return dbi }
            var dbi = MDB_dbi()
            // A read-only environment cannot create: the database must be there already.
            let create = create && !configuration.readOnly
            let flags = create ? UInt32(MDB_CREATE) : 0
            if create {
                try write { txn in
                    try txn.check(mdb_dbi_open(try txn.liveHandle("mdb_dbi_open"), name, flags, &dbi), "mdb_dbi_open(\(name))")
                }
            } else {
                // A handle opened in a transaction is discarded when that transaction aborts, and
                // `read {}` aborts: commit this read-only transaction instead.
                let txn = try begin(readOnly: true)
                defer { gate.leave() }
                let rc = mdb_dbi_open(txn.handle, name, flags, &dbi)
                let handle = txn.handle
                txn.invalidate()
                if rc != MDB_SUCCESS {
                    mdb_txn_abort(handle)
                    throw LMDBError(rc, "mdb_dbi_open(\(name))").naming(damagedFileOf: self)
                }
                try check(mdb_txn_commit(handle), "mdb_txn_commit")
            }
            open[name] = dbi
            return dbi
        }
        return Database(name: name, dbi: dbi, environmentID: ObjectIdentifier(self))
    }

    // MARK: - Transactions

    private func begin(readOnly: Bool) throws -> Transaction {
        var attempts = 0
        while true {
            gate.enter()
            var txn: OpaquePointer?
            let rc = mdb_txn_begin(handle, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
            if rc == MDB_SUCCESS, let txn {
                return Transaction(environment: self, handle: txn, readOnly: readOnly)
            }
            gate.leave()
            attempts += 1
            if rc == MDB_MAP_RESIZED && attempts < 5 {
                // Another process grew the map: adopt its size (0 = the size in the file's meta page).
                try gate.exclusive("mdb_env_set_mapsize") {
                    defer { DamageGuard.refresh(guardSlot) }
                    try check(mdb_env_set_mapsize(handle, 0), "mdb_env_set_mapsize")
                }
                continue
            }
            if rc == MDB_READERS_FULL && attempts < 5 {
                _ = clearStaleReaders()
                continue
            }
            throw LMDBError(rc, "mdb_txn_begin")
        }
    }

    /// Runs `body` in a read-only snapshot of the environment.
    public func read<T>(_ body: (Transaction) throws -> T) throws -> T {
        let previous = DamageGuard.enter(handle)
        defer { DamageGuard.leave(previous) }
        let txn = try begin(readOnly: true)
        defer {
            mdb_txn_abort(txn.handle)
            txn.invalidate()
            gate.leave()
        }
        return try body(txn)
    }

    /// Runs `body` in a write transaction on the calling thread and commits it (durably, unless the
    /// environment was opened with `.unsafeNoSync`).
    ///
    /// `body` may run more than once: when the map is full it is rolled back, the map grows and
    /// `body` runs again. It must therefore act only through the transaction. Throwing from `body`
    /// rolls everything back.
    public func write<T>(_ body: (Transaction) throws -> T) throws -> T {
        let me = UInt(bitPattern: Int(pthread_self()))
        guard writerThread.load(ordering: .relaxed) != me else {
            throw LMDBError(code: .badTxn, function: "mdb_txn_begin", message: "a write transaction cannot be nested in another on the same thread")
        }
        guard !configuration.readOnly else {
            throw LMDBError(code: .readOnly, function: "mdb_txn_begin", message: "\(path) is on a read-only file system: it can be read, not changed")
        }
        // A fault while this thread walks the pages is this file's (`DamageGuard`).
        let previous = DamageGuard.enter(handle)
        defer { DamageGuard.leave(previous) }
        while true {
            let txn = try begin(readOnly: false)
            writerThread.store(me, ordering: .relaxed)
            let outcome: Result<T, any Error>
            do {
                let value = try body(txn)
                if txn.hitMapFull {
                    throw LMDBError(code: .mapFull, function: "mdb_put", message: "the write closure ignored MDB_MAP_FULL")
                }
                outcome = .success(value)
            } catch {
                outcome = .failure(error)
            }
            let txnHandle = txn.handle
            txn.invalidate()
            switch outcome {
            case .success(let value):
                // After a failed commit the handle is already freed: never abort it.
                let rc = mdb_txn_commit(txnHandle)
                writerThread.store(0, ordering: .relaxed)
                gate.leave()
                if rc == MDB_MAP_FULL { try grow(); continue }
                if rc != MDB_SUCCESS { throw Self.classifyWriteFailure(LMDBError(rc, "mdb_txn_commit"), at: path) }
                return value
            case .failure(let error):
                mdb_txn_abort(txnHandle)
                writerThread.store(0, ordering: .relaxed)
                gate.leave()
                if txn.hitMapFull { try grow(); continue }
                throw error
            }
        }
    }

    /// Runs `body` in a write transaction on the environment's serial writer queue.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Transaction) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writerQueue.async {
                continuation.resume(with: Result { try self.write(body) })
            }
        }
    }

    /// Runs `work` on the environment's serial writer queue, for writers that batch several callers
    /// into one transaction. `work` runs on one thread from start to end.
    public func enqueueOnWriter(_ work: @escaping @Sendable () -> Void) {
        writerQueue.async(execute: work)
    }

    // MARK: - Map size

    /// Grows the map after `MDB_MAP_FULL`: ×2 up to 4 GiB, then by 4 GiB at a time, up to the
    /// configured maximum; at the maximum, fails with `.mapFull`. Waits until no transaction is live.
    private func grow() throws {
        guard try grow(toward: { current in current + 1 }) else {
            throw LMDBError(code: .mapFull, function: "mdb_env_set_mapsize", message: "the map reached its configured maximum of \(configuration.maximumMapSize) bytes")
        }
    }

    /// Makes room ahead of a large write, so that it does not run, fill the map, roll back and run
    /// again: when fewer than `bytes` lie between the last page in use and the end of the map, the
    /// map grows (in the usual steps, up to the maximum) until they fit. Best effort: free pages
    /// inside the file are not counted, so it may grow a little early (growing costs address space,
    /// not disk), and at the maximum it leaves the write to try its luck with those free pages.
    /// Call it outside any transaction of this thread.
    public func reserve(_ bytes: Int) throws {
        let now = try info()
        let (sum, overflow) = now.usedBytes.addingReportingOverflow(max(bytes, 0))
        let needed = overflow ? Int.max : sum
        guard now.mapSize < needed else { return }
        _ = try grow(toward: { _ in needed })
    }

    /// Grows in steps toward `target(current size)`, never past the configured maximum (rounded
    /// down to whole pages); returns whether the map grew.
    private func grow(toward target: (Int) -> Int) throws -> Bool {
        let limit = configuration.maximumMapSize / pageSize * pageSize
        let grown: Bool = try gate.exclusive("mdb_env_set_mapsize") {
            var info = MDB_envinfo()
            try check(mdb_env_info(handle, &info), "mdb_env_info")
            let current = info.me_mapsize
            let wanted = min(target(current), limit)
            var next = current
            while next < wanted {
                next = min((next + min(next, 4 << 30) + pageSize - 1) / pageSize * pageSize, limit)
            }
            guard next > current else { return false }
            defer { DamageGuard.refresh(guardSlot) }
            try check(mdb_env_set_mapsize(handle, next), "mdb_env_set_mapsize")
            return true
        }
        if grown { growths.add(1, ordering: .relaxed) }
        return grown
    }

    /// How many times this process grew the map.
    public var growthCount: Int { growths.load(ordering: .relaxed) }

    /// The id of the last write transaction committed to the environment by any process (the
    /// newer meta page, which every process maps): no transaction, no lock. An answer read in a
    /// read transaction (`Transaction.id()`) still holds while this is that transaction's id: a
    /// commit writes its meta page before readers are given it, so this is never behind them.
    public func lastTransactionID() throws -> Int {
        var info = MDB_envinfo()
        try check(mdb_env_info(handle, &info), "mdb_env_info")
        return info.me_last_txnid
    }

    public func info() throws -> Info {
        var info = MDB_envinfo()
        try check(mdb_env_info(handle, &info), "mdb_env_info")
        var stat = MDB_stat()
        try check(mdb_env_stat(handle, &stat), "mdb_env_stat")
        return Info(
            mapSize: info.me_mapsize, lastPageNumber: info.me_last_pgno, lastTransactionID: info.me_last_txnid,
            maxReaders: Int(info.me_maxreaders), readersInUse: Int(info.me_numreaders), pageSize: Int(stat.ms_psize))
    }

    // MARK: - Maintenance

    /// Frees reader slots left by processes that died in a read transaction; returns how many.
    @discardableResult
    public func clearStaleReaders() -> Int {
        var dead: Int32 = 0
        mdb_reader_check(handle, &dead)
        return Int(dead)
    }

    /// Writes a consistent copy of the environment into `directory`, which must not exist or be
    /// empty. With `compact`, free pages are left out and pages renumbered (`MDB_CP_COMPACT`):
    /// the copy holds no bytes of deleted records. Writers go on meanwhile; the copy is a snapshot.
    public func copy(to directory: String, compact: Bool = true) throws {
        try Self.createDirectory(directory)
        gate.enter()
        defer { gate.leave() }
        try check(mdb_env_copy2(handle, directory, compact ? UInt32(MDB_CP_COMPACT) : 0), "mdb_env_copy2(\(directory))")
    }

    /// Flushes buffers to disk; needed only with `.unsafeNoSync`.
    public func sync() throws {
        try check(mdb_env_sync(handle, 1), "mdb_env_sync")
    }

    /// The LMDB library version, e.g. "LMDB 0.9.24: (July 24, 2019)".
    public static var libraryVersion: String { String(cString: mdb_version(nil, nil, nil)) }
}
