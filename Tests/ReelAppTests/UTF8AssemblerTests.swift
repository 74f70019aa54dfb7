import ReelApp
import Testing

/// Characters put together from bytes read one call apart: a paste read as it arrives may end a
/// read inside a character (the pty took 映's first two bytes before its third). `wget_wch` lost
/// that character and then swallowed the rest of the paste, 144 bytes at a time.
@Suite struct UTF8AssemblerTests {
    /// `bytes` fed one by one, split into reads at `splits`: the characters that came out.
    static func assembled(_ reads: [[UInt8]]) -> String {
        var assembler = UTF8Assembler()
        var text = ""
        for read in reads {
            for byte in read { if let scalar = assembler.take(byte) { text.unicodeScalars.append(scalar) } }
        }
        return text
    }

    @Test(arguments: ["映画END", "a😀b", "ñé", "plain"])
    func aCharacterSplitAcrossReadsAtAnyByteIsOneCharacter(_ text: String) {
        let bytes = Array(text.utf8)
        for split in 0...bytes.count {
            #expect(Self.assembled([Array(bytes[..<split]), Array(bytes[split...])]) == text, "split at \(split)")
        }
    }

    @Test func aStrayContinuationByteCostsItselfAlone() {
        #expect(Self.assembled([[0xA0] + Array("映画".utf8)]) == "映画")
        #expect(Self.assembled([Array("a".utf8), [0x98, 0xA0], Array("bc".utf8)]) == "abc")
    }

    @Test func aStartCuttingACharacterShortCostsThatCharacterAlone() {
        // 映's first two bytes, then 画 whole: 映 is lost, 画 and what follows are not.
        #expect(Self.assembled([[0xE6, 0x98], Array("画END".utf8)]) == "画END")
        // An invalid lead byte and an overlong encoding are dropped.
        #expect(Self.assembled([[0xFF, 0xC0, 0x80], Array("ok".utf8)]) == "ok")
    }

    @Test func aResetForgetsACharacterCutShort() {
        var assembler = UTF8Assembler()
        #expect(assembler.take(0xE6) == nil)
        assembler.reset()
        #expect(assembler.take(0x98) == nil && assembler.take(UInt8(ascii: "x")) == "x")
    }
}
