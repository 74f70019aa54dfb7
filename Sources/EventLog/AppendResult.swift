/// Where an append put its events.
public struct AppendResult: Sendable, Equatable {
    /// One global position per event, in the order given.
    public let positions: [UInt64]
    /// The stream's version after the append.
    public let streamVersion: UInt64
    /// Every event id was stored already: nothing was written and these are the original positions.
    public let deduplicated: Bool
}
