import CLMDB
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Rewriting an environment compactly *in place*: LMDB keeps freed pages in the file, so deleting
/// a record does not erase its bytes. A rewrite makes a compact copy (live records only) beside the
/// directory, swaps the two directories atomically, and removes the old one.
///
/// Other processes may have the environment open. The rewrite holds the environment's write lock
/// throughout, so no writer commits into the old file meanwhile; afterwards an old handle is
/// *superseded* (`isSuperseded`): it still reads what the old file held, but must be reopened
/// before writing, or when it misses a record another process may have written since.
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

    /// Whether the directory now holds another file than this handle has open (a rewrite, here or
    /// in another process, replaced it).
    public var isSuperseded: Bool {
        get throws { try Self.fileIdentity(ofDirectory: path) != fileIdentity }
    }

    /// Rewrites the environment compactly in place and returns a handle on the new file; this
    /// handle is superseded afterwards (see above). Throws `busy` when another process rewrote
    /// the environment since this handle was opened: reopen and try again.
    ///
    /// Crash safety: until the swap the directory is untouched; the swap is one `renameat2`
    /// (`RENAME_EXCHANGE`); a leftover `<path>.next` is garbage removed by the next rewrite or by
    /// `finishInterruptedRewrite`. Where the file system cannot exchange, two renames are used and
    /// `finishInterruptedRewrite` completes them.
    /// The points a rewrite passes, for callers that report progress or stop there in crash tests.
    public enum RewriteStep: String, Sendable {
        /// The compact copy is complete and synced beside the directory; nothing swapped yet.
        case copied
        /// The directories are swapped; the old one is not removed yet.
        case swapped
    }

    public func rewriteCompactly(reached: (RewriteStep) -> Void = { _ in }) throws -> Environment {
        let next = path + ".next"
        try write { _ in
            // The write lock keeps every other writer (in any process) out until the swap is done.
            if try isSuperseded {
                throw LMDBError(code: .busy, function: "rewrite", message: "\(path) was rewritten by another process; reopen it")
            }
            try Self.removeTree(next)
            try copy(to: next, compact: true)
            guard chmod(next + "/data.mdb", configuration.fileMode) == 0 else { throw Self.systemError("chmod", next + "/data.mdb") }
            try Self.syncFile(next + "/data.mdb")
            try Self.syncFile(next)
            reached(.copied)
            if reel_exchange_paths(next, path) != 0 {
                guard errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP else {
                    throw Self.systemError("renameat2", path)
                }
                // No atomic exchange here: move the old one aside, then the new one in.
                let old = path + ".old"
                try Self.removeTree(old)
                guard rename(path, old) == 0 else { throw Self.systemError("rename", path) }
                guard rename(next, path) == 0 else { throw Self.systemError("rename", next) }
                try Self.syncFile((path as NSString).deletingLastPathComponent)
                reached(.swapped)
                try Self.removeTree(old)
            } else {
                try Self.syncFile((path as NSString).deletingLastPathComponent)
                reached(.swapped)
                try Self.removeTree(next)  // now the old files
            }
        }
        return try Self.reopen(at: path, configuration: configuration)
    }

    /// Completes or cleans up a rewrite a crash interrupted: call before opening `path`.
    public static func finishInterruptedRewrite(at path: String) throws {
        let next = path + ".next", old = path + ".old"
        if fileIdentity(ofDirectory: path) == nil, fileIdentity(ofDirectory: next) != nil {
            // Interrupted between the two renames of the fallback: the copy is complete.
            try? removeTree(path)
            guard rename(next, path) == 0 else { throw systemError("rename", next) }
            try syncFile((path as NSString).deletingLastPathComponent)
        }
        if fileIdentity(ofDirectory: path) != nil { try removeTree(old) }
    }

    /// Whether `<path>.next` or `<path>.old` is left over from an interrupted rewrite.
    public static func hasRewriteLeftovers(at path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + ".next") || FileManager.default.fileExists(atPath: path + ".old")
    }

    // MARK: - Files

    static func removeTree(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw LMDBError(code: .accessDenied, function: "remove", message: "cannot remove \(path): \(error.localizedDescription)")
        }
    }

    static func syncFile(_ path: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw systemError("open", path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw systemError("fsync", path) }
    }

    static func systemError(_ function: String, _ path: String) -> LMDBError {
        let code = errno
        return LMDBError(code: .init(rawValue: code), function: function, message: "\(path): \(String(cString: strerror(code)))")
    }
}
