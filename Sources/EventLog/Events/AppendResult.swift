/// Where an append put its events.
public struct AppendResult: Sendable, Equatable {
    /// One global position per event, in the order given.
    public let positions: [UInt64]
    /// The stream's version after the append.
    public let streamVersion: UInt64
    /// Every event id was stored already: nothing was written and these are the original positions.
    public let deduplicated: Bool
}

/// Where an appended event went: its global position, stream version and time.
public struct AppendedEvent: Sendable, Equatable {
    public let position: UInt64
    public let streamVersion: UInt64
    /// Microseconds since 1970-01-01T00:00:00Z.
    public let recordedAtMicroseconds: Int64
}
