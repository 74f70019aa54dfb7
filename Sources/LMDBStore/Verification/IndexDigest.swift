@_spi(Stores) import EventLog

/// A keyed, order-independent digest of an index's entries, so the verifier can compare the
/// `stream-index` and `event-ids` databases with what the events say they must hold without one
/// random lookup per event.
///
/// Each entry (key, value) becomes a 64-bit term, a keyed mix of its fields; the digest is the
/// sum of the terms (wrapping) and their count. The events side adds the terms of the entries
/// each event needs; the index side walks the database in key order (cheap: a cursor's next) and
/// adds the terms of what it finds. Equal sums and counts mean equal contents, but for a chance
/// of about 2⁻⁶⁴: the key is drawn at random for each verify, so no edit can be made to match it
/// (an entry removed, added, pointed elsewhere or moved to another stream or version changes the
/// sum, and two edits cancel only by that chance).
///
/// The mix is wyhash's "mum" (the two halves of a 64×64-bit product, xored), keyed at every step:
/// a few multiplications per entry, against the SHA-256 each event costs anyway.
struct IndexDigest: Equatable {
    var sum: UInt64 = 0
    var count = 0

    /// The secret of one verify.
    struct Key: Sendable {
        let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

        static func random() -> Key {
            var words = [UInt64](repeating: 0, count: 6)
            words.withUnsafeMutableBytes { SecureRandom.fill($0) }
            // Odd, so no multiplication by a key word loses bits.
            let w = words.map { $0 | 1 }
            return Key(words: (w[0], w[1], w[2], w[3], w[4], w[5]))
        }
    }

    mutating func add(_ term: UInt64) {
        sum &+= term
        count += 1
    }

    @inline(__always)
    static func mum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// A keyed hash of a stream id's bytes (8 at a time, then the length).
    @inline(__always)
    static func streamHash(_ bytes: UnsafeRawBufferPointer, _ key: Key) -> UInt64 {
        var h = key.words.0
        var offset = 0
        while offset + 8 <= bytes.count {
            h = mum(h ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self), key.words.1)
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        return mum(h ^ tail ^ key.words.2, key.words.3 ^ UInt64(bytes.count))
    }

    /// The term of the `stream-index` entry `stream ‖ 0x00 ‖ version` → `position`.
    @inline(__always)
    static func streamIndexTerm(stream: UInt64, version: UInt64, position: UInt64, _ key: Key) -> UInt64 {
        mum(mum(stream ^ key.words.4, version ^ key.words.1) ^ position, key.words.5)
    }

    /// The term of the `event-ids` entry `id` (as two big-endian halves) → `position`.
    @inline(__always)
    static func eventIDTerm(high: UInt64, low: UInt64, position: UInt64, _ key: Key) -> UInt64 {
        mum(mum(high ^ key.words.2, low ^ key.words.3) ^ position, key.words.0)
    }
}
