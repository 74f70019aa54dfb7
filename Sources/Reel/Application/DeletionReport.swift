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
}
