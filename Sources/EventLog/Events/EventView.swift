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
    /// The event type's bytes (checked to be UTF-8), in the store's memory: lent to the code above
    /// the store only as a `RawSpan` (`withBytes`).
    package let typeBytes: UnsafeRawBufferPointer
    /// The plaintext payload; `nil` when the stream was shredded (its key destroyed).
    package let payload: UnsafeRawBufferPointer?
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
    /// Whether the payload is gone (the stream's key destroyed).
    public var isShredded: Bool { payload == nil }

    /// Lends `body` the event type's bytes and its plaintext payload (`nil` once shredded), as
    /// spans that cannot outlive the call: copy what you keep (`Array(span)`).
    public func withBytes<R, E: Error>(_ body: (_ type: RawSpan, _ payload: RawSpan?) throws(E) -> R) throws(E) -> R {
        try body(typeBytes.bytes, payload?.bytes)
    }
    public var eventID: UUID { UUID(bytes: eventIDBytes) }
}
