import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Random bytes from the kernel's CSPRNG (`/dev/urandom`, kept open), fetched 4 KiB at a time.
///
/// A `getrandom` call per nonce, or Foundation's `UUID()` (which opens `/dev/urandom` on every
/// call here), cost more than sealing the payload itself; a buffer refilled from the same source
/// gives the same randomness for a fraction of the cost. Bytes are handed out once and never reused.
enum SecureRandom {
    private struct Pool {
        var bytes = [UInt8](repeating: 0, count: 4_096)
        var offset = 4_096
    }
    private static let pool = Mutex(Pool())
    private static let device: Int32 = {
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        precondition(fd >= 0, "cannot open /dev/urandom: errno \(errno)")
        return fd
    }()

    /// Fills `buffer` straight from the kernel.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var done = 0
        while done < buffer.count {
            let n = read(device, buffer.baseAddress! + done, buffer.count - done)
            if n > 0 { done += n } else { precondition(n < 0 && errno == EINTR, "reading /dev/urandom failed: errno \(errno)") }
        }
    }

    /// `count` (at most 32) random bytes passed to `body`.
    static func withBytes<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        precondition(count <= 32)
        var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { out in
            pool.withLock { pool in
                if pool.offset + count > pool.bytes.count {
                    pool.bytes.withUnsafeMutableBytes { fill($0) }
                    pool.offset = 0
                }
                pool.bytes.withUnsafeBytes { source in
                    out.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[pool.offset..<(pool.offset + count)]))
                }
                pool.offset += count
            }
        }
        return withUnsafeBytes(of: &scratch) { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// A time-ordered (version 7, RFC 9562) UUID: 48 bits of Unix milliseconds, then 74 random bits.
    ///
    /// Ids that grow with time land at the end of the `event-ids` B-tree, so a batch of new events
    /// dirties a few pages there instead of one random page per event.
    static func uuidV7(milliseconds: UInt64) -> UUID {
        withBytes(16) { random in
            var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &raw) { out in
                out.copyMemory(from: random)
                for i in 0..<6 { out[i] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(i))) }
                out[6] = (out[6] & 0x0f) | 0x70
                out[8] = (out[8] & 0x3f) | 0x80
            }
            return UUID(uuid: raw)
        }
    }
}

extension UUID {
    /// A new event id: a time-ordered UUID (version 7), much faster to make than `UUID()` and kind
    /// to the event-id index (see `SecureRandom.uuidV7`).
    public static func newEventID() -> UUID {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return SecureRandom.uuidV7(milliseconds: UInt64(ts.tv_sec) * 1_000 + UInt64(ts.tv_nsec) / 1_000_000)
    }
}
