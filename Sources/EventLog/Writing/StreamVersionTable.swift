/// Each stream's last version (and, for the verifier, where its last event is and whether that
/// event closes it), keyed by the stream id's bytes without allocating per lookup.
///
/// The verifier and a checked replay look a stream up for every event; a `[StreamID: UInt64]` would
/// build a `String` each time. Here the id is found by a hash computed beforehand (on another lane)
/// in an open-addressed table (linear probing, at most half full), and compared in place; only a
/// stream seen for the first time is copied. (A `[UInt64: [Int]]` of candidates, hashed again with
/// SipHash on every lookup, cost twice as much.)
package struct StreamVersionTable {
    /// Slot → entry + 1 (0: empty). Its size is a power of two.
    private var slots = [Int32](repeating: 0, count: 64)
    private var hashes: [UInt64] = []
    package private(set) var names: [[UInt8]] = []
    package private(set) var versions: [UInt64] = []
    /// The position of each stream's last event, and whether that event closes the stream (kept
    /// by `record`, for the verifier's rule 10).
    package private(set) var lastPositions: [UInt64] = []
    package private(set) var closes: [Bool] = []
    /// Whether each stream's last event is an `account-moved-out` (`StreamClosing`): closed or not.
    package private(set) var movedOut: [Bool] = []

    package init() {}

    package var count: Int { names.count }

    /// FNV-1a of the id's bytes: the same in every process (a replay splits streams over lanes by it).
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    /// The last version recorded for `stream`, and a handle to update it (a new stream is added
    /// at version 0). `h` is a hash of the id (`hash(_:)`, or the verifier's keyed one; the same
    /// for every call on one table), computed beforehand (on another lane).
    package mutating func lookup(_ stream: UnsafeRawBufferPointer, hash h: UInt64) -> (index: Int, version: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let entry = Int(slots[slot]) - 1
            if entry < 0 { break }
            if hashes[entry] == h && names[entry].withUnsafeBytes({ $0.sameBytes(as: stream) }) { return (entry, versions[entry]) }
            slot = (slot + 1) & mask
        }
        let entry = names.count
        names.append(Array(stream))
        hashes.append(h)
        versions.append(0)
        lastPositions.append(0)
        closes.append(false)
        movedOut.append(false)
        slots[slot] = Int32(entry + 1)
        if names.count * 2 > slots.count { grow() }
        return (entry, 0)
    }

    /// The handle of `stream` when it is in the table (`h` as for `lookup`).
    package func find(_ stream: UnsafeRawBufferPointer, hash h: UInt64) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let entry = Int(slots[slot]) - 1
            if entry < 0 { return nil }
            if hashes[entry] == h && names[entry].withUnsafeBytes({ $0.sameBytes(as: stream) }) { return entry }
            slot = (slot + 1) & mask
        }
    }

    mutating func set(_ index: Int, _ version: UInt64) { versions[index] = version }

    /// Records the stream's event at `position`: its version, and whether it closes the stream.
    package mutating func record(_ index: Int, version: UInt64, position: UInt64, closes: Bool, movedOut: Bool = false) {
        versions[index] = version
        lastPositions[index] = position
        self.closes[index] = closes
        self.movedOut[index] = movedOut
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (entry, h) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry + 1)
        }
    }
}
