import Testing

@testable import TerminalGraphics

/// The terminal's answers, parsed from the bytes a terminal sends back.
@Suite struct ProbeAnswersTests {
    private func parse(_ text: String) -> ProbeAnswers { ProbeAnswers.parse(Array(text.utf8)) }

    @Test func kittysOKIsTakenAndAnErrorKeepsItsMessage() {
        #expect(parse("\u{1B}_Gi=31;OK\u{1B}\\").kitty == .ok)
        #expect(parse("\u{1B}_Gi=31;ENOTSUPPORTED:Unsupported transmission type\u{1B}\\").kitty
            == .error("ENOTSUPPORTED:Unsupported transmission type"))
        // Another image's answer is not ours.
        #expect(parse("\u{1B}_Gi=7;OK\u{1B}\\").kitty == nil)
        // Control characters in the message do not survive.
        #expect(parse("\u{1B}_Gi=31;EBAD\u{07}\u{9B}31m\u{1B}\\").kitty == .error("EBAD31m"))
    }

    @Test func deviceAttributesWithAndWithoutSixel() {
        let sixel = parse("\u{1B}[?62;4;6;22c")
        #expect(sixel.deviceAttributes == [62, 4, 6, 22])
        #expect(sixel.hasSixel)
        let plain = parse("\u{1B}[?1;2c")
        #expect(plain.deviceAttributes == [1, 2])
        #expect(!plain.hasSixel)
        // 14 and 44 contain a 4 but are not 4.
        #expect(!parse("\u{1B}[?64;14;44c").hasSixel)
    }

    @Test func xtversionNamesTheTerminalInPrintableASCII() {
        #expect(parse("\u{1B}P>|kitty(0.35.2)\u{1B}\\").version == "kitty(0.35.2)")
        #expect(parse("\u{1B}P>|WezTerm 20240203\u{1B}\\").version == "WezTerm 20240203")
        let hostile = parse("\u{1B}P>|evil\u{1B}]8;;x\u{07}\u{202E}" + String(repeating: "A", count: 200) + "\u{1B}\\")
        #expect(hostile.version?.count == 64)
        #expect(hostile.version?.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) } == true)
        // Some other DCS answer is not a version.
        #expect(parse("\u{1B}P1$r0m\u{1B}\\").version == nil)
    }

    @Test func cellAndWindowSizesInPixels() {
        let answers = parse("\u{1B}[6;20;10t\u{1B}[4;600;800t")
        #expect(answers.cellPixels == CellSize(width: 10, height: 20))
        #expect(answers.windowPixels == ProbeAnswers.Pixels(width: 800, height: 600))
        // Zero or absurd sizes are no size.
        #expect(parse("\u{1B}[6;0;0t").cellPixels == nil)
        #expect(parse("\u{1B}[6;99999;10t").cellPixels == nil)
        #expect(parse("\u{1B}[4;0;0t").windowPixels == nil)
    }

    @Test func synchronizedOutputFromDECRPM() {
        #expect(parse("\u{1B}[?2026;2$y").synchronizedOutput == 2)
        #expect(parse("\u{1B}[?2026;0$y").synchronizedOutput == 0)
        // Another mode's report is not this one.
        #expect(parse("\u{1B}[?2004;1$y").synchronizedOutput == nil)
    }

    @Test func allAnswersInOneReadInOrder() {
        let answers = parse(
            "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[6;21;10t\u{1B}[4;840;1000t\u{1B}[?2026;2$y\u{1B}[?62;22;52c")
        #expect(answers.kitty == .ok)
        #expect(answers.version == "kitty(0.35.2)")
        #expect(answers.cellPixels == CellSize(width: 10, height: 21))
        #expect(answers.synchronizedOutput == 2)
        #expect(answers.deviceAttributes == [62, 22, 52])
        #expect(answers.typedAhead.isEmpty && answers.unfinished.isEmpty)
    }

    @Test func keysTypedAheadAreKeptInOrderAndAnswersStillFound() {
        // "ls", the Up arrow, Escape, Alt+x, then the answer, then Enter.
        let answers = parse("ls\u{1B}[A\u{1B}\u{1B}x\u{1B}[?1;2c\r")
        #expect(answers.deviceAttributes == [1, 2])
        #expect(answers.typedAhead == Array("ls\u{1B}[A\u{1B}\u{1B}x\r".utf8))
        // An Escape right before an answer does not swallow it.
        #expect(parse("\u{1B}\u{1B}[?1;4c").hasSixel)
    }

    @Test func aSequenceCutShortIsUnfinishedNotAnAnswer() {
        for cut in ["\u{1B}", "\u{1B}[?62;4", "\u{1B}_Gi=31;OK", "\u{1B}_Gi=31;OK\u{1B}", "\u{1B}P>|kit"] {
            let answers = parse("\u{1B}[?2026;2$y" + cut)
            #expect(answers.synchronizedOutput == 2)
            #expect(answers.unfinished == Array(cut.utf8), "\(cut.debugDescription)")
            #expect(answers.kitty == nil && answers.deviceAttributes == nil && answers.version == nil)
        }
    }

    @Test func garbageIsNeverAnAnswerAndNeverACrash() {
        let garbage: [[UInt8]] = [
            Array("\u{1B}[?;;c".utf8), Array("\u{1B}[6;a;b t".utf8), Array("\u{1B}[6;20:1;10t".utf8),
            Array("\u{1B}[?99999999999999999999c".utf8), [0x1B, 0x5B, 0x80, 0xFF], [0xFF, 0xFE, 0x00, 0x1B, 0x5F],
            Array("\u{1B}]11;rgb:0000/0000/0000\u{07}".utf8),
        ]
        for bytes in garbage {
            let answers = ProbeAnswers.parse(bytes)
            #expect(answers.kitty == nil && answers.cellPixels == nil && answers.version == nil)
        }
        // Empty parameters are zeros (a real, if odd, answer).
        #expect(ProbeAnswers.parse(Array("\u{1B}[?;;c".utf8)).deviceAttributes == [0, 0, 0])
        #expect(ProbeAnswers.parse(Array("\u{1B}[?99999999999999999999c".utf8)).deviceAttributes == nil)
        // Random bytes: no crash, and every byte accounted for.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                [0x1B, 0x5B, 0x3F, 0x3B, 0x34, 0x63, 0x5F, 0x47, 0x5C, 0x50, 0x74, UInt8.random(in: 0...255, using: &generator)].randomElement(using: &generator)!
            }
            let answers = ProbeAnswers.parse(bytes)
            #expect(answers.typedAhead.count + answers.unfinished.count <= bytes.count)
        }
    }
}
