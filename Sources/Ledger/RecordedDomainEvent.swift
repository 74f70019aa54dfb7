/// A domain event with where and when the log put it.
public struct RecordedDomainEvent: Sendable, Hashable {
    public let event: DomainEvent
    public let position: UInt64
    public let streamVersion: UInt64
    /// Microseconds since 1970-01-01T00:00:00Z (UTC), as the envelope stores it.
    public let recordedAt: Int64

    public init(event: DomainEvent, position: UInt64, streamVersion: UInt64, recordedAt: Int64) {
        self.event = event
        self.position = position
        self.streamVersion = streamVersion
        self.recordedAt = recordedAt
    }
}
