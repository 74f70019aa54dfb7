import Testing

@testable import ReelApp

/// Keys read at once: escape sequences curses did not name are taken out whole, so pasted text
/// with colour codes is not read as esc followed by commands.
@Suite struct KeyDecoderTests {
    static func keys(_ text: String) -> [Key] {
        text.unicodeScalars.compactMap { KeyDecoder.character($0.value) }
    }

    /// `keys` read at once, with nothing begun before (`KeySequenceFilter`).
    static func dropped(_ keys: [Key]) -> [Key] {
        var filter = KeySequenceFilter()
        return filter.filter(keys, now: .now)
    }

    @Test func unknownSequencesGoWhole() {
        #expect(Self.dropped(Self.keys("Ann\u{1B}[31mRED\u{07} 日本")) == Self.keys("AnnRED\u{07} 日本"))
        #expect(Self.dropped(Self.keys("a\u{1B}[1;5Zb")) == Self.keys("ab"))
        #expect(Self.dropped(Self.keys("a\u{1B}OPb")) == Self.keys("ab"))
        #expect(Self.dropped(Self.keys("a\u{1B}]0;title\u{07}b")) == Self.keys("ab"))
        #expect(Self.dropped(Self.keys("a\u{1B}]8;;x\u{1B}\\b")) == Self.keys("ab"))
        // A terminal's answers to the probe's queries, come late: XTVERSION (DCS), kitty's (APC),
        // device attributes (CSI ?), PM and SOS strings.
        #expect(Self.dropped(Self.keys("a\u{1B}P>|tmux 3.3a\u{1B}\\b")) == Self.keys("ab"))
        #expect(Self.dropped(Self.keys("a\u{1B}_Gi=31;OK\u{1B}\\b")) == Self.keys("ab"))
        #expect(Self.dropped(Self.keys("a\u{1B}[?62;4;22cb")) == Self.keys("ab"))
        #expect(Self.dropped(Self.keys("a\u{1B}^x\u{1B}\\\u{1B}Xy\u{07}b")) == Self.keys("ab"))
    }

    @Test func escAloneOrBeforeAnotherKeyStays() {
        #expect(Self.dropped([.escape]) == [.escape])
        #expect(Self.dropped([.escape, .character("q")]) == [.escape, .character("q")])
        #expect(Self.dropped([.character("x"), .escape]) == [.character("x"), .escape])
    }
}
