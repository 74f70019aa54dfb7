public import Failures

extension OutputFileError: KindedError {
    /// A path Reel will not write is the request's fault; a refused permission or a read-only
    /// file system is something unavailable; bytes that could not be written or made durable are
    /// a failed output.
    public var kind: FailureKind {
        switch self {
        case .invalidPath, .noDirectory, .notRegularFile: .usage
        case .permission: .unavailable
        case .writeFailed: .outputFailed
        }
    }
}
