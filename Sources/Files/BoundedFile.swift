#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file a person named (a photo, an import, an export to verify), or standard input, whole
/// but never more than a limit: at most `limit + 1` bytes are read, whatever the file is (a
/// regular file, a device such as `/dev/zero`, a FIFO, a `/proc` file that reports size 0), and
/// one byte past the limit refuses the file. Memory stays within the limit.
public enum BoundedFile {
    /// The file at `path`, at most `limit` bytes.
    ///
    /// A FIFO is opened without waiting for a writer: one that has none reads as empty rather than
    /// hanging the command.
    public static func read(_ path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT || errno == ENOTDIR { throw .notFound(path: path) }
            throw unreadable(path)
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw .isDirectory(path: path) }
        // A regular file larger than the limit is refused unread (and unopened).
        if info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > limit { throw .tooLarge(path: path, limit: limit) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw unreadable(path) }
        defer { close(fd) }
        // Blocking again once open: a FIFO whose writer is slow is waited for, not read as empty.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return try read(descriptor: fd, limit: limit, name: path)
    }

    /// What is left to read of `descriptor` (standard input, say), at most `limit` bytes; `name`
    /// names it in errors.
    public static func read(descriptor fd: Int32, limit: Int, name: String) throws(InputFileError) -> [UInt8] {
        var info = stat()
        let regular = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        let ceiling = limit + 1
        var failure: Int32 = 0
        // A regular file straight into an array sized by fstat (exports run to tens of MB), no copy.
        let expected = regular ? min(max(Int(info.st_size), 0), ceiling) : 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            count = 0
            while count < expected {
                let n = systemRead(fd, buffer.baseAddress! + count, expected - count)
                if n > 0 {
                    count += n
                } else if n == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        // Anything else (or a file that grew since fstat), a block at a time, up to the ceiling.
        if failure == 0 {
            var block = [UInt8](repeating: 0, count: 65_536)
            while bytes.count < ceiling {
                let want = min(block.count, ceiling - bytes.count)
                let n = block.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, want) }
                if n > 0 {
                    bytes.append(contentsOf: block[0..<n])
                } else if n == 0 {
                    break
                } else if errno == EAGAIN {
                    // A descriptor left non-blocking (standard input can be): wait for data.
                    var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&ready, 1, -1)
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if failure != 0 {
            errno = failure
            throw unreadable(name)
        }
        guard bytes.count <= limit else { throw .tooLarge(path: name, limit: limit) }
        return bytes
    }

    private static func unreadable(_ path: String) -> InputFileError {
        let code = errno
        return .unreadable(path: path, reason: String(cString: strerror(code)), permission: code == EACCES || code == EPERM)
    }

    /// read(2), named apart from `read` here.
    private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }
}
