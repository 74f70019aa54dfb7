import EventLog

/// The steps of deleting an account, in order (for progress, and for the crash tests that stop
/// the process at each one).
public enum DeletionStep: String, Sendable, CaseIterable {
    /// Inside the write transaction: `account deleted` appended and the stream closed, not yet committed.
    case appending
    /// Still inside it: the key store's replacement without the key is written beside it.
    case keyStorePrepared = "key-store-prepared"
    /// Committed: the account is deleted; its key is still to be destroyed.
    case recorded
    /// The replacement is swapped in; the old key store (with the key's bytes) is not removed yet.
    case keyStoreSwapped = "key-store-swapped"
    /// The old key store is removed: no file holds the key.
    case keyStoreRewritten = "key-store-rewritten"
    /// The ledger records the stream as shredded: done.
    case completed

    init(_ step: ShreddingStep) {
        switch step {
        case .keyStorePrepared: self = .keyStorePrepared
        case .committed: self = .recorded
        case .keyStoreSwapped: self = .keyStoreSwapped
        case .keyStoreRewritten: self = .keyStoreRewritten
        case .recorded: self = .completed
        }
    }
}
