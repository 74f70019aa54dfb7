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

    private static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let count = text.count
        let padding = text[count - 1] == UInt8(ascii: "=") ? (text[count - 2] == UInt8(ascii: "=") ? 2 : 1) : 0
        let length = count / 4 * 3 - padding
        var failed = false
        let out = [UInt8](unsafeUninitializedCapacity: length) { out, initialized in
            var o = 0
            var i = 0
            while i < count {
                let a = value(text[i]), b = value(text[i + 1])
                let last = i + 4 == count
                let c = last && padding == 2 ? 0 : value(text[i + 2])
                let d = last && padding >= 1 ? 0 : value(text[i + 3])
                guard a | b | c | d < 64 else {
                    failed = true
                    break
                }
                let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                out[o] = UInt8(truncatingIfNeeded: word >> 16)
                if o + 1 < length { out[o + 1] = UInt8(truncatingIfNeeded: word >> 8) }
                if o + 2 < length { out[o + 2] = UInt8(truncatingIfNeeded: word) }
                if last {
                    // The bits the padding leaves unused must be zero, or the text is not canonical.
                    if padding == 2, word & 0xFFFF != 0 { failed = true }
                    if padding == 1, word & 0xFF != 0 { failed = true }
                }
                o += 3
                i += 4
            }
            initialized = failed ? 0 : length
        }
        return failed ? nil : out
    }

    /// The 6-bit value of a base64 character; 255 for anything else (`=` included).
    @inline(__always) private static func value(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: 255
        }
    }
}
