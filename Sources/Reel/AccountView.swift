import EventLog
import Ledger

/// An account's projections as they are now, or as of a point in its past.
public struct AccountView: Sendable {
    public let handle: AccountHandle
    public let stream: StreamID
    public let state: AccountState
    /// The point the view was computed as of; `nil` for the live projections.
    public let asOf: AsOf?
}
