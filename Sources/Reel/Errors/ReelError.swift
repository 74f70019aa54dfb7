import Ledger

/// What the application layer refuses or finds, beyond the domain's and the log's own errors.
public enum ReelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No account with this handle, ever.
    case noAccount(String)
    /// The handle's account was deleted (at this time, microseconds since 1970); none is open.
    case accountDeleted(String, at: Int64)
    /// The data directory has no ledger yet.
    case noLedger(String)
    /// A stored event's payload does not decode.
    case undecodableEvent(position: UInt64, reason: String)
    /// The stored projection state of a stream cannot be read.
    case corruptProjection(stream: String, reason: String)
    /// A photo named by an event is missing from the photo store.
    case missingPhoto(String)
    /// `--as-of` names a point the account has not reached.
    case asOfOutOfRange(String)
    /// An import would open an account under a handle that has one.
    case handleTaken(String)
    /// A change (or read) bound to an account (`BoundAccount`) whose handle no longer names it,
    /// or which is no longer open: it was deleted, and the handle may be another account's now.
    case accountGone(String)
    /// A rebuild found the log it replays broken (the reason names the position and the rule)
    /// and changed nothing.
    case rebuildRefused(String)

    public var description: String {
        switch self {
        case .noAccount(let handle): "there is no account '\(handle)' (the first change, such as 'reel fav add', opens it)"
        case .accountDeleted(let handle, let time):
            "the account '\(handle)' was deleted on \(UTCTime.iso(time)); the handle is free (the first change opens a new account)"
        case .noLedger(let dir): "no ledger in \(dir) (set --data-dir or REEL_DATA_DIR)"
        case .undecodableEvent(let position, let reason): "the event at position \(position) cannot be read: \(reason)"
        case .corruptProjection(let stream, let reason): "the projection of \(stream) is damaged (\(reason)); run 'reel projections rebuild'"
        case .missingPhoto(let sha): "the photo \(sha) is missing from the photo store"
        case .asOfOutOfRange(let why): why
        case .handleTaken(let handle): "there is an account '\(handle)' already; import under another handle with --as"
        case .accountGone(let handle):
            "the account '\(handle)' this was for is gone: it was deleted since it was looked up (the handle may name a new account now); nothing was changed"
        case .rebuildRefused(let reason):
            "refusing to rebuild the projections from a broken log: \(reason); nothing was changed (see 'reel audit verify')"
        }
    }
}
