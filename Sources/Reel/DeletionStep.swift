import EventLog

/// The steps of deleting an account, in order (for progress, and for the crash tests that stop
/// the process at each one).
public enum DeletionStep: String, Sendable, CaseIterable {
    /// Inside the write transaction: `account deleted` appended and the stream closed, not yet committed.
    case appending
    /// Committed: the account is deleted; its key is still to be destroyed.
    case recorded
    /// The key is replaced by a destroyed marker (its bytes still in a freed page).
    case keyDestroyed = "key-destroyed"
    /// A compact copy of the key store is complete beside it; nothing swapped yet.
    case keyStoreCopied = "key-store-copied"
    /// The copy is swapped in; the old key store (with the key's bytes) is not removed yet.
    case keyStoreSwapped = "key-store-swapped"
    /// The key store is rewritten compactly: no file holds the key.
    case keyStoreRewritten = "key-store-rewritten"
    /// The ledger records the stream as shredded: done.
    case completed

    init(_ step: ShreddingStep) {
        switch step {
        case .keysDestroyed: self = .keyDestroyed
        case .keyStoreCopied: self = .keyStoreCopied
        case .keyStoreSwapped: self = .keyStoreSwapped
        case .keyStoreRewritten: self = .keyStoreRewritten
        case .recorded: self = .completed
        }
    }
}
