public import Foundation

/// An event to append: what happened, as a type name, a schema version and a payload.
///
/// The payload is opaque bytes to the log (Reel's domain stores JSON); it is sealed under the
/// stream's key before it reaches the disk.
public struct ProposedEvent: Sendable {
    /// The idempotency key: appending an id the log already holds returns its original position.
    public let id: UUID
    public let type: String
    public let schemaVersion: UInt16
    public let payload: [UInt8]

    public init(id: UUID = .newEventID(), type: String, schemaVersion: UInt16 = 1, payload: [UInt8]) throws(EventLogError) {
        guard (1...255).contains(type.utf8.count) else { throw .invalidEventType(type) }
        guard payload.count <= ProposedEvent.maximumPayloadSize else {
            throw .payloadTooLarge(size: payload.count, limit: ProposedEvent.maximumPayloadSize)
        }
        self.id = id
        self.type = type
        self.schemaVersion = schemaVersion
        self.payload = payload
    }

    /// 16 MiB: events are small facts; large blobs (photos) are stored beside the log.
    public static let maximumPayloadSize = 16 << 20
}
