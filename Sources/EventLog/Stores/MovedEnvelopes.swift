import Foundation
import Crypto

/// One account's envelopes laid anew on another shard's chain by a move (`reel store move`):
/// the same event ids, stream versions, types, schema versions, nonces and sealed payloads, at new
/// positions and links, recorded at the time of the move and keeping, in format 2, the time each
/// event was first recorded (`Schemas/ledger-layout.md`, "The envelope"). The seal does not cover
/// position or time, so the payloads open on the new shard under the same key.
@_spi(Stores) public enum MovedEnvelopes {
    /// `source` (one stream's envelopes, in version order) laid after `head`, recorded at `now`
    /// (or the head's time, should the clock be behind it).
    public static func laid(_ source: [Envelope], after head: LogHead?, now: Int64? = nil) throws -> [Envelope] {
        var previous = head?.hash ?? .zero
        let recordedAt = max(now ?? SealedEvents.nowMicroseconds(), head?.recordedAtMicroseconds ?? .min)
        var position = head?.position ?? 0
        return try source.map { envelope in
            position += 1
            let stream = Array(envelope.streamID.rawValue.utf8)
            let type = Array(envelope.type.utf8)
            let sealed = envelope.sealedPayload
            var bytes = [UInt8](repeating: 0, count: EnvelopeLayout.size(stream: stream, type: type, sealed: sealed.count, moved: true))
            let nonce = envelope.nonce
            bytes.withUnsafeMutableBytes { out in
                nonce.withUnsafeBytes { nonce in
                    sealed.withUnsafeBytes { sealed in
                        previous = EnvelopeLayout.write(
                            into: out, position: position, previous: previous, id: envelope.eventID.bytes,
                            streamVersion: envelope.streamVersion, recordedAt: recordedAt, schemaVersion: envelope.schemaVersion,
                            stream: stream, type: type, nonce: nonce, sealed: sealed,
                            firstRecordedAt: envelope.firstRecordedAtMicroseconds)
                    }
                }
            }
            return try bytes.withUnsafeBytes { try Envelope(bytes: $0) }
        }
    }

    /// What a move's two sides agree on (`account-moved-out` on the shard the account leaves,
    /// `account-moved-in` on the one it arrives at): SHA-256 over each envelope of `envelopes` (one
    /// stream's, in version order) of event id (16 bytes) ‖ stream version (u64) ‖ schema version
    /// (u16) ‖ type length (u8) ‖ type ‖ the time first recorded (i64 µs) ‖ nonce (12 bytes) ‖
    /// sealed length (u32) ‖ sealed payload, integers big-endian. Positions, links and the time
    /// of the move are not in it: they differ between the shards. Computed from stored bytes, it
    /// needs no key.
    public static func digest(_ envelopes: [Envelope]) -> ChainHash {
        var hasher = SHA256()
        func integer<I: FixedWidthInteger>(_ value: I) { withUnsafeBytes(of: value.bigEndian) { hasher.update(bufferPointer: $0) } }
        for envelope in envelopes {
            hasher.update(data: envelope.eventID.bytes)
            integer(envelope.streamVersion)
            integer(envelope.schemaVersion)
            let type = Array(envelope.type.utf8)
            integer(UInt8(type.count))
            hasher.update(data: type)
            integer(envelope.firstRecordedAtMicroseconds)
            hasher.update(data: envelope.nonce)
            let sealed = envelope.sealedPayload
            integer(UInt32(sealed.count))
            hasher.update(data: sealed)
        }
        return ChainHash(bytes: Array(hasher.finalize()))
    }
}
