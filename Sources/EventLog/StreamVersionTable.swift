/// Each stream's last version, keyed by the stream id's bytes without allocating per lookup.
///
/// The verifier looks a stream up for every event; a `[StreamID: UInt64]` would build a `String`
/// each time. Here the id bytes are hashed (FNV-1a) and compared in place; only a stream seen for
/// the first time is copied.
struct StreamVersionTable {
    private var slots: [UInt64: [Int]] = [:]
    private(set) var names: [[UInt8]] = []
    private(set) var versions: [UInt64] = []

    var count: Int { names.count }

    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    /// The last version recorded for `stream`, and a handle to update it.
    /// `h` is a hash of the id (`hash(_:)`, or the verifier's keyed one; the same for every call
    /// on one table), computed beforehand (on another lane).
    mutating func lookup(_ stream: UnsafeRawBufferPointer, hash h: UInt64) -> (index: Int, version: UInt64) {
        if let candidates = slots[h] {
            for index in candidates where names[index].withUnsafeBytes({ $0.sameBytes(as: stream) }) {
                return (index, versions[index])
            }
        }
        names.append(Array(stream))
        versions.append(0)
        slots[h, default: []].append(names.count - 1)
        return (names.count - 1, 0)
    }

    mutating func set(_ index: Int, _ version: UInt64) { versions[index] = version }

    /// The handle of `stream` when it is in the table (`h` as for `lookup`).
    func find(_ stream: UnsafeRawBufferPointer, hash h: UInt64) -> Int? {
        slots[h]?.first { names[$0].withUnsafeBytes { $0.sameBytes(as: stream) } }
    }
}
