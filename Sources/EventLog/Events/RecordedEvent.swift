public import Foundation

/// A stored event with its payload opened, or without it once the stream's key is destroyed.
public struct RecordedEvent: Sendable {
    public let envelope: Envelope
    /// The plaintext payload; `nil` when the stream was shredded (its key destroyed).
    public let payload: [UInt8]?

    public var position: UInt64 { envelope.position }
    public var streamID: StreamID { envelope.streamID }
    public var streamVersion: UInt64 { envelope.streamVersion }
    public var eventID: UUID { envelope.eventID }
    public var type: String { envelope.type }
    public var schemaVersion: UInt16 { envelope.schemaVersion }
    public var recordedAt: Date { envelope.recordedAt }
    public var isShredded: Bool { payload == nil }
}

/// What a catch-up subscription delivers: events, and once the moment it reached the end of the log.
public enum SubscriptionMessage: Sendable {
    case event(RecordedEvent)
    /// Everything stored when the subscription started has been delivered; live events follow.
    case caughtUp
}

/// A stream's name and how many events it holds.
public struct StreamSummary: Sendable, Equatable {
    public let stream: StreamID
    public let version: UInt64

    public init(stream: StreamID, version: UInt64) {
        self.stream = stream
        self.version = version
    }
}
