#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file whole or not at all, with mode 0600, and never anything but a regular file.
///
/// The bytes go into an unnamed file in the target's directory (`O_TMPFILE`), are synced, and the
/// file is then given its name: straight at the target with `linkat` when the target does not
/// exist (so a process killed at any point leaves nothing behind), or, when it replaces a regular
/// file, under a temporary name renamed over the target at once. Only that rename needs a name
/// beside the target (`TemporaryName`), for the moment between the link and the rename. On a
/// file system without `O_TMPFILE` the bytes go into a file of that temporary name from the start.
///
/// A temporary name is recorded in `PendingExports` while it exists, is locked by its writer, and
/// is removed by the next write to the same place (and by `PendingExports.sweep`) once its writer
/// is gone. An existing path that is not a regular file (a directory, a device, a FIFO, a socket,
/// a symbolic link) is refused: it is never written into and never replaced.
public enum OutputFile {
    /// Where a write is, for crash tests.
    public enum Step: String, Sendable {
        /// Every byte is in the temporary file and synced; the target is untouched.
        case written
        /// The temporary file has its name beside the target, just before the rename.
        case named
    }

    /// `unnamedTemporary: false` writes as on a file system without `O_TMPFILE`. `pending`
    /// records temporary names under the data directory, for `stream`.
    public static func write(
        _ bytes: [UInt8], to path: String, unnamedTemporary: Bool = true, pending: PendingExports? = nil, stream: String? = nil,
        step: (Step) -> Void = { _ in }
    ) throws(OutputFileError) {
        try check(path)
        let (directory, name) = split(path)
        // What killed writers left here (and anywhere, as recorded under the data directory).
        TemporaryName.sweep(directory, for: name)
        pending?.sweep()
        let absolute = absoluteDirectory(directory)
        let target = Target(path: path, directory: directory, name: name, absoluteDirectory: absolute, pending: pending, stream: stream)
        if unnamedTemporary {
            let fd = open(directory, oTmpfile | O_WRONLY | O_CLOEXEC, 0o600)
            if fd >= 0 {
                defer { close(fd) }
                if try target.writeUnnamed(fd, bytes, step: step) { return }
            } else if ![EOPNOTSUPP, EISDIR, EINVAL, ENOENT].contains(errno) {
                throw failure(path, errno)
            }
        }
        try target.writeNamed(bytes, step: step)
    }

