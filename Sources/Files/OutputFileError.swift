/// Why an output file (`--out`) was not written. Whatever the case, nothing was left at its path
/// or beside it: the file there before, if any, is as it was.
public enum OutputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An empty path, or one ending in `/`.
    case invalidPath(String)
    /// The directory to write in does not exist (or is not a directory).
    case noDirectory(path: String, directory: String)
    /// Something other than a regular file is there: a directory, a device, a FIFO, a socket or
    /// a symbolic link. Never replaced, never written into.
    case notRegularFile(path: String, kind: String)
    /// Permission denied, or a read-only file system.
    case permission(path: String, reason: String)
    /// The bytes could not be written or made durable: a full disk, a quota, an I/O error.
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidPath(let path): path.isEmpty ? "the output path is empty" : "\(path) names a directory, not a file"
        case .noDirectory(let path, let directory): "cannot write \(path): the directory \(directory) does not exist"
        case .notRegularFile(let path, let kind):
            "\(path) is \(kind): Reel writes only to a new path or over a regular file"
        case .permission(let path, let reason): "cannot write \(path): \(reason)"
        case .writeFailed(let path, let reason): "cannot write \(path): \(reason); nothing was written there"
        }
    }
}
