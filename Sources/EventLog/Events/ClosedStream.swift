/// A stream closed for good (its account deleted): it accepts no more events, and its key is
/// destroyed, or about to be (the destruction is finished by the next change after a crash, on the
/// chain's authority: see `ShreddingAuthority`).
///
/// Stored in `closed-streams` as `state u8 (0 key destruction pending, 1 key destroyed) ‖
/// closed-at i64 µs`.
public struct ClosedStream: Sendable, Equatable {
    public let stream: StreamID
    public let keyDestroyed: Bool
    /// When the stream was closed: microseconds since 1970-01-01T00:00:00Z.
    public let closedAtMicroseconds: Int64

    package init(stream: StreamID, keyDestroyed: Bool, closedAtMicroseconds: Int64) {
        self.stream = stream
        self.keyDestroyed = keyDestroyed
        self.closedAtMicroseconds = closedAtMicroseconds
    }

    package init?(stream: StreamID, bytes: [UInt8]) {
        guard bytes.count == 9, bytes[0] <= 1 else { return nil }
        self.stream = stream
        keyDestroyed = bytes[0] == 1
        closedAtMicroseconds = Int64(bitPattern: bytes[1...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    package var bytes: [UInt8] {
        var out: [UInt8] = [keyDestroyed ? 1 : 0]
        withUnsafeBytes(of: UInt64(bitPattern: closedAtMicroseconds).bigEndian) { out.append(contentsOf: $0) }
        return out
    }
}
