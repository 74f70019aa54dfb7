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
    /// `true`: a retry of a request recorded already under its idempotency key, answered with the
    /// events the first request appended (nothing was appended now).
    public let replayed: Bool

    init(handle: AccountHandle, stream: StreamID?, outcomes: [Outcome], appended: [HistoryEntry], state: AccountState?, replayed: Bool = false) {
        self.handle = handle
        self.stream = stream
        self.outcomes = outcomes
        self.appended = appended
        self.state = state
        self.replayed = replayed
    }
}
