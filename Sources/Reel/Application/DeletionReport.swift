import EventLog
import Ledger

/// An account deleted for good: its stream closed by the deletion event, its key destroyed.
public struct DeletionReport: Sendable {
    public let handle: AccountHandle
    public let stream: StreamID
    public let deletedAt: Int64
    /// The deletion event's position in the log.
    public let position: UInt64
    /// The events that stay in the ledger, unreadable (the deletion event included).
    public let events: UInt64
    public let seconds: Double
    /// Whether no file of the store holds the key's bytes any more. Always so for the LMDB store;
    /// on PostgreSQL, when the purge after the deletion ran (`purgeProblem` says why it did not:
    /// the key's row is gone, its bytes stay in the server's files until a purge succeeds).
    public var keyPurged: Bool = true
    public var purgeProblem: String?
    /// The erasure receipt: the inclusion proof of the deletion event against the checkpoint
    /// signed right after it (C2SP tlog-proof; no personal data in it), which the account's
    /// owner keeps to prove the deletion later (`Application.checkReceipt`). `nil` when it could
    /// not be made (`receiptProblem` says why): the deletion stands.
    public var receipt: String?
    public var receiptProblem: String?
}
