import Foundation

/// A 5 × 7 pixel font of printable ASCII's upper half (space to `_`, which holds the capitals,
/// digits and the punctuation titles use), for the sample catalog's poster art. Written out here
/// rather than taken from a font file so the art is the same on every machine and needs nothing
/// installed. Text is drawn in capitals: lowercase letters take their capital's glyph, Latin
/// letters with accents their base letter (Amélie is AMELIE), and any other character a small box.
enum BitmapFont {
    static let glyphWidth = 5
    static let glyphHeight = 7

    /// One glyph: seven rows, top first, each five bits wide with the leftmost pixel in bit 4.
    typealias Glyph = [UInt8]

    /// What a character with no glyph of its own is drawn as.
    static let box: Glyph = [0b00000, 0b11111, 0b10001, 0b10001, 0b10001, 0b11111, 0b00000]

    /// Glyphs of U+0020 … U+005F, in order.
    static let table: [Glyph] = [
        [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000],  // space
        [0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00000, 0b00100],  // !
        [0b01010, 0b01010, 0b01010, 0b00000, 0b00000, 0b00000, 0b00000],  // "
        [0b01010, 0b01010, 0b11111, 0b01010, 0b11111, 0b01010, 0b01010],  // #
        [0b00100, 0b01111, 0b10100, 0b01110, 0b00101, 0b11110, 0b00100],  // $
        [0b11000, 0b11001, 0b00010, 0b00100, 0b01000, 0b10011, 0b00011],  // %
        [0b01100, 0b10010, 0b10100, 0b01000, 0b10101, 0b10010, 0b01101],  // &
        [0b00100, 0b00100, 0b01000, 0b00000, 0b00000, 0b00000, 0b00000],  // '
        [0b00010, 0b00100, 0b01000, 0b01000, 0b01000, 0b00100, 0b00010],  // (
        [0b01000, 0b00100, 0b00010, 0b00010, 0b00010, 0b00100, 0b01000],  // )
        [0b00000, 0b00100, 0b10101, 0b01110, 0b10101, 0b00100, 0b00000],  // *
        [0b00000, 0b00100, 0b00100, 0b11111, 0b00100, 0b00100, 0b00000],  // +
        [0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b00100, 0b01000],  // ,
        [0b00000, 0b00000, 0b00000, 0b11111, 0b00000, 0b00000, 0b00000],  // -
        [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100],  // .
        [0b00000, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b00000],  // /
        [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],  // 0
        [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],  // 1
        [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],  // 2
        [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110],  // 3
        [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],  // 4
        [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],  // 5
        [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],  // 6
        [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],  // 7
        [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],  // 8
        [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],  // 9
        [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000],  // :
        [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b00100, 0b01000],  // ;
        [0b00010, 0b00100, 0b01000, 0b10000, 0b01000, 0b00100, 0b00010],  // <
        [0b00000, 0b00000, 0b11111, 0b00000, 0b11111, 0b00000, 0b00000],  // =
        [0b01000, 0b00100, 0b00010, 0b00001, 0b00010, 0b00100, 0b01000],  // >
        [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b00000, 0b00100],  // ?
        [0b01110, 0b10001, 0b00001, 0b01101, 0b10101, 0b10101, 0b01110],  // @
        [0b01110, 0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001],  // A
        [0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110],  // B
        [0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110],  // C
        [0b11100, 0b10010, 0b10001, 0b10001, 0b10001, 0b10010, 0b11100],  // D
        [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111],  // E
        [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000],  // F
        [0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111],  // G
        [0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],  // H
        [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],  // I
        [0b00111, 0b00010, 0b00010, 0b00010, 0b00010, 0b10010, 0b01100],  // J
        [0b10001, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010, 0b10001],  // K
        [0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111],  // L
        [0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001],  // M
        [0b10001, 0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001],  // N
        [0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],  // O
        [0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000],  // P
        [0b01110, 0b10001, 0b10001, 0b10001, 0b10101, 0b10010, 0b01101],  // Q
        [0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001],  // R
        [0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110],  // S
        [0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100],  // T
        [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],  // U
        [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100],  // V
        [0b10001, 0b10001, 0b10001, 0b10101, 0b10101, 0b10101, 0b01010],  // W
        [0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001],  // X
        [0b10001, 0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100],  // Y
        [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b11111],  // Z
        [0b01110, 0b01000, 0b01000, 0b01000, 0b01000, 0b01000, 0b01110],  // [
        [0b00000, 0b10000, 0b01000, 0b00100, 0b00010, 0b00001, 0b00000],  // backslash
        [0b01110, 0b00010, 0b00010, 0b00010, 0b00010, 0b00010, 0b01110],  // ]
        [0b00100, 0b01010, 0b10001, 0b00000, 0b00000, 0b00000, 0b00000],  // ^
        [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b11111],  // _
    ]

    /// Letters and signs with no decomposition to a base letter, spelled in ASCII.
    static let spelled: [Unicode.Scalar: String] = [
        "ß": "SS", "ẞ": "SS", "æ": "AE", "Æ": "AE", "œ": "OE", "Œ": "OE", "ø": "O", "Ø": "O", "ł": "L", "Ł": "L",
        "đ": "D", "Đ": "D", "ð": "D", "Ð": "D", "þ": "TH", "Þ": "TH", "ı": "I", "ĸ": "K",
        "\u{2010}": "-", "\u{2011}": "-", "\u{2012}": "-", "\u{2013}": "-", "\u{2014}": "-", "\u{2212}": "-",
        "\u{2018}": "'", "\u{2019}": "'", "\u{201A}": ",", "\u{201C}": "\"", "\u{201D}": "\"", "\u{201E}": "\"",
        "«": "\"", "»": "\"", "\u{2026}": "...", "·": ".", "×": "X",
    ]

    /// `text` as the characters the font draws: capitals, digits, ASCII punctuation, spaces, and
    /// U+FFFD for anything else (drawn as `box`). Accents are dropped (NFD, then the combining
    /// marks go), every kind of space and line break is one space, and control characters vanish.
    static func fold(_ text: String) -> [Unicode.Scalar] {
        var folded: [Unicode.Scalar] = []
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            let properties = scalar.properties
            if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark { continue }
            if let spelling = spelled[scalar] {
                folded.append(contentsOf: spelling.unicodeScalars)
            } else if properties.isWhitespace {
                folded.append(" ")
            } else if properties.generalCategory == .control || properties.generalCategory == .format {
                continue
            } else if scalar.isASCII {
                let value = scalar.value
                folded.append((0x61...0x7A).contains(value) ? Unicode.Scalar(UInt8(value - 0x20)) : scalar)
            } else {
                folded.append("\u{FFFD}")
            }
        }
        return folded
    }

    /// The glyph of a folded character.
    static func glyph(_ scalar: Unicode.Scalar) -> Glyph {
        let value = Int(scalar.value)
        guard (0x20...0x5F).contains(value) else { return box }
        return table[value - 0x20]
    }
}
