public import EventLog
/// What `reel store copy` did: a whole ledger copied between stores, both sides verified.
public struct StoreCopyReport: Sendable, Equatable {
    /// The source and the target: a data directory, or a store URL without its password.
    public let from: String
    public let to: String
    /// Events the target held when the copy began (a copy resumed after an interruption goes on
    /// from there; 0 for a new one).
    public let resumedAt: UInt64
    /// Events copied by this run.
    public let copied: UInt64
    /// Events in the target now: the source's, all of them.
    public let events: UInt64
    /// The head both verified to: its position and hash (`nil` for an empty ledger).
    public let headPosition: UInt64
    public let headHash: ChainHash?
}
