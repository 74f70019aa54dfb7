/// What kind of failure an error is, whichever module it comes from. A front end turns the kind
/// into what its users read: `reel` into an exit status (`ExitCodeTable`), the HTTP service into a
/// status code. The kind is the error's own: it is decided where the error is made, where the
/// cause is known, not guessed later from the error's type or its words.
public enum FailureKind: String, Sendable, CaseIterable {
    /// The request itself is wrong: a malformed argument, a value out of range, a handle with a
    /// space in it. Asking again the same way fails again.
    case usage
    /// What was named is not there: no ledger, no account, an id TMDb does not have.
    case notFound
    /// Input data (an import file, a TMDb response, a stored event) is malformed.
    case data
    /// A check of integrity failed: the chain does not verify, a data file is damaged, an
    /// envelope or projection does not authenticate.
    case tampered
    /// Something Reel needs cannot be reached or used now: TMDb, a permission, a read-only disk.
    case unavailable
    /// Try again: a concurrent change won (expected version), TMDb's rate limit.
    case temporary
    /// TMDb (or another service) refused the configured credentials.
    case refusedCredentials
    /// The disk holding the data directory is full; nothing was changed.
    case noSpace
    /// The output (standard output or an output file) could not be written.
    case outputFailed
    /// The storage engine failed in a way none of the above names.
    case storage
}

/// An error that says what kind of failure it is, and the one line a person reads about it.
public protocol KindedError: Error {
    var kind: FailureKind { get }
    /// One line: what failed and, where it helps, what to do. No stack, no secret.
    var summary: String { get }
}

extension KindedError where Self: CustomStringConvertible {
    public var summary: String { description }
}

/// A failure a module makes with its words and kind directly, when no richer type is needed.
public struct Failure: KindedError, CustomStringConvertible, Equatable {
    public let kind: FailureKind
    public let summary: String
    public init(_ kind: FailureKind, _ summary: String) {
        self.kind = kind
        self.summary = summary
    }
    public var description: String { summary }
}
