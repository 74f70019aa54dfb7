/// The steps of `EventLog.completeShredding()` after the stream was closed, in order.
public enum ShreddingStep: String, Sendable, CaseIterable {
    /// The keys are replaced by destroyed markers (their bytes are still in freed pages).
    case keysDestroyed = "keys-destroyed"
    /// A compact copy of the key store is complete beside it; nothing swapped yet.
    case keyStoreCopied = "key-store-copied"
    /// The copy is swapped in; the old key store (with the keys' bytes) is not removed yet.
    case keyStoreSwapped = "key-store-swapped"
    /// The key store is rewritten compactly: no file holds the keys' bytes any more.
    case keyStoreRewritten = "key-store-rewritten"
    /// The streams are recorded as shredded in the ledger.
    case recorded
}
