public import Foundation

/// A stored event seen in place during a replay: its metadata read out of the envelope and its
/// payload opened into the reading lane's buffer, without copying the envelope or allocating the
/// plaintext. Valid only during the call it is passed to (see `EventLog.replay`).
public struct EventView {
    public let position: UInt64
    public let streamID: StreamID
    public let streamVersion: UInt64
    /// Microseconds since 1970-01-01T00:00:00Z.
    public let recordedAtMicroseconds: Int64
    /// When the event was first recorded (differs only for an event moved from another shard).
    public let firstRecordedAtMicroseconds: Int64
    public let schemaVersion: UInt16
    /// The event type's bytes (checked to be UTF-8).
    public let typeBytes: UnsafeRawBufferPointer
    /// The plaintext payload; `nil` when the stream was shredded (its key destroyed).
    public let payload: UnsafeRawBufferPointer?
    package let eventIDBytes: UnsafeRawBufferPointer

    package init(
        position: UInt64, streamID: StreamID, streamVersion: UInt64, recordedAtMicroseconds: Int64, firstRecordedAtMicroseconds: Int64,
        schemaVersion: UInt16, typeBytes: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer?, eventIDBytes: UnsafeRawBufferPointer
    ) {
        self.position = position
        self.streamID = streamID
        self.streamVersion = streamVersion
        self.recordedAtMicroseconds = recordedAtMicroseconds
        self.firstRecordedAtMicroseconds = firstRecordedAtMicroseconds
        self.schemaVersion = schemaVersion
        self.typeBytes = typeBytes
        self.payload = payload
        self.eventIDBytes = eventIDBytes
    }

    public var type: String { String(decoding: typeBytes, as: UTF8.self) }
    public var eventID: UUID { UUID(bytes: eventIDBytes) }
}
