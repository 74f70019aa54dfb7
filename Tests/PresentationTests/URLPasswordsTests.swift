import Presentation
import Testing

/// `URLPasswords` hides what the expression it replaced hid, in one pass.
@Suite struct URLPasswordsTests {
    /// The expression `URLPasswords` stands for: the reference, quadratic on long words.
    static func reference(_ text: String) -> String {
        text.replacing(#/(?<head>[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*):[^\s]*@/#) { match in "\(match.output.head):***@" }
    }

    @Test(arguments: [
        "unexpected argument 'postgres://reel:s3cret@db.example/reel'",
        "postgres://reel:s3cret@db/reel and http://u:p@h/ and ftp://x@h",
        "a://u:p@h@i/ b", "1://u:p@h", "+a://u:p@h", "://u:p@h", "x://u/p@h", "x://:p@h", "x://u:p", "x://u:", "x:/u:p@h",
        "x://u:p@h x://v:q@i", "x://u:p@hx://v:q@i", "x://u:x://v:q@i", "é://u:p@h", "aé://u:p@h", "x://ü:p@h", "x://u:p\t@h",
        "x://u:pa ss@h", "", "a", "::", "x://u:p@", "x://u:@h", "ab12.+-cd://user:pw@host:5432/db?x=y@z",
    ])
    func hidesWhatTheExpressionHid(_ text: String) {
        #expect(URLPasswords.hidden(in: text) == Self.reference(text))
    }

    /// Texts made at random (from a fixed seed, so every run checks the same ones) of the pieces
    /// that matter: the same answer as the expression.
    @Test func agreesWithTheExpressionOnRandomText() {
        var generator = SplitMix64(seed: 0x5EED_0F_0E1)
        let pieces = ["a", "Z", "0", "+", ".", "-", ":", "/", "@", " ", "\t", "ü", "://", "://", "u:p@", "x"]
        var hidden = 0
        for _ in 0..<1_000 {
            let text = (0..<Int.random(in: 0...16, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let answer = URLPasswords.hidden(in: text)
            #expect(answer == Self.reference(text), "\(text.debugDescription)")
            if answer != text { hidden += 1 }
        }
        #expect(hidden > 20, "too few texts with a password to hide: \(hidden)")
    }

    /// A generator that gives the same numbers for the same seed (SplitMix64).
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Words of tens of thousands of letters, and as many URLs without an `@`, are read once:
    /// with the expression, the first took 14 s.
    @Test func longTextIsReadOnce() {
        let letters = String(repeating: "x", count: 200_000)
        #expect(URLPasswords.hidden(in: letters) == letters)
        let urls = String(repeating: "a://u:", count: 40_000)
        #expect(URLPasswords.hidden(in: urls) == urls)
        let last = urls + "p@h"
        #expect(URLPasswords.hidden(in: last) == "a://u:***@h")
    }
}
