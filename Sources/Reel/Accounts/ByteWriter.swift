/// Appends big-endian integers and length-prefixed strings to a byte array.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func integer<I: FixedWidthInteger>(_ value: I) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        integer(UInt32(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    mutating func optionalString(_ value: String?) {
        integer(UInt8(value == nil ? 0 : 1))
        if let value { string(value) }
    }
}
