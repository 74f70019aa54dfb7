import EventLog
import Ledger

/// An account's events in words, with the titles the catalog knows for the ones about a title.
public struct HistoryReport: Sendable {
    public let handle: AccountHandle
    /// `nil` when the account has not been opened yet (no events).
    public let stream: StreamID?
    public let asOf: AsOf?
    public let entries: [HistoryEntry]
    /// When the account was deleted (its events are shredded), `nil` while it lives.
    public let deletedAt: Int64?
    public let titles: [MediaKey: String]
    public let notices: [String]

    /// The title an entry is about, as `Fight Club (1999)`.
    public func title(_ entry: HistoryEntry) -> String? { entry.mediaKey.flatMap { titles[$0] } }
}
