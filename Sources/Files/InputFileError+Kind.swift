public import Failures

extension InputFileError: KindedError {
    /// What `reel` has always made of these: a missing file is not found, a directory or a file
    /// over its limit is the request's fault, a file that cannot be opened or read is unavailable.
    public var kind: FailureKind {
        switch self {
        case .notFound: .notFound
        case .isDirectory, .tooLarge: .usage
        case .unreadable: .unavailable
        }
    }
}
