import Foundation

/// The JSON form of an envelope (`Schemas/envelope.schema.json`): every field, bytes kept exact —
/// hashes as lowercase hex, nonce and sealed payload as base64.
public struct EnvelopeJSON: Codable, Sendable, Equatable {
    public struct Seal: Codable, Sendable, Equatable {
        public let algorithm: String
        public let nonce: String
        public let ciphertext: String
    }

    public let position: UInt64
    public let streamId: String
    public let streamVersion: UInt64
    public let eventId: String
    public let type: String
    public let schemaVersion: UInt16
    public let recordedAt: String
    /// For an event a move between shards laid on this chain (envelope format 2): when it was
    /// first recorded, on the shard it came from. Absent for format 1.
    public let firstRecordedAt: String?
    public let seal: Seal
    public let previousHash: String
    public let hash: String

    public init(_ envelope: Envelope) {
        position = envelope.position
        streamId = envelope.streamID.rawValue
        streamVersion = envelope.streamVersion
        eventId = envelope.eventID.uuidString.lowercased()
        type = envelope.type
        schemaVersion = envelope.schemaVersion
        recordedAt = Self.timestamp(microseconds: envelope.recordedAtMicroseconds)
        firstRecordedAt = envelope.format == 2 ? Self.timestamp(microseconds: envelope.firstRecordedAtMicroseconds) : nil
        seal = Seal(
            algorithm: "AES-256-GCM", nonce: Data(envelope.nonce).base64EncodedString(),
            ciphertext: Data(envelope.sealedPayload).base64EncodedString())
        previousHash = envelope.previousHash.hex
        hash = envelope.hash.hex
    }

    /// RFC 3339 in UTC with microseconds, e.g. `2026-11-21T14:02:03.123456Z`.
    public static func timestamp(microseconds: Int64) -> String {
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        let fraction = microseconds - seconds * 1_000_000
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let fractionDigits = String(fraction)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%@Z", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec),
            String(repeating: "0", count: 6 - fractionDigits.count) + fractionDigits)
    }
}
