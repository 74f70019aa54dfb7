import Testing

@testable import TerminalGraphics

@Suite struct TerminalSequencesTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func passthroughDoublesEveryEscape() {
        #expect(text(TerminalSequences.passthrough(Array("\u{1B}_Ga=q\u{1B}\\".utf8))) == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=q\u{1B}\u{1B}\\\u{1B}\\")
        #expect(text(TerminalSequences.passthrough(Array("abc".utf8))) == "\u{1B}Ptmux;abc\u{1B}\\")
        #expect(text(TerminalSequences.passthrough([])) == "\u{1B}Ptmux;\u{1B}\\")
    }

    @Test func eachSequenceIsWrappedOnItsOwn() throws {
        let bytes = Array("\u{1B}_Ga=T,m=1\u{1B}\\\u{1B}_Gm=1;AAAA\u{1B}\\x\u{1B}[0m\u{1B}]1337;File=:QQ==\u{07}".utf8)
        let pieces = try Passthrough.unwrap(TerminalSequences.passthroughEachSequence(bytes))
        #expect(pieces.map(text) == ["\u{1B}_Ga=T,m=1\u{1B}\\", "\u{1B}_Gm=1;AAAA\u{1B}\\", "x", "\u{1B}[0m", "\u{1B}]1337;File=:QQ==\u{07}"])
    }

    @Test func kittyDeletions() {
        #expect(text(TerminalSequences.kittyDelete(imageID: 12)) == "\u{1B}_Ga=d,d=I,i=12,q=2\u{1B}\\")
        #expect(text(TerminalSequences.kittyDeleteAll()) == "\u{1B}_Ga=d,d=A,q=2\u{1B}\\")
        #expect(text(TerminalSequences.kittyDelete(imageID: 12, tmux: TmuxPassthrough(passthrough: false))) == "\u{1B}_Ga=d,d=I,i=12,q=2\u{1B}\\")
        #expect(text(TerminalSequences.kittyDelete(imageID: 12, tmux: TmuxPassthrough(passthrough: true)))
            == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=I,i=12,q=2\u{1B}\u{1B}\\\u{1B}\\")
        #expect(text(TerminalSequences.kittyDeleteAll(tmux: TmuxPassthrough(passthrough: true)))
            == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=A,q=2\u{1B}\u{1B}\\\u{1B}\\")
    }

    @Test func synchronizedUpdates() {
        #expect(text(TerminalSequences.synchronizedUpdate(begin: true)) == "\u{1B}[?2026h")
        #expect(text(TerminalSequences.synchronizedUpdate(begin: false)) == "\u{1B}[?2026l")
    }
}
