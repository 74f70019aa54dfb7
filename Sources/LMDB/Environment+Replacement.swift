import CLMDB
import Foundation

#if canImport(Glibc)
public import Glibc
#endif

/// Replacing an environment's files, for a store that must leave no bytes of deleted records
/// behind (LMDB keeps freed pages in the file, so deleting a record does not erase its bytes).
///
/// The building blocks: `writeFresh` writes a new environment holding only the records given to
/// it; `exchange` swaps two directories in one step; `isSuperseded` tells a handle that its
/// directory now holds another file. Who may replace what, and when, is the caller's protocol
/// (the key store's is in `Schemas/ledger-layout.md`): these functions take no locks.
extension Environment {
    /// Which file an environment's `data.mdb` is: device and inode.
    public struct FileIdentity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    /// The identity of the `data.mdb` this handle has open.
    public var fileIdentity: FileIdentity {
        get throws {
            var fd: Int32 = -1
            try check(mdb_env_get_fd(handle, &fd), "mdb_env_get_fd")
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw Self.systemError("fstat", path + "/data.mdb") }
            return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }

    /// The identity of the `data.mdb` in `directory` now; `nil` when there is none.
    public static func fileIdentity(ofDirectory directory: String) -> FileIdentity? {
        var info = stat()
        guard stat(directory + "/data.mdb", &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Whether the directory now holds another file than this handle has open (it was replaced,
    /// here or in another process).
    public var isSuperseded: Bool {
        get throws { try Self.fileIdentity(ofDirectory: path) != fileIdentity }
    }

    /// One write transaction of `writeFresh`.
    public struct FreshTransaction {
        fileprivate let txn: OpaquePointer
        fileprivate let databases: [String: MDB_dbi]

        /// Puts `value` under `key` in the named database (one of those `writeFresh` was given).
        public func put(_ database: String, key: [UInt8], value: [UInt8]) throws {
            guard let dbi = databases[database] else {
                throw LMDBError(code: .badDBI, function: "mdb_put", message: "no database \(database) in this environment")
            }
            var k = key, v = value
            let rc = k.withUnsafeMutableBytes { kb in
                v.withUnsafeMutableBytes { vb in
                    var kv = MDB_val(mv_size: kb.count, mv_data: kb.baseAddress)
                    var vv = MDB_val(mv_size: vb.count, mv_data: vb.baseAddress)
                    return mdb_put(txn, dbi, &kv, &vv, 0)
                }
            }
            try check(rc, "mdb_put(\(database))")
        }
    }

    /// Writes a new environment into `directory`, which must not exist: the named `databases`,
    /// filled by `body` in one write transaction, committed and synced (file and directory), and
    /// closed. Every page is written fresh, so the file holds no bytes but those `body` put. No
    /// lock file is made (`MDB_NOLOCK`): the caller keeps every other process away from the
    /// directory until it is complete. `body` may run again (with a larger map) when the first
    /// map was too small; on failure the directory is removed.
    public static func writeFresh(
        at directory: String, fileMode: Glibc.mode_t, estimatedBytes: Int, databases: [String], _ body: (FreshTransaction) throws -> Void
    ) throws {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var mapSize = max(1 << 20, (estimatedBytes * 3 / pageSize + 64) * pageSize)
        while true {
            guard mkdir(directory, 0o700) == 0 else { throw systemError("mkdir", directory) }
            do {
                try writeFreshOnce(at: directory, fileMode: fileMode, mapSize: mapSize, databases: databases, body)
                try syncFile(directory + "/data.mdb")
                try syncFile(directory)
                try syncFile((directory as NSString).deletingLastPathComponent)
                return
            } catch let error as LMDBError where error.code == .mapFull && mapSize < 1 << 40 {
                try removeTree(directory)
                mapSize *= 4
            } catch {
                try? removeTree(directory)
                throw classifyWriteFailure(error, at: (directory as NSString).deletingLastPathComponent)
            }
        }
    }

    private static func writeFreshOnce(
        at directory: String, fileMode: mode_t, mapSize: Int, databases: [String], _ body: (FreshTransaction) throws -> Void
    ) throws {
        var env: OpaquePointer?
        try check(mdb_env_create(&env), "mdb_env_create")
        guard let env else { throw LMDBError(code: .invalid, function: "mdb_env_create") }
        defer { mdb_env_close(env) }
        try check(mdb_env_set_maxdbs(env, UInt32(max(databases.count, 1))), "mdb_env_set_maxdbs")
        try check(mdb_env_set_mapsize(env, mapSize), "mdb_env_set_mapsize")
        try check(mdb_env_open(env, directory, UInt32(MDB_NOLOCK | MDB_NOTLS), fileMode), "mdb_env_open(\(directory))")
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
        guard let txn else { throw LMDBError(code: .badTxn, function: "mdb_txn_begin") }
        do {
            var dbis: [String: MDB_dbi] = [:]
            for name in databases {
                var dbi = MDB_dbi()
                try check(mdb_dbi_open(txn, name, UInt32(MDB_CREATE), &dbi), "mdb_dbi_open(\(name))")
                dbis[name] = dbi
            }
            try body(FreshTransaction(txn: txn, databases: dbis))
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
        try check(mdb_txn_commit(txn), "mdb_txn_commit")
    }

    /// Swaps two directory entries in one step (`renameat2` with `RENAME_EXCHANGE`). Throws with
    /// the system's code; `EINVAL`, `ENOSYS` or `EOPNOTSUPP` mean the file system cannot.
    public static func exchange(_ first: String, _ second: String) throws {
        guard reel_exchange_paths(first, second) == 0 else { throw systemError("renameat2", first) }
    }

    /// Whether `path` lies on a file system mounted read-only.
    public static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// Bytes free for an unprivileged writer on the file system holding `path`; `nil` when unknown.
    public static func freeBytes(at path: String) -> UInt64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }

    /// A write that failed with ENOSPC, or with EIO (LMDB's answer to a short write) while the
    /// disk holding `path` is all but full, becomes `.noSpace` naming the place; others pass.
    public static func classifyWriteFailure(_ error: any Error, at path: String) -> any Error {
        guard let lmdb = error as? LMDBError else { return error }
        switch lmdb.code {
        case .noSpace: break
        case .ioError: guard let free = freeBytes(at: path), free < 1 << 20 else { return error }
        default: return error
        }
        return LMDBError(code: .noSpace, function: lmdb.function, message: "no space left on the device holding \(path)")
    }

    // MARK: - Files

    /// Removes a file or a directory tree; nothing when it is not there.
    public static func removeTree(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            guard lstat(path, &info) == 0 else { return }  // removed by someone else meanwhile
            throw LMDBError(code: .accessDenied, function: "remove", message: "cannot remove \(path): \(error.localizedDescription)")
        }
    }

    /// `fsync` of a file or a directory.
    public static func syncFile(_ path: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw systemError("open", path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw systemError("fsync", path) }
    }

    /// An `LMDBError` carrying `errno` as it is now, the function and the path.
    public static func systemError(_ function: String, _ path: String) -> LMDBError {
        let code = errno
        return LMDBError(code: .init(rawValue: code), function: function, message: "\(path): \(String(cString: strerror(code)))")
    }
}
