import Ledger

/// Why an id was saved without TMDb saying it has it.
public enum FavoriteNote: Sendable, Equatable, CustomStringConvertible {
    /// Offline, and its details were never cached.
    case savedOffline(MediaKey)
    /// TMDb failed for it after every retry.
    case unchecked(MediaKey, reason: String)

    public var description: String {
        switch self {
        case .savedOffline(let key): "offline: saved \(key) without checking that TMDb has it"
        case .unchecked(let key, let reason): "could not check \(key) with TMDb (\(reason)); saved it without checking"
        }
    }
}
