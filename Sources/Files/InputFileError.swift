/// Why a file a person named (a photo, an import, an export to verify) was not read.
public enum InputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(path: String)
    case isDirectory(path: String)
    /// More than `limit` bytes: only `limit + 1` were read, the rest was never touched.
    case tooLarge(path: String, limit: Int)
    /// open(2) or read(2) failed; `permission` when the cause is a permission.
    case unreadable(path: String, reason: String, permission: Bool)

    public var description: String {
        switch self {
        case .notFound(let path): "\(path): no such file"
        case .isDirectory(let path): "\(path) is a directory, not a file"
        case .tooLarge(let path, let limit): "\(path) is larger than the limit of \(ByteCount.words(limit))"
        case .unreadable(let path, let reason, _): "\(path): cannot be read (\(reason))"
        }
    }
}
