/// How many terminal columns text takes, as terminals lay it out: by Unicode's East Asian Width
/// (UAX #11) for each character (grapheme cluster), the way `wcwidth` does and a little better
/// with emoji sequences.
///
/// - Wide (W) and fullwidth (F) characters take 2: CJK ideographs, kana, Hangul syllables,
///   fullwidth forms.
/// - Emoji shown as emoji take 2: those with Emoji_Presentation, any emoji followed by VS16
///   (U+FE0F), with a skin tone, or joined by ZWJ; a flag (two regional indicators) is one
///   character of 2.
/// - Combining marks (Mn, Me), default-ignorable code points (ZWJ, ZWSP, variation selectors)
///   and controls take 0; they ride on the character before them.
/// - Everything else takes 1, ambiguous-width characters (`…`, `★`, Greek, Cyrillic) included,
///   as terminals outside CJK locales show them; right-to-left letters take 1 each.
///
/// ```swift
/// DisplayWidth.columns("千と千尋の神隠し")             // 16
/// DisplayWidth.truncate("千と千尋の神隠し", to: 8)     // "千と千…" (7 columns: 尋 would straddle)
/// ```
public enum DisplayWidth {
    /// The columns `text` takes. Plain ASCII, and text of Latin letters with precomposed
    /// accents (every scalar below U+0300), are counted without grapheme breaking: lists run to
    /// thousands of rows.
    public static func columns(_ text: String) -> Int {
        if let simple = simpleColumns(text) { return simple }
        var total = 0
        for character in text { total += columns(character) }
        return total
    }

    /// The columns one character (grapheme cluster) takes: 0, 1 or 2.
    public static func columns(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        guard scalars.count > 1 else { return columns(first) }
        if isRegionalIndicator(first) { return 2 }
        let base = first.properties
        if base.isEmoji {
            for scalar in scalars.dropFirst() {
                // VS16 asks for emoji presentation; a skin tone or a joined emoji is shown as one.
                if scalar.value == 0xFE0F || scalar.properties.isEmojiModifier || scalar.value == 0x200D { return 2 }
                if scalar.value == 0xFE0E { return isWide(first) ? 2 : 1 }  // VS15: as text
            }
        }
        return columns(first)
    }

