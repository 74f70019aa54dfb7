import EventLog
import Ledger

/// What restoring a Reel export did (or, with a dry run, would do).
public struct RestoreReport: Sendable {
    public let handle: AccountHandle
    /// The new account's stream; `nil` for a dry run.
    public let stream: StreamID?
    public let events: Int
    public let saved: Int
    /// Events of types this Reel does not know, which are not carried over.
    public let skipped: Int
    public let state: AccountState

    public init(handle: AccountHandle, stream: StreamID?, events: Int, saved: Int, skipped: Int, state: AccountState) {
        self.handle = handle
        self.stream = stream
        self.events = events
        self.saved = saved
        self.skipped = skipped
        self.state = state
    }
}
