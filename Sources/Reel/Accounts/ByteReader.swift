/// Reads what `ByteWriter` wrote; every read is bounds-checked and throws on short input.
struct ByteReader {
    struct Truncated: Error {}

    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func integer<I: FixedWidthInteger>(_: I.Type = I.self) throws -> I {
        let size = MemoryLayout<I>.size
        guard offset + size <= bytes.count else { throw Truncated() }
        var value = I.zero
        for i in 0..<size { value = value << 8 | I(truncatingIfNeeded: bytes[offset + i]) }
        offset += size
        return value
    }

    mutating func string() throws -> String {
        let count = Int(try integer(UInt32.self))
        guard offset + count <= bytes.count else { throw Truncated() }
        defer { offset += count }
        return String(decoding: bytes[offset..<(offset + count)], as: UTF8.self)
    }

    mutating func optionalString() throws -> String? {
        try integer(UInt8.self) == 0 ? nil : try string()
    }
}
