import EventLog
import Ledger

/// One line of `reel accounts`.
public struct AccountSummary: Sendable, Equatable {
    /// The order accounts are listed in: by handle, those whose handle is gone last, then by stream.
    public static func listed(_ a: AccountSummary, _ b: AccountSummary) -> Bool {
        (a.handle?.value ?? "~", a.stream) < (b.handle?.value ?? "~", b.stream)
    }

    /// `nil` when the account's key is destroyed and its handle is no longer known.
    public let handle: AccountHandle?
    public let stream: StreamID
    public let status: AccountState.Status
    /// How many events the account's stream holds.
    public let events: UInt64
    public let saved: Int
    public let openedAt: Int64?
    public let deletedAt: Int64?
}
