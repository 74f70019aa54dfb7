/// Base64 (RFC 4648, with padding) accepted only in its canonical form: what encoding the decoded
/// bytes gives back, character for character — no line breaks or spaces, `=` only as the padding
/// the length needs, and the unused bits of the last character zero. Anything else is `nil`.
///
/// An export's envelopes must be canonical (so one export has one text); decoding 100,000 of them
/// this way, without a `Data` and a re-encoded `String` each, is much of an import's check.
enum CanonicalBase64 {
    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        if text.isEmpty { return [] }
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    /// The 6-bit value of each character; 255 for anything else (`=` included).
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    private static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let count = text.count
        let padding = text[count - 1] == UInt8(ascii: "=") ? (text[count - 2] == UInt8(ascii: "=") ? 2 : 1) : 0
        let length = count / 4 * 3 - padding
        return values.withUnsafeBufferPointer { values -> [UInt8]? in
            var failed = false
            let out = [UInt8](unsafeUninitializedCapacity: length) { out, initialized in
                // Every quad but the last: four characters, three bytes, one check.
                var i = 0
                var o = 0
                while i < count - 4 {
                    let a = values[Int(text[i])], b = values[Int(text[i + 1])], c = values[Int(text[i + 2])], d = values[Int(text[i + 3])]
                    if a | b | c | d >= 64 {
                        failed = true
                        break
                    }
                    let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[o] = UInt8(truncatingIfNeeded: word >> 16)
                    out[o + 1] = UInt8(truncatingIfNeeded: word >> 8)
                    out[o + 2] = UInt8(truncatingIfNeeded: word)
                    i += 4
                    o += 3
                }
                if !failed {
                    // The last quad, whose padding leaves bits unused: they must be zero.
                    let a = values[Int(text[i])], b = values[Int(text[i + 1])]
                    let c = padding == 2 ? 0 : values[Int(text[i + 2])]
                    let d = padding >= 1 ? 0 : values[Int(text[i + 3])]
                    let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    if a | b | c | d >= 64 || (padding == 2 && word & 0xFFFF != 0) || (padding == 1 && word & 0xFF != 0) {
                        failed = true
                    } else {
                        out[o] = UInt8(truncatingIfNeeded: word >> 16)
                        if padding < 2 { out[o + 1] = UInt8(truncatingIfNeeded: word >> 8) }
                        if padding < 1 { out[o + 2] = UInt8(truncatingIfNeeded: word) }
                    }
                }
                initialized = failed ? 0 : length
            }
            return failed ? nil : out
        }
    }
}
