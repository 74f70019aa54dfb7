import EventLog
import Ledger

/// What stays of a deleted account beside its shredded events: when it was opened and deleted,
/// and a salted digest of its handle (see `HandleDigest`), nothing readable.
///
/// Stored in `deleted-accounts` (stream id →) as `opened-at i64 µs ‖ deleted-at i64 µs ‖
/// handle digest (32)`.
public struct DeletedAccount: Sendable, Equatable {
    public let stream: StreamID
    public let openedAt: Int64
    public let deletedAt: Int64
    let handleDigest: [UInt8]

    init(stream: StreamID, handle: AccountHandle, openedAt: Int64, deletedAt: Int64) {
        self.stream = stream
        self.openedAt = openedAt
        self.deletedAt = deletedAt
        handleDigest = HandleDigest.deleted(handle, stream: stream)
    }

    init?(stream: StreamID, bytes: [UInt8]) {
        guard bytes.count == 48 else { return nil }
        func integer(_ at: Int) -> Int64 {
            Int64(bitPattern: bytes[at..<(at + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        self.stream = stream
        openedAt = integer(0)
        deletedAt = integer(8)
        handleDigest = Array(bytes[16...])
    }

    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(48)
        for value in [openedAt, deletedAt] {
            withUnsafeBytes(of: UInt64(bitPattern: value).bigEndian) { out.append(contentsOf: $0) }
        }
        return out + handleDigest
    }

    /// Whether this was the account of `handle`.
    func belongs(to handle: AccountHandle) -> Bool {
        HandleDigest.deleted(handle, stream: stream) == handleDigest
    }
}
