import EventLog
import Ledger

/// An account's projections as they are now, or as of a point in its past.
public struct AccountView: Sendable {
    public let handle: AccountHandle
    /// The account's stream; `nil` when the account has not been opened yet (no change made:
    /// its view is the empty list and the default settings).
    public let stream: StreamID?
    public let state: AccountState
    /// The point the view was computed as of; `nil` for the live projections.
    public let asOf: AsOf?

    /// True when the account has no events yet: nothing was ever recorded for it.
    public var isUnopened: Bool { stream == nil }

    /// What an account that has made no change yet reads as: nothing saved, default settings.
    static func unopened(_ handle: AccountHandle) -> AccountView {
        AccountView(handle: handle, stream: nil, state: AccountState(), asOf: nil)
    }
}
