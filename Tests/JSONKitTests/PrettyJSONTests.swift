import Foundation
import JSONKit
import ReelTestSupport
import Testing

/// `prettyPrinted()` must write exactly what `JSONEncoder` wrote for `--json` before it: scripts
/// and people compare outputs across versions.
@Suite struct PrettyJSONTests {
    private func encoderText(_ value: JSONValue) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    private func expectSame(_ value: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let mine = value.prettyPrinted()
        let theirs = try encoderText(value)
        #expect(mine == theirs, "\(String(decoding: mine, as: UTF8.self))\n---\n\(String(decoding: theirs, as: UTF8.self))",
                sourceLocation: sourceLocation)
    }

    @Test func theAwkwardCasesReadAsJSONEncoderWritesThem() throws {
        try expectSame([:])
        try expectSame([])
        try expectSame("x")
        try expectSame(.null)
        try expectSame([
            "empty": [], "emptyObject": [:], "nested": [["x": []], [:], [[]]],
            "text": .string("q\"b\\s/\u{1}\u{8}\u{c}\n\r\t\u{1f}\u{7f}é😀 \u{2028}"),
            "numbers": .array([7.5, 3.0, 1e20, 0.1, 1e-7, -0.0, 123456789.125, 1e16, 12345678901234567.0, Double.leastNonzeroMagnitude, 0.0001]
                .map(JSONValue.double)),
            "integers": [0, -1, .integer(.max), .integer(.min)],
            "keys": ["a": 1, "B": 2, "a10": 3, "a9": 4, "é": 5, "_": 6, "Z": 7, "aa": 8, "a-": 9, "": 10],
            "flags": [true, false, .null],
        ])
    }

    /// Random documents (a fixed seed, so a failure reproduces): any shape, any text, any number.
    @Test func randomDocumentsReadAsJSONEncoderWritesThem() throws {
        var random = SplitMix64(seed: 0x5eed_1e55)
        func text() -> String {
            let pieces: [String] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1b}", "\u{7f}", "é", "日本", "😀", "-", "_"]
            return (0..<random.int(0..<8)).map { _ in random.pick(pieces) }.joined()
        }
        func value(_ depth: Int) -> JSONValue {
            switch random.int(0..<(depth > 3 ? 5 : 7)) {
            case 0: return .null
            case 1: return .bool(random.chance(0.5))
            case 2: return .integer(Int64(bitPattern: random.next()) >> Int64(random.int(0..<64)))
            case 3:
                let d = Double(bitPattern: random.next())
                return .double(d.isFinite ? d : Double(random.int(-1_000..<1_000)) / 8)
            case 4: return .string(text())
            case 5: return .array((0..<random.int(0..<5)).map { _ in value(depth + 1) })
            default:
                var members: [String: JSONValue] = [:]
                for _ in 0..<random.int(0..<5) { members[text()] = value(depth + 1) }
                return .object(members)
            }
        }
        for _ in 0..<500 { try expectSame(value(0)) }
    }
}
