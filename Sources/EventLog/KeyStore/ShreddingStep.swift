/// The steps of destroying closed streams' keys, in order (see `KeyStoreReplacement`).
public enum ShreddingStep: String, Sendable, CaseIterable {
    /// A replacement of the key store without the keys is written beside it; nothing swapped.
    case keyStorePrepared = "key-store-prepared"
    /// The ledger transaction that closed the streams is committed; the keys are still live.
    case committed
    /// The replacement is swapped in; the old key store (with the keys' bytes) is not removed yet.
    case keyStoreSwapped = "key-store-swapped"
    /// The old key store is removed: no file holds the keys' bytes any more.
    case keyStoreRewritten = "key-store-rewritten"
    /// The streams are recorded as shredded in the ledger.
    case recorded
}
