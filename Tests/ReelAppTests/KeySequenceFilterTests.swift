import Testing

@testable import ReelApp

/// A sequence that arrives over several reads is taken out whole: the rest of a terminal's late
/// answer is not typing (`3` opened Search and `.3a` was typed into it, from tmux's
/// `ESC P > | tmux 3.3a ESC \` split by a busy machine).
@Suite struct KeySequenceFilterTests {
    static func keys(_ text: String) -> [Key] { KeyDecoderTests.keys(text) }
    static let start = ContinuousClock.now

    @Test func aSequenceGoesOnInTheNextRead() {
        var filter = KeySequenceFilter()
        #expect(filter.filter(Self.keys("a\u{1B}P>|tmux"), now: Self.start) == Self.keys("a"))
        #expect(filter.filter(Self.keys(" 3.3"), now: Self.start + .milliseconds(5)) == [])
        #expect(filter.filter(Self.keys("a\u{1B}"), now: Self.start + .milliseconds(10)) == [])
        #expect(filter.filter(Self.keys("\\b3"), now: Self.start + .milliseconds(15)) == Self.keys("b3"))
        // A device attributes answer split after its parameters' start, and kitty's after its ESC.
        #expect(filter.filter(Self.keys("\u{1B}[?6"), now: Self.start) == [])
        #expect(filter.filter(Self.keys("2;4cq"), now: Self.start) == Self.keys("q"))
        #expect(filter.filter(Self.keys("\u{1B}_Gi=31;OK\u{1B}"), now: Self.start) == [])
        #expect(filter.filter(Self.keys("\\"), now: Self.start) == [])
        #expect(filter.filter(Self.keys("j"), now: Self.start) == Self.keys("j"))
    }

    /// A sequence whose end never comes swallows keys for at most `patience`, then typing counts.
    @Test func aSequenceWhoseEndIsLostEndsAfterPatience() {
        var filter = KeySequenceFilter()
        #expect(filter.filter(Self.keys("\u{1B}]0;title"), now: Self.start) == [])
        #expect(filter.filter(Self.keys("jj"), now: Self.start + .milliseconds(500)) == [])
        #expect(filter.filter(Self.keys("jk"), now: Self.start + KeySequenceFilter.patience + .milliseconds(501)) == Self.keys("jk"))
    }

    @Test func escPressedAloneStaysAndKeysAroundAreKept() {
        var filter = KeySequenceFilter()
        #expect(filter.filter([.escape], now: Self.start) == [.escape])
        #expect(filter.filter(Self.keys("q"), now: Self.start) == Self.keys("q"))
        #expect(filter.filter([.character("x"), .escape, .character("q")], now: Self.start) == [.character("x"), .escape, .character("q")])
        // alt+P and alt+] are ESC and the key at the end of a read: keys, and what follows too.
        #expect(filter.filter(Self.keys("\u{1B}P"), now: Self.start) == Self.keys("\u{1B}P"))
        #expect(filter.filter(Self.keys("jjj"), now: Self.start) == Self.keys("jjj"))
        #expect(filter.filter(Self.keys("\u{1B}]"), now: Self.start) == Self.keys("\u{1B}]"))
        #expect(filter.filter(Self.keys("k"), now: Self.start) == Self.keys("k"))
    }
}
