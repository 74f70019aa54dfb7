/// The steps of restoring a Reel export as a new account, in order (for the crash tests that stop
/// the process at each one). Before `committed` nothing of the account is in the ledger.
public enum ImportStep: String, Sendable, CaseIterable {
    /// The new stream's key is in the key store; the ledger holds nothing of the account yet.
    case keyPrepared = "key-prepared"
    /// Inside the write transaction: every event appended and the projections updated, not yet committed.
    case writing
    /// Committed and fsync'd: the account is restored.
    case committed
}
