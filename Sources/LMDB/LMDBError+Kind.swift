public import Failures

extension LMDBError: KindedError {
    public var kind: FailureKind {
        switch code {
        case .accessDenied, .mapFull, .readOnly: .unavailable
        case .noSpace: .noSpace
        case .notADirectory, .nameTooLong: .usage
        case .invalid, .versionMismatch: .tampered
        default: code.meansDamage ? .tampered : .storage
        }
    }

    /// The line a person reads: a damaged file's message names the file (`naming(damagedFileOf:)`).
    public var summary: String {
        switch code {
        case .accessDenied: "permission denied: \(message)"
        case .noSpace: "\(message); nothing was changed"
        case .mapFull: "no space left for the ledger: \(message)"
        case .readOnly: message
        case .notADirectory, .nameTooLong: "the data directory cannot be made: \(message)"
        case .invalid, .versionMismatch: "the data directory does not hold a readable ledger: \(message)"
        default: code.meansDamage ? "damaged data file \(message)" : "storage failed: \(self)"
        }
    }
}
