import Presentation
import Testing

/// `TerminalText`: what remote and imported text becomes before it reaches a terminal.
@Suite struct TerminalTextTests {
    /// Every character the rules name, one at a time, inside a title.
    static let controls: [(Unicode.Scalar, String)] = [
        ("\u{1B}", "ESC"), ("\u{07}", "BEL"), ("\u{00}", "NUL"), ("\u{08}", "BS"), ("\u{7F}", "DEL"),
        ("\u{9B}", "C1 CSI"), ("\u{9D}", "C1 OSC"), ("\u{80}", "C1 PAD"),
    ]
    static let lineLike: [Unicode.Scalar] = ["\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{2028}", "\u{2029}"]
    static let invisible: [Unicode.Scalar] = [
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        "\u{200E}", "\u{200F}", "\u{061C}", "\u{FFF9}",
    ]

    @Test func plainTextIsLeftAsItIs() {
        for text in ["Fight Club", "", "Amélie", "올드보이", "Crouching Tiger, Hidden Dragon", "👩‍👩‍👧 family", "עברית"] {
            #expect(TerminalText.field(text) == text)
            #expect(TerminalText.output(text) == text)
            #expect(TerminalText.isClean(text))
        }
        #expect(TerminalText.output("two\nlines") == "two\nlines")
    }

    @Test func controlCharactersBecomeAVisibleReplacement() {
        for (scalar, name) in Self.controls {
            let text = "Fight" + String(Character(scalar)) + "Club"
            #expect(TerminalText.field(text) == "Fight\u{FFFD}Club", "\(name)")
            #expect(TerminalText.output(text) == "Fight\u{FFFD}Club", "\(name)")
            #expect(!TerminalText.isClean(text), "\(name)")
        }
        // A window-title sequence and a screen clear are shown, not run.
        #expect(TerminalText.field("\u{1B}]0;pwned\u{07}\u{1B}[2JX") == "\u{FFFD}]0;pwned\u{FFFD}\u{FFFD}[2JX")
    }

    @Test func lineBreaksAndTabsInsideAFieldBecomeOneSpace() {
        for scalar in Self.lineLike {
            #expect(TerminalText.field("a" + String(Character(scalar)) + "b") == "a b", "U+\(String(scalar.value, radix: 16))")
        }
        #expect(TerminalText.field("a\r\nb") == "a b", "CR LF is one break")
        #expect(TerminalText.field("a\n\nb") == "a  b")
    }

    @Test func directionControlsAreDropped() {
        for scalar in Self.invisible {
            #expect(TerminalText.field("txt" + String(Character(scalar)) + ".exe") == "txt.exe", "U+\(String(scalar.value, radix: 16))")
        }
    }

    /// Among other non-ASCII text (which is checked byte by byte, not character by character),
    /// every character the rules name is still found.
    @Test func everyRuleHoldsAmongOtherNonASCIIText() {
        let all = Self.controls.map(\.0) + Self.lineLike + Self.invisible
        for scalar in all {
            let text = "★ Amélie " + String(Character(scalar)) + " 올드보이 …"
            let field = TerminalText.field(text)
            #expect(field != text, "U+\(String(scalar.value, radix: 16))")
            #expect(TerminalText.isClean(field))
            #expect(!field.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16))")
            if scalar != "\n" { #expect(TerminalText.output(text) != text, "U+\(String(scalar.value, radix: 16))") }
        }
        // Characters next to them in UTF-8 are left alone.
        for text in ["\u{00A0}\u{00BF}", "\u{0600}\u{061B}\u{061D}", "\u{200D}\u{2027}\u{202F}\u{2065}\u{2070}", "\u{FFF8}\u{FFFC}\u{FFFD}"] {
            #expect(TerminalText.field(text) == text)
        }
    }

    @Test func paragraphsKeepTheirBreaksEachLineMadeSafe() {
        #expect(TerminalText.lines("one\r\ntwo\rthree\nfour\u{2029}five") == ["one", "two", "three", "four", "five"])
        #expect(TerminalText.lines("a\n\nb") == ["a", "", "b"])
        #expect(TerminalText.lines("\u{1B}[31mred\tcell\u{202E}") == ["\u{FFFD}[31mred cell"])
        #expect(TerminalText.lines("") == [""])
    }

    @Test func outputKeepsOnlyTheStylesItIsGiven() {
        let bold = "\u{1B}[1m", reset = "\u{1B}[0m"
        let painted = bold + "Title" + reset + "\n" + "\u{1B}[31mred\u{1B}]0;x\u{07}"
        #expect(TerminalText.output(painted, keepingStyles: [bold, reset]) == bold + "Title" + reset + "\n" + "\u{FFFD}[31mred\u{FFFD}]0;x\u{FFFD}")
        #expect(TerminalText.output(painted) == "\u{FFFD}[1mTitle\u{FFFD}[0m\n\u{FFFD}[31mred\u{FFFD}]0;x\u{FFFD}")
        #expect(TerminalText.output("a\r\nb\rc\td") == "a\nb c d", "CR LF ends a line; a lone CR or a tab is a space")
    }
}
