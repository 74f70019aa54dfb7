/// A 1-based line and column in UTF-8 text, for messages: a line ends at LF, CRLF or a lone CR,
/// and columns count characters (Unicode scalars), not bytes.
struct TextPosition: Sendable, Equatable {
    let line: Int
    let column: Int

    /// The position of `offset` in `bytes`, counting from `start`, which is at column 1 of `line`.
    init(of offset: Int, in bytes: [UInt8], from start: Int = 0, line: Int = 1) {
        var line = line
        var lineStart = start
        var i = start
        while i < offset {
            if bytes[i] == 0x0A || (bytes[i] == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        self.line = line
        self.column = Self.column(of: offset, lineStart: lineStart, in: bytes)
    }

    /// The 1-based column of `offset` on a line that starts at `lineStart`.
    static func column(of offset: Int, lineStart: Int, in bytes: [UInt8]) -> Int {
        var column = 1
        var i = lineStart
        while i < offset {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return column
    }

    /// The offset of the first byte in `bytes[range]` that does not belong to well-formed UTF-8
    /// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or `nil`.
    static func firstInvalidUTF8(in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            let continuations: Int
            switch lead {
            case 0xC2...0xDF: continuations = 1
            case 0xE0: continuations = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: continuations = 2
            case 0xED: continuations = 2; high = 0x9F
            case 0xF0: continuations = 3; low = 0x90
            case 0xF1...0xF3: continuations = 3
            case 0xF4: continuations = 3; high = 0x8F
            default: return i
            }
            for k in 1...continuations {
                guard i + k < end else { return i }
                let byte = bytes[i + k]
                let (min, max) = k == 1 ? (low, high) : (0x80, 0xBF)
                guard byte >= min, byte <= max else { return i }
            }
            i += continuations + 1
        }
        return nil
    }

    /// The number of bytes of a UTF-8 byte order mark at the start of `bytes` (3 or 0).
    static func byteOrderMarkLength(_ bytes: [UInt8]) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }
}
