import Foundation

/// Lowercase hex as an export writes digests and event ids: written and compared as bytes,
/// without making strings.
enum Hex {
    /// Appends `bytes` in lowercase hex, two digits a byte.
    static func append(_ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
        for byte in bytes {
            out.append(digit(byte >> 4))
            out.append(digit(byte & 0x0F))
        }
    }

    /// Appends `uuid` as `uuidString.lowercased()` writes it (8-4-4-4-12 digits).
    static func append(uuid: UUID, to out: inout [UInt8]) {
        withUnsafeBytes(of: uuid.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if dashBefore(index) { out.append(UInt8(ascii: "-")) }
                out.append(digit(byte >> 4))
                out.append(digit(byte & 0x0F))
            }
        }
    }

    /// Whether `text` is `bytes` in lowercase hex, two digits a byte.
    static func matches(_ text: ArraySlice<UInt8>, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { matches(text, $0) }
    }

    static func matches(_ text: ArraySlice<UInt8>, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard text.count == bytes.count * 2 else { return false }
        return text.withUnsafeBufferPointer { text in
            for (i, byte) in bytes.enumerated() where text[2 * i] != digit(byte >> 4) || text[2 * i + 1] != digit(byte & 0x0F) {
                return false
            }
            return true
        }
    }

    /// Whether `text` is `uuid` as `uuidString.lowercased()` writes it (8-4-4-4-12 digits).
    static func matches(_ text: ArraySlice<UInt8>, uuid: UUID) -> Bool {
        guard text.count == 36 else { return false }
        return withUnsafeBytes(of: uuid.uuid) { raw in
            var i = text.startIndex
            for (index, byte) in raw.enumerated() {
                if dashBefore(index) {
                    guard text[i] == UInt8(ascii: "-") else { return false }
                    i += 1
                }
                guard text[i] == digit(byte >> 4), text[i + 1] == digit(byte & 0x0F) else { return false }
                i += 2
            }
            return true
        }
    }

    /// Whether a dash comes before the uuid's byte at `index`.
    @inline(__always) private static func dashBefore(_ index: Int) -> Bool {
        index == 4 || index == 6 || index == 8 || index == 10
    }

    @inline(__always) private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x57 + nibble
    }
}