    /// Writes a new file whole, with mode 0600, as `write` does, but never replaces one: `false`,
    /// with nothing written, when something is already at `path`, even what another process
    /// made a moment ago. For a file that processes starting together may each make and must then
    /// agree on (a salt): the first one made stays, and every one reads it. The file gets its name
    /// with `link`, which never replaces, so it is there whole or not at all.
    public static func create(_ bytes: [UInt8], at path: String, unnamedTemporary: Bool = true) throws(OutputFileError) -> Bool {
        try check(path)
        let (directory, name) = split(path)
        TemporaryName.sweep(directory, for: name)
        if try existingRegularFile(path) { return false }
        if unnamedTemporary {
            let fd = open(directory, oTmpfile | O_WRONLY | O_CLOEXEC, 0o600)
            if fd >= 0 {
                defer { close(fd) }
                try fill(fd, bytes, path: path)
                if link(fd, to: path) == 0 {
                    try syncDirectory(directory, path: path)
                    return true
                }
                let code = errno
                if code == EEXIST { return false }
                guard [ENOENT, EPERM, EOPNOTSUPP, EXDEV, EINVAL].contains(code) else { throw failure(path, code) }
            } else if ![EOPNOTSUPP, EISDIR, EINVAL, ENOENT].contains(errno) {
                throw failure(path, errno)
            }
        }
        // A named temporary file, linked to the target and then removed.
        let temporary = directory + "/" + TemporaryName.make(for: name)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(path, errno) }
        defer {
            unlink(temporary)
            close(fd)
        }
        _ = flock(fd, LOCK_EX)
        try fill(fd, bytes, path: path)
        guard hardLink(temporary, path) == 0 else {
            let code = errno
            if code == EEXIST { return false }
            throw failure(path, code)
        }
        try syncDirectory(directory, path: path)
        return true
    }

    /// Refuses a path that cannot be written as a file: empty or ending in `/`, in a directory
    /// that does not exist, or naming something other than a regular file. Commands check before
    /// they do the work whose result they write.
    public static func check(_ path: String) throws(OutputFileError) {
        guard !path.isEmpty, !path.hasSuffix("/") else { throw .invalidPath(path) }
        let (directory, name) = split(path)
        guard name != ".", name != ".." else { throw .invalidPath(path) }
        var info = stat()
        if stat(directory, &info) != 0 {
            if errno == EACCES { throw .permission(path: path, reason: reason(EACCES)) }
            throw .noDirectory(path: path, directory: directory)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .noDirectory(path: path, directory: directory) }
        _ = try existingRegularFile(path)
    }

    /// Whether `path` is an existing regular file (`false`: nothing is there); anything else
    /// there is refused.
    static func existingRegularFile(_ path: String) throws(OutputFileError) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw failure(path, errno)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return true
        case S_IFDIR: throw .notRegularFile(path: path, kind: "a directory")
        case S_IFCHR: throw .notRegularFile(path: path, kind: "a character device")
        case S_IFBLK: throw .notRegularFile(path: path, kind: "a block device")
        case S_IFIFO: throw .notRegularFile(path: path, kind: "a FIFO")
        case S_IFSOCK: throw .notRegularFile(path: path, kind: "a socket")
        case S_IFLNK: throw .notRegularFile(path: path, kind: "a symbolic link (give the path of the file it points to)")
        default: throw .notRegularFile(path: path, kind: "not a file Reel can write")
        }
    }

    /// One write's target and where its temporary name goes.
    private struct Target {
        let path: String
        let directory: String
        let name: String
        let absoluteDirectory: String
        let pending: PendingExports?
        let stream: String?

        /// Writes through the unnamed file `fd`; `false` when it cannot be given a name here (the
        /// caller writes again through a named file).
        func writeUnnamed(_ fd: Int32, _ bytes: [UInt8], step: (Step) -> Void) throws(OutputFileError) -> Bool {
            _ = flock(fd, LOCK_EX)
            try fill(fd, bytes, path: path)
            step(.written)
            if try !existingRegularFile(path) {
                if link(fd, to: path) == 0 {
                    try syncDirectory()
                    return true
                }
                guard errno == EEXIST else { return try unlinkable(errno) }
                // Something appeared there meanwhile: replaced below only if it is a regular file.
                _ = try existingRegularFile(path)
            }
            let temporary = directory + "/" + TemporaryName.make(for: name)
            let record = register(temporary)
            guard link(fd, to: temporary) == 0 else {
                let code = errno
                pending?.unregister(record)
                return try unlinkable(code)
            }
            step(.named)
            try publish(temporary, record: record)
            return true
        }

        /// Writes through a file that has a temporary name from the start.
        func writeNamed(_ bytes: [UInt8], step: (Step) -> Void) throws(OutputFileError) {
            let temporary = directory + "/" + TemporaryName.make(for: name)
            let record = register(temporary)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                let code = errno
                pending?.unregister(record)
                throw failure(path, code)
            }
            defer { close(fd) }
            _ = flock(fd, LOCK_EX)
            do {
                try fill(fd, bytes, path: path)
            } catch {
                unlink(temporary)
                pending?.unregister(record)
                throw error
            }
            step(.written)
            step(.named)
            try publish(temporary, record: record)
        }

        /// Renames `temporary` over the target, which must still be a regular file or nothing.
        private func publish(_ temporary: String, record: String?) throws(OutputFileError) {
            defer { pending?.unregister(record) }
            do {
                _ = try existingRegularFile(path)
            } catch {
                unlink(temporary)
                throw error
            }
            guard rename(temporary, path) == 0 else {
                let code = errno
                unlink(temporary)
                throw failure(path, code)
            }
            try syncDirectory()
        }

        private func register(_ temporary: String) -> String? {
            guard let pending, let stream else { return nil }
            return pending.register(absoluteDirectory + "/" + (temporary.split(separator: "/").last.map(String.init) ?? temporary), stream: stream)
        }

        /// Whether a failed link means the file system cannot link an unnamed file (write again
        /// through a named one) rather than a failure to report.
        private func unlinkable(_ code: Int32) throws(OutputFileError) -> Bool {
            if [ENOENT, EPERM, EOPNOTSUPP, EXDEV, EINVAL].contains(code) { return false }
            throw failure(path, code)
        }

        private func syncDirectory() throws(OutputFileError) { try OutputFile.syncDirectory(directory, path: path) }
    }

    /// Gives the unnamed file `fd` the name `path`: through `/proc/self/fd` (any process may), else
    /// with `AT_EMPTY_PATH` (which needs CAP_DAC_READ_SEARCH). 0, or -1 with errno set.
    private static func link(_ fd: Int32, to path: String) -> Int32 {
        if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, path, atSymlinkFollow) == 0 { return 0 }
        guard errno == ENOENT, access("/proc/self/fd", F_OK) != 0 else { return -1 }
        return linkat(fd, "", AT_FDCWD, path, atEmptyPath)
    }

    /// Syncs `directory`, so the name `path` was given in it outlasts a crash; a sync that fails
    /// is a write that failed (a file system that cannot sync a directory, EINVAL, has nothing more
    /// to do, and neither has a directory this process cannot open for reading).
    private static func syncDirectory(_ directory: String, path: String) throws(OutputFileError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        if fsync(fd) != 0, errno != EINVAL { throw failure(path, errno) }
    }

    /// Writes all of `bytes` to `fd` and syncs it; `path` names the target in errors.
    private static func fill(_ fd: Int32, _ bytes: [UInt8], path: String) throws(OutputFileError) {
        var failed: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + written, min(buffer.count - written, 1 << 30))
                if n < 0 {
                    if errno == EINTR { continue }
                    failed = errno
                    return
                }
                written += n
            }
            if fsync(fd) != 0 { failed = errno }
        }
        if failed != 0 { throw failure(path, failed) }
    }

    static func failure(_ path: String, _ code: Int32) -> OutputFileError {
        switch code {
        case EACCES, EPERM, EROFS: .permission(path: path, reason: reason(code))
        default: .writeFailed(path: path, reason: reason(code))
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The directory and the last component of `path` ("." when it has no directory).
    private static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    private static func absoluteDirectory(_ directory: String) -> String {
        guard let resolved = realpath(directory, nil) else { return directory }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`, the generic Linux value), `AT_SYMLINK_FOLLOW` and
    /// `AT_EMPTY_PATH`, which Swift does not import as constants.
    private static let oTmpfile: Int32 = 0o20000000 | O_DIRECTORY
    private static let atSymlinkFollow: Int32 = 0x400
    private static let atEmptyPath: Int32 = 0x1000
}

/// `link(2)`: gives the file at `existing` the name `new` too; fails (`EEXIST`) when `new` is
/// taken. Outside `OutputFile`, whose own `link` would hide it.
private func hardLink(_ existing: String, _ new: String) -> Int32 { link(existing, new) }