    /// The columns one scalar takes on its own: 0, 1 or 2.
    public static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }  // DEL and C1 controls
        if value < 0x300 { return value == 0xAD ? 0 : 1 }  // the soft hyphen is default-ignorable
        if isWide(scalar) { return 2 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .control: return 0
        default: break
        }
        if properties.isDefaultIgnorableCodePoint || contains(zeroWidth, value) { return 0 }
        if properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// True for a scalar that East Asian Width calls wide (W) or fullwidth (F), emoji aside.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x1100 && contains(wide, scalar.value)
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool { (0x1F1E6...0x1F1FF).contains(scalar.value) }

    /// `text` cut to at most `width` columns, ending in `…` when anything was cut; a wide
    /// character that would straddle the edge is left out whole, so the result may be a column
    /// short (the caller pads). Spaces before the ellipsis are dropped.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if columns(text) <= width { return text }
        let room = width > 1 ? width - 1 : 1  // the ellipsis takes one column
        var kept = ""
        var used = 0
        for character in text {
            let w = columns(character)
            if used + w > room { break }
            kept.append(character)
            used += w
        }
        guard width > 1 else { return kept }
        while kept.last == " " { kept.removeLast() }
        return kept + "…"
    }

    /// `text` cut as `truncate` cuts it, but at the end of a word: a word the edge would split is
    /// left out whole (one longer than the room is still cut, as `truncate` does).
    public static func truncateAtWord(_ text: String, to width: Int) -> String {
        let cut = truncate(text, to: width)
        guard cut != text, cut.hasSuffix("…") else { return cut }
        var kept = String(cut.dropLast())
        let next = text.dropFirst(kept.count).first
        if next != " ", let space = kept.lastIndex(of: " ") { kept = String(kept[..<space]) }
        while kept.last == " " { kept.removeLast() }
        return kept + "…"
    }

    /// `text` as lines of at most `width` columns, broken at spaces. A word wider than a line is
    /// broken too, at a column boundary (after its last `/` that fits, for a path or a URL), when
    /// `breakingWords` is set or when it holds wide characters (CJK text runs without spaces and
    /// may break between any two characters); otherwise it stays whole on a line of its own.
    public static func wrap(_ text: String, width: Int, breakingWords: Bool = false) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        var used = 0
        for word in text.split(separator: " ") {
            var word = Substring(word)
            var w = columns(String(word))
            if used > 0 && used + 1 + w <= width {
                line += " " + word
                used += 1 + w
                continue
            }
            if used > 0 {
                lines.append(line)
                (line, used) = ("", 0)
            }
            if w > width && (breakingWords || w > word.count) {
                while w > width {
                    let (head, headWidth) = prefix(of: word, width: width)
                    lines.append(String(head))
                    word = word[head.endIndex...]
                    w -= headWidth
                }
            }
            (line, used) = (String(word), w)
        }
        if used > 0 || !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The longest start of `word` within `width` columns (at least one character), cut after its
    /// last `/` when it has one past the start.
    private static func prefix(of word: Substring, width: Int) -> (Substring, Int) {
        var end = word.startIndex
        var used = 0
        var slash: (String.Index, Int)?
        while end < word.endIndex {
            let w = columns(word[end])
            if used + w > width && end > word.startIndex { break }
            used += w
            end = word.index(after: end)
            if word[word.index(before: end)] == "/" && end < word.endIndex { slash = (end, used) }
        }
        if let (cut, cutWidth) = slash { return (word[..<cut], cutWidth) }
        return (word[..<end], used)
    }

    /// The columns of text whose every scalar is below U+0300 (ASCII, Latin-1, Latin Extended,
    /// IPA, spacing modifiers): one per scalar but controls and the soft hyphen, since none of
    /// those scalars joins another into one character. Nil for any other text.
    private static func simpleColumns(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            var total = 0
            var i = 0
            let n = bytes.count
            while i < n {
                let byte = bytes[i]
                if byte < 0x80 {
                    if byte >= 0x20 && byte != 0x7F { total += 1 }
                    i += 1
                } else if byte >= 0xC2 && byte < 0xCC && i + 1 < n {
                    // U+0080–U+02FF: C1 controls (C2 80–9F) and the soft hyphen (C2 AD) take none.
                    let next = bytes[i + 1]
                    if !(byte == 0xC2 && (next < 0xA0 || next == 0xAD)) { total += 1 }
                    i += 2
                } else {
                    return nil
                }
            }
            return total
        }
    }

    private static func contains(_ table: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        var low = 0
        var high = table.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if value < table[middle].lowerBound {
                high = middle - 1
            } else if value > table[middle].upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// East Asian Width W and F (EastAsianWidth.txt, Unicode 16), without the emoji, which
    /// `isEmojiPresentation` answers for; sorted, for binary search.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2329...0x232A,  // angle brackets
        0x2630...0x2637, 0x268A...0x268F,  // trigrams, monograms and digrams (W since Unicode 16)
        0x2E80...0x2E99, 0x2E9B...0x2EF3,  // CJK radicals
        0x2F00...0x2FD5, 0x2FF0...0x303E,  // Kangxi radicals, ideographic description, CJK symbols and punctuation
        0x3041...0x3096, 0x3099...0x30FF,  // hiragana, katakana
        0x3105...0x312F, 0x3131...0x318E,  // bopomofo, Hangul compatibility jamo
        0x3190...0x31E5, 0x31EF...0x321E,  // kanbun, bopomofo extended, CJK strokes, katakana extensions, enclosed CJK
        0x3220...0x3247, 0x3250...0xA48C,  // enclosed CJK, CJK compatibility, CJK ideographs and extension A, Yijing, Yi
        0xA490...0xA4C6,  // Yi radicals
        0xA960...0xA97C,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B,  // CJK compatibility forms, small form variants
        0xFF01...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
        0x16FE0...0x16FE4, 0x16FF0...0x16FF1,  // ideographic symbols
        0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08,  // Tangut, Khitan
        0x1AFF0...0x1AFF3, 0x1AFF5...0x1AFFB, 0x1AFFD...0x1AFFE,  // kana extended B
        0x1B000...0x1B122, 0x1B132...0x1B132, 0x1B150...0x1B152, 0x1B155...0x1B155, 0x1B164...0x1B167,  // kana
        0x1B170...0x1B2FB,  // Nushu
        0x1D300...0x1D356, 0x1D360...0x1D376,  // Tai Xuan Jing, counting rods (W since Unicode 16)
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265,  // enclosed ideographs
        0x20000...0x2FFFD, 0x30000...0x3FFFD,  // CJK ideographs, extensions B and beyond
    ]

    /// Letters that join the one before them without a column of their own: Hangul medial vowels
    /// and final consonants (conjoining jamo), which are letters (Lo), not marks.
    private static let zeroWidth: [ClosedRange<UInt32>] = [
        0x1160...0x11FF, 0xD7B0...0xD7FF,
    ]
}
