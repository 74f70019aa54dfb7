/// Base64 (RFC 4648, with padding) in its canonical form, as an export writes envelopes: encoded
/// as `Data.base64EncodedString()` does, and decoded only when the text is exactly what encoding
/// the decoded bytes gives back — no line breaks or spaces, `=` only as the padding the length
/// needs, and the unused bits of the last character zero. Anything else decodes to `nil`.
///
/// An export's envelopes must be canonical (so one export has one text); handling 100,000 of them
/// this way, without a `Data` and a `String` each, is much of an export's and an import's work.
enum CanonicalBase64 {
    /// Appends the base64 text of `raw`.
    static func append(_ raw: [UInt8], to out: inout [UInt8]) {
        var i = 0
        while i + 3 <= raw.count {
            let word = UInt32(raw[i]) << 16 | UInt32(raw[i + 1]) << 8 | UInt32(raw[i + 2])
            out.append(alphabet[Int(word >> 18)])
            out.append(alphabet[Int(word >> 12 & 0x3F)])
            out.append(alphabet[Int(word >> 6 & 0x3F)])
            out.append(alphabet[Int(word & 0x3F)])
            i += 3
        }
        let left = raw.count - i
        if left > 0 {
            let word = UInt32(raw[i]) << 16 | (left == 2 ? UInt32(raw[i + 1]) << 8 : 0)
            out.append(alphabet[Int(word >> 18)])
            out.append(alphabet[Int(word >> 12 & 0x3F)])
            out.append(left == 2 ? alphabet[Int(word >> 6 & 0x3F)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        if text.isEmpty { return [] }
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    /// The 6-bit value of each character; 255 for anything else (`=` included).
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (value, character) in alphabet.enumerated() {
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
