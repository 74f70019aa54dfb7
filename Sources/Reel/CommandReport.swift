import EventLog
import Ledger

/// What a command did: its outcomes, the events it appended (durably) and the account after it.
public struct CommandReport: Sendable {
    public let handle: AccountHandle
    /// `nil` when nothing was appended to an account that does not exist.
    public let stream: StreamID?
    public let outcomes: [Outcome]
    public let appended: [HistoryEntry]
    public let state: AccountState?
}
