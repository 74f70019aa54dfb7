import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes a file whole or not at all: a temporary file beside it (mode 0600), synced, then
/// renamed over the target. A crash or an error leaves the target as it was.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ReelFailure(message: "cannot write \(path): the directory \(directory) does not exist", status: .usage)
        }
        let temporary = directory + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(path) }
        var written = 0
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 { if errno == EINTR { continue } else { return false } }
                written += n
            }
            return fsync(fd) == 0
        }
        let error = errno
        close(fd)
        guard ok else {
            unlink(temporary)
            errno = error
            throw failure(path)
        }
        guard rename(temporary, path) == 0 else {
            let error = failure(path)
            unlink(temporary)
            throw error
        }
        let dirFD = open(directory, O_RDONLY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }

    private static func failure(_ path: String) -> ReelFailure {
        let reason = String(cString: strerror(errno))
        return ReelFailure(message: "cannot write \(path): \(reason)", status: errno == EACCES || errno == EPERM ? .unavailable : .failure)
    }
}
