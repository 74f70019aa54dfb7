public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Random bytes from the kernel's CSPRNG (`/dev/urandom`, kept open), fetched 4 KiB at a time.
///
/// A `getrandom` call per nonce, or Foundation's `UUID()` (which opens `/dev/urandom` on every
/// call here), cost more than sealing the payload itself; a buffer refilled from the same source
/// gives the same randomness for a fraction of the cost. Bytes are handed out once and never reused.
package enum SecureRandom {
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
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var done = 0
        while done < buffer.count {
            let n = read(device, buffer.baseAddress! + done, buffer.count - done)
            if n > 0 { done += n } else { precondition(n < 0 && errno == EINTR, "reading /dev/urandom failed: errno \(errno)") }
        }
    }

    /// `count` (at most 32) random bytes passed to `body`.
    package static func withBytes<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
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
    /// The last event id this process made, as two big-endian halves.
    private static let lastEventID = Mutex<(high: UInt64, low: UInt64)>((0, 0))

    /// A new event id: a time-ordered UUID (version 7), much faster to make than `UUID()` and kind
    /// to the event-id index (see `SecureRandom.uuidV7`).
    ///
    /// Ids one process makes ascend strictly, also within one millisecond (RFC 9562 §6.2, method 2:
    /// an id that would not sort after the last one is the last one plus one, counted in its random
    /// bits), so a batch made in order is in index order: the writer then appends its ids at the
    /// index's end without looking each one up.
    public static func newEventID() -> UUID {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let fresh = SecureRandom.uuidV7(milliseconds: UInt64(ts.tv_sec) * 1_000 + UInt64(ts.tv_nsec) / 1_000_000)
        var (high, low) = withUnsafeBytes(of: fresh.uuid) { raw in
            (UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
        lastEventID.withLock { last in
            if (high, low) <= (last.high, last.low) { (high, low) = successor(of: last) }
            last = (high, low)
        }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { out in
            out.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
            out.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: raw)
    }

    /// The next version 7 id after `id`: one more in the 62 random bits after the variant, carried
    /// into the 12 random bits after the version, then into the milliseconds.
    static func successor(of id: (high: UInt64, low: UInt64)) -> (high: UInt64, low: UInt64) {
        let lowRandom: UInt64 = (1 << 62) - 1
        if id.low & lowRandom != lowRandom { return (id.high, id.low + 1) }
        let low = id.low & ~lowRandom
        if id.high & 0xFFF != 0xFFF { return (id.high + 1, low) }
        return ((((id.high >> 16) + 1) << 16) | 0x7000, low)
    }
}
