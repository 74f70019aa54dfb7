public import Crypto
import Foundation

/// One append's events sealed under their stream's key, ahead of the transaction that places them
/// in the log: what a store that keeps envelopes as values (PostgreSQL) lays out once it knows the
/// head. Sealing does not depend on the position (see `Schemas/ledger-layout.md`, "Sealing"), so
/// it happens outside the transaction, as the LMDB store's group commit does.
@_spi(Stores) public final class SealedEvents: @unchecked Sendable {
    private let batch: SealedBatch
    private let streamBytes: [UInt8]
    private let typeBytes: [[UInt8]]

    /// Seals `events` for `stream` under `key` (a large batch on every core).
    public init(_ events: [ProposedEvent], stream: StreamID, key: SymmetricKey) throws {
        batch = try SealedBatch(events, stream: stream, key: key)
        try batch.sealAll()
        streamBytes = Array(stream.rawValue.utf8)
        typeBytes = events.map { Array($0.type.utf8) }
    }

    public var stream: StreamID { batch.stream }
    public var events: [ProposedEvent] { batch.events }

    /// The envelopes of the events placed after `head`, the stream at `streamVersion` before them,
    /// recorded at `now` (or the head's time, should the clock be behind it): positions, links and
    /// hashes as every store lays them. Only the thread that writes the batch calls this.
    public func envelopes(after head: LogHead?, streamVersion: UInt64, now: Int64 = nowMicroseconds()) throws -> [Envelope] {
        var out: [Envelope] = []
        out.reserveCapacity(batch.count)
        var previous = head?.hash ?? .zero
        let recordedAt = max(now, head?.recordedAtMicroseconds ?? .min)
        var position = head?.position ?? 0
        for index in 0..<batch.count {
            position += 1
            let size = EnvelopeLayout.size(stream: streamBytes, type: typeBytes[index], sealed: batch.sealedCount(index))
            var bytes = [UInt8](repeating: 0, count: size)
            try batch.withSealed(index) { nonce, sealed in
                bytes.withUnsafeMutableBytes { out in
                    previous = EnvelopeLayout.write(
                        into: out, position: position, previous: previous, id: batch.events[index].id.bytes,
                        streamVersion: streamVersion + UInt64(index) + 1, recordedAt: recordedAt,
                        schemaVersion: batch.events[index].schemaVersion, stream: streamBytes, type: typeBytes[index], nonce: nonce,
                        sealed: sealed)
                }
            }
            out.append(try bytes.withUnsafeBytes { try Envelope(bytes: $0) })
        }
        return out
    }

    /// Microseconds since 1970 by the system's clock.
    public static func nowMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }
}

extension LogHead {
    /// The head after `envelope`: its position, time and hash.
    @_spi(Stores) public init(after envelope: Envelope) {
        self.init(position: envelope.position, recordedAtMicroseconds: envelope.recordedAtMicroseconds, hash: envelope.hash)
    }

    /// A head as a store keeps it.
    @_spi(Stores) public init(storedPosition position: UInt64, recordedAtMicroseconds: Int64, hash: ChainHash) {
        self.init(position: position, recordedAtMicroseconds: recordedAtMicroseconds, hash: hash)
    }
}

extension AppendResult {
    @_spi(Stores) public init(stored positions: [UInt64], streamVersion: UInt64, deduplicated: Bool) {
        self.init(positions: positions, streamVersion: streamVersion, deduplicated: deduplicated)
    }
}

extension AppendedEvent {
    @_spi(Stores) public init(storedAt position: UInt64, streamVersion: UInt64, recordedAtMicroseconds: Int64) {
        self.init(position: position, streamVersion: streamVersion, recordedAtMicroseconds: recordedAtMicroseconds)
    }
}
