/// Text from elsewhere (TMDb, an imported file, a ledger another program wrote, a value a person
/// typed) made one safe line, for every face: a failure's message quotes such text, and a terminal
/// or a page must never act on it. The rules (the terminal face's `TerminalText` applies the same):
/// - line-like characters (TAB, LF, VT, FF, CR, NEL, U+2028, U+2029) inside a line become a space;
/// - every other control character (C0, DEL, C1, ESC among them) becomes U+FFFD `�`, so that
///   tampering shows instead of acting;
/// - invisible direction and format controls (U+061C, U+200E, U+200F, U+202A–U+202E,
///   U+2066–U+206F, U+FFF9–U+FFFB) are dropped: they carry no visible text of their own.
public enum SafeText {
    /// `text` as one safe line.
    public static func line(_ text: String) -> String {
        isPlain(text, keepingNewlines: false) ? text : cleaned(text, keepingNewlines: false, styles: [])
    }

    /// `text` as safe lines: LF kept between them, and the exact SGR sequences in `styles` (the
    /// colours a face paints with itself); everything else as `line` does.
    public static func lines(_ text: String, keepingStyles styles: Set<String> = []) -> String {
        isPlain(text, keepingNewlines: true) ? text : cleaned(text, keepingNewlines: true, styles: styles)
    }

    /// True when `text` holds nothing to change: checked on its UTF-8 bytes, since every character
    /// the rules name is a C0 byte, DEL, or one of a few two- and three-byte sequences (lists of
    /// thousands of titles, accents and `★` included, take this path).
    private static func isPlain(_ text: String, keepingNewlines: Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var i = 0
            let n = bytes.count
            while i < n {
                let byte = bytes[i]
                if byte >= 0x20 && byte < 0x7F { i += 1; continue }
                if byte == 0x0A && keepingNewlines { i += 1; continue }
                if byte < 0xC2 { return false }  // C0, DEL (continuation bytes are skipped below)
                let next = i + 1 < n ? bytes[i + 1] : 0
                let third = i + 2 < n ? bytes[i + 2] : 0
                switch byte {
                case 0xC2 where (0x80...0x9F).contains(next): return false  // C1 (NEL among them)
                case 0xD8 where next == 0x9C: return false  // U+061C
                case 0xE2 where next == 0x80 && (third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third)): return false
                case 0xE2 where next == 0x81 && (0xA6...0xAF).contains(third): return false  // U+2066–U+206F
                case 0xEF where next == 0xBF && (0xB9...0xBB).contains(third): return false  // U+FFF9–U+FFFB
                default: break
                }
                i += byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            }
            return true
        }
    }

    private enum Kind { case plain, lineLike, control, invisible }

    private static func kind(_ scalar: Unicode.Scalar) -> Kind {
        switch scalar.value {
        case 0x09...0x0D, 0x85, 0x2028, 0x2029: .lineLike
        case 0x00...0x1F, 0x7F...0x9F: .control
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x206F, 0xFFF9...0xFFFB: .invisible
        default: .plain
        }
    }

    private static let replacement: Unicode.Scalar = "\u{FFFD}"

    private static func cleaned(_ text: String, keepingNewlines: Bool, styles: Set<String>) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            switch kind(scalar) {
            case .plain:
                out.append(scalar)
            case .invisible:
                break
            case .lineLike:
                if scalar == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n" {
                    break  // CR LF counts once: as the LF that follows
                } else if keepingNewlines && scalar == "\n" {
                    out.append(scalar)
                } else {
                    out.append(" ")
                }
            case .control:
                if scalar == "\u{1B}", !styles.isEmpty, let length = styleLength(scalars, at: i, styles: styles) {
                    out.append(contentsOf: scalars[i..<i + length])
                    i += length
                    continue
                }
                out.append(replacement)
            }
            i += 1
        }
        return String(out)
    }

    /// The length of the SGR sequence (`ESC [ digits and ; m`) starting at `start` when it is one
    /// of `styles`, else nil.
    private static func styleLength(_ scalars: [Unicode.Scalar], at start: Int, styles: Set<String>) -> Int? {
        guard start + 2 < scalars.count, scalars[start + 1] == "[" else { return nil }
        var end = start + 2
        while end < scalars.count, end - start < 16, scalars[end] == ";" || ("0"..."9").contains(scalars[end]) { end += 1 }
        guard end < scalars.count, scalars[end] == "m" else { return nil }
        var sequence = String.UnicodeScalarView()
        sequence.append(contentsOf: scalars[start...end])
        return styles.contains(String(sequence)) ? end - start + 1 : nil
    }
}
