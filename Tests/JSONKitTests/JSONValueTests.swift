import ReelTestSupport
import Foundation
import JSONKit
import Testing

private func parse(_ text: String) throws(JSONParseError) -> JSONValue { try JSONValue(parsing: Array(text.utf8)) }

/// The error parsing `text` throws, or nil (recorded as an issue) if it parses.
private func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONParseError? {
    parseError(bytes: Array(text.utf8), sourceLocation: sourceLocation)
}

private func parseError(bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> JSONParseError? {
    do {
        let value = try JSONValue(parsing: bytes)
        Issue.record("expected a parse error, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

@Suite struct JSONParsingTests {
    @Test func scalars() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse("0") == .integer(0))
        #expect(try parse("-0") == .integer(0))
        #expect(try parse("42") == .integer(42))
        #expect(try parse("-17") == .integer(-17))
        #expect(try parse("9223372036854775807") == .integer(Int64.max))
        #expect(try parse("-9223372036854775808") == .integer(Int64.min))
        #expect(try parse(#""hi""#) == .string("hi"))
        #expect(try parse(#""""#) == .string(""))
    }

    @Test func numbersWithFractionOrExponentAreDoubles() throws {
        #expect(try parse("1.5") == .double(1.5))
        #expect(try parse("-2.5e3") == .double(-2500))
        #expect(try parse("1E2") == .double(100))
        #expect(try parse("1e+2") == .double(100))
        #expect(try parse("25e-1") == .double(2.5))
        #expect(try parse("0.0") == .double(0))
        // An integer is never a double, even of the same value.
        #expect(try parse("1.0") != .integer(1))
    }

    @Test func integersBeyondInt64BecomeDoubles() throws {
        #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808.0))
        #expect(try parse("-9223372036854775809") == .double(-9_223_372_036_854_775_809.0))
    }

    @Test func stringEscapes() throws {
        #expect(try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) == .string("a\"b\\c/d\u{08}e\u{0C}f\ng\rh\ti"))
        #expect(try parse(#""\u00e9\u00E9""#) == .string("éé"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse(#""x\u20ACy""#) == .string("x€y"))
        // Raw UTF-8 passes through, escapes and raw text mix.
        #expect(try parse(#""grüße \"😀\" end""#) == .string("grüße \"😀\" end"))
    }

    @Test func containersAndWhitespace() throws {
        let value = try parse(" \t\r\n{ \"a\" : [ 1 , 2.5 , \"x\" , null , true , { } , [ ] ] ,\n \"b\":{\"c\":false} } \n")
        #expect(value == .object(["a": .array([.integer(1), .double(2.5), .string("x"), .null, .bool(true), .object([:]), .array([])]), "b": .object(["c": .bool(false)])]))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([:]))
        #expect(try parse("[[[]]]") == .array([.array([.array([])])]))
    }

    @Test func parsesFromAnyByteCollection() throws {
        let bytes = Array(#"xx{"a":1}"#.utf8)
        #expect(try JSONValue(parsing: bytes[2...]) == ["a": 1])
    }

    @Test(arguments: [
        "", "   ", "nul", "tru", "True", "nulls", "NaN", "Infinity", "-Infinity", "undefined",
        "01", "-01", "1.", ".5", "-", "+1", "1e", "1e+", "1.e3", "0x10", "--1",
        "[", "]", "[1,]", "[,1]", "[1 2]", "[1,,2]", "{", "}", "{,}", #"{"a"}"#, #"{"a" 1}"#, #"{"a":}"#,
        #"{"a":1,}"#, #"{"a":1 "b":2}"#, "{1:2}", "{'a':1}", #"{"a":1,"a":2}"#, "[] []", "1 2",
        #""abc"#, #""\x""#, #""\u12""#, #""\u12G4""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#,
        #""\ud800x""#, "\"a\tb\"", "\"a\nb\"", "\"\u{1F}\"", "'single'",
    ])
    func rejectsInvalidDocuments(_ text: String) {
        _ = parseError(text)
    }

    @Test func rejectsInvalidUTF8InStrings() {
        _ = parseError(bytes: [0x22, 0xFF, 0x22])
        _ = parseError(bytes: [0x22, 0x61, 0x5C, 0x6E, 0xC3, 0x22])  // "a\n then a truncated 2-byte sequence
        _ = parseError(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22])  // an encoded surrogate
    }

    @Test func errorsNameTheByteOffset() throws {
        #expect(parseError("") == JSONParseError(offset: 0, reason: "unexpected end"))
        #expect(parseError("   ") == JSONParseError(offset: 3, reason: "unexpected end"))
        #expect(parseError("[1,]") == JSONParseError(offset: 3, reason: "unexpected character"))
        #expect(parseError("01") == JSONParseError(offset: 1, reason: "unexpected data after the document"))
        #expect(parseError("[1 2]") == JSONParseError(offset: 3, reason: "expected ',' or ']'"))
        #expect(parseError(#"{"a" 1}"#) == JSONParseError(offset: 5, reason: "expected ':'"))
        #expect(parseError("{1:2}") == JSONParseError(offset: 1, reason: "expected a member name"))
        #expect(parseError("\"ab") == JSONParseError(offset: 3, reason: "unterminated string"))
        let duplicate = try #require(parseError(#"{"a":1,"a":2}"#))
        #expect(duplicate.reason.contains("duplicate"))
        #expect(duplicate.description == "invalid JSON at byte \(duplicate.offset): \(duplicate.reason)")
    }

    @Test func nestingIsLimitedTo64Levels() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        var expected = JSONValue.array([])
        for _ in 1..<64 { expected = .array([expected]) }
        #expect(try parse(deepest) == expected)

        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(parseError(tooDeep)?.reason.contains("nested deeper") == true)

        let objects = String(repeating: #"{"a":"#, count: 64) + "1" + String(repeating: "}", count: 64)
        #expect(throws: Never.self) { try parse(objects) }
        let tooDeepObjects = String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)
        _ = parseError(tooDeepObjects)

        // Depth counts the open containers, not how many were seen: siblings do not add up.
        let wide = "[" + Array(repeating: String(repeating: "[", count: 63) + String(repeating: "]", count: 63), count: 10)
            .joined(separator: ",") + "]"
        #expect(throws: Never.self) { try parse(wide) }
    }
}

@Suite struct JSONEncodingTests {
    @Test func encodingIsCompactWithSortedKeys() {
        let value: JSONValue = ["zeta": 1, "alpha": [true, .null, "x"], "mid": ["b": false, "a": .double(0.5)]]
        #expect(value.text == #"{"alpha":[true,null,"x"],"mid":{"a":0.5,"b":false},"zeta":1}"#)
        #expect(value.encoded() == Array(value.text.utf8))
    }

    @Test func equalValuesEncodeToTheSameBytes() {
        var a: [String: JSONValue] = [:]
        var b: [String: JSONValue] = [:]
        let keys = (0..<50).map { "key\($0)" }
        for k in keys { a[k] = .string(k) }
        for k in keys.reversed() { b[k] = .string(k) }
        #expect(JSONValue.object(a).encoded() == JSONValue.object(b).encoded())
    }

    @Test func scalarsEncode() {
        #expect(JSONValue.null.text == "null")
        #expect(JSONValue.bool(true).text == "true")
        #expect(JSONValue.bool(false).text == "false")
        #expect(JSONValue.integer(-42).text == "-42")
        #expect(JSONValue.integer(Int64.min).text == "-9223372036854775808")
        #expect(JSONValue.double(1.5).text == "1.5")
        #expect(JSONValue.array([]).text == "[]")
        #expect(JSONValue.object([:]).text == "{}")
    }

    @Test func nonFiniteDoublesEncodeAsNull() {
        #expect(JSONValue.double(.infinity).text == "null")
        #expect(JSONValue.double(-.infinity).text == "null")
        #expect(JSONValue.double(.nan).text == "null")
    }

    @Test func stringsAreEscaped() {
        #expect(JSONValue.string("a\"b\\c").text == #""a\"b\\c""#)
        #expect(JSONValue.string("\n\r\t").text == #""\n\r\t""#)
        #expect(JSONValue.string("\u{0}\u{1}\u{8}\u{C}\u{1F}").text == #""\u0000\u0001\u0008\u000c\u001f""#)
        // '/', DEL and non-ASCII are written as they are.
        #expect(JSONValue.string("a/b\u{7F}é😀").text == "\"a/b\u{7F}é😀\"")
        #expect(JSONValue.object(["k\"ey\n": 1]).text == #"{"k\"ey\n":1}"#)
    }

    @Test func roundTripsByHand() throws {
        let values: [JSONValue] = [
            .null, true, false, 0, -1, .integer(Int64.max), .integer(Int64.min), .double(0.1), .double(-2.5e-7),
            .double(1e300), .double(123_456.789), .double(3.0), .double(1e16), .double(.leastNonzeroMagnitude),
            "", "plain", "quote \" backslash \\ slash / controls \u{0}\u{1}\u{1F}\n\r\t", "ünïcødé 😀 \u{2028}",
            [], [[], [:], [1, "2", .double(3.5)]], ["": "empty key", "nested": ["deeper": [.null]]],
        ]
        for value in values {
            #expect(try JSONValue(parsing: value.encoded()) == value, "\(value.text)")
        }
    }

    @Test func parsingThenEncodingCanonicalises() throws {
        #expect(try parse(" { \"b\" : 1 , \"a\" : [ 2 , 3 ] } ").text == #"{"a":[2,3],"b":1}"#)
        #expect(try parse(#""\u0041\/""#).text == #""A/""#)
    }

    /// Random documents, seeded: every one parses back from its encoding to an equal value, and
    /// re-encoding gives the same bytes.
    @Test(arguments: 0..<20)
    func randomDocumentsRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<25 {
            let value = randomJSON(depth: 0, using: &rng)
            let bytes = value.encoded()
            let back = try JSONValue(parsing: bytes)
            #expect(back == value, "seed \(seed): \(value.text)")
            #expect(back.encoded() == bytes)
        }
    }

    private func randomString(using rng: inout SplitMix64) -> String {
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}",
            "\u{C}", "\u{D}", "\u{1F}", "\u{7F}", "é", "ß", "€", "\u{2028}", "\u{FFFD}", "😀", "𝄞"]
        var s = String.UnicodeScalarView()
        for _ in 0..<rng.int(0..<12) { s.append(rng.pick(pool)) }
        return String(s)
    }

    private func randomJSON(depth: Int, using rng: inout SplitMix64) -> JSONValue {
        let leafOnly = depth >= 5
        switch rng.int(0..<(leafOnly ? 5 : 7)) {
        case 0: return .null
        case 1: return .bool(rng.chance(0.5))
        case 2: return .integer(Int64(bitPattern: rng.next()) >> UInt64(rng.int(0..<64)))
        case 3:
            while true {
                let d = Double(bitPattern: rng.next())
                if d.isFinite { return .double(rng.chance(0.5) ? d : (d.truncatingRemainder(dividingBy: 1e6))) }
            }
        case 4: return .string(randomString(using: &rng))
        case 5: return .array((0..<rng.int(0..<5)).map { _ in randomJSON(depth: depth + 1, using: &rng) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<rng.int(0..<5) { members[randomString(using: &rng)] = randomJSON(depth: depth + 1, using: &rng) }
            return .object(members)
        }
    }
}

@Suite struct JSONAccessorTests {
    @Test func subscriptReadsObjectMembersOnly() {
        let value: JSONValue = ["a": 1, "b": ["c": "d"]]
        #expect(value["a"] == .integer(1))
        #expect(value["b"]?["c"] == .string("d"))
        #expect(value["missing"] == nil)
        #expect(JSONValue.array([1])["a"] == nil)
        #expect(JSONValue.string("a")["a"] == nil)
    }

    @Test func stringValue() {
        #expect(JSONValue.string("x").stringValue == "x")
        #expect(JSONValue.integer(1).stringValue == nil)
        #expect(JSONValue.null.stringValue == nil)
    }

    @Test func integerValueAcceptsIntegralDoubles() {
        #expect(JSONValue.integer(7).integerValue == 7)
        #expect(JSONValue.double(7).integerValue == 7)
        #expect(JSONValue.double(-7).integerValue == -7)
        #expect(JSONValue.double(7.5).integerValue == nil)
        #expect(JSONValue.double(8.9e15).integerValue == 8_900_000_000_000_000)
        #expect(JSONValue.double(9.0e15).integerValue == nil)
        #expect(JSONValue.double(1e300).integerValue == nil)
        #expect(JSONValue.double(.nan).integerValue == nil)
        #expect(JSONValue.double(.infinity).integerValue == nil)
        #expect(JSONValue.string("7").integerValue == nil)
        #expect(JSONValue.bool(true).integerValue == nil)
    }

    @Test func objectValue() {
        #expect(JSONValue.object(["a": .null]).objectValue == ["a": .null])
        #expect(JSONValue.array([]).objectValue == nil)
    }

    @Test func literals() {
        let s: JSONValue = "text"
        let i: JSONValue = 12
        let b: JSONValue = false
        let a: JSONValue = [1, "x"]
        let o: JSONValue = ["k": true]
        #expect(s == .string("text"))
        #expect(i == .integer(12))
        #expect(b == .bool(false))
        #expect(a == .array([.integer(1), .string("x")]))
        #expect(o == .object(["k": .bool(true)]))
        // A repeated key in a literal keeps the last value rather than trapping.
        let repeated: JSONValue = ["k": 1, "k": 2]
        #expect(repeated == ["k": 2])
    }

    @Test func casesAreDistinct() {
        #expect(JSONValue.integer(1) != .double(1))
        #expect(JSONValue.string("1") != .integer(1))
        #expect(JSONValue.null != .object([:]))
        #expect(JSONValue.array([]) != .object([:]))
        #expect(Set<JSONValue>([.integer(1), .double(1), .string("1"), .integer(1)]).count == 3)
    }
}

@Suite struct JSONValueEncodableTests {
    @Test func encodesThroughFoundationToTheSameDocument() throws {
        let values: [JSONValue] = [
            ["handle": "ann", "ids": [1, 2, .integer(Int64.max), .integer(Int64.min)], "photo": .null, "ok": true, "ratio": .double(0.25)],
            [[], [:], "quote \" and \\ and \n", "😀"],
            .null, false, -3, "text",
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for value in values {
            let data = try encoder.encode(value)
            #expect(try JSONValue(parsing: Array(data)) == value, "\(String(decoding: data, as: UTF8.self))")
        }
        let object: JSONValue = ["b": 1, "a": ["x": "y"]]
        #expect(String(decoding: try encoder.encode(object), as: UTF8.self) == object.text)
    }

    @Test func optionalInitialiser() {
        #expect(JSONValue(nil) == .null)
        #expect(JSONValue(JSONValue.integer(3)) == .integer(3))
        let missing: JSONValue? = JSONValue.object([:])["absent"]
        #expect(JSONValue(missing) == .null)
    }
}

/// `JSONValue.parse(_:deferringElementsOf:)`: the big array of an export is only delimited, its
/// elements parsed one by one; together that must read exactly what the whole parse reads.
@Suite struct DeferredArrayParsingTests {
    static func deferred(_ text: String) throws -> (JSONValue, [JSONValue]?) {
        let bytes = Array(text.utf8)
        let (value, ranges) = try JSONValue.parse(bytes, deferringElementsOf: "history")
        return (value, try ranges?.map { try JSONValue(parsing: bytes[$0]) })
    }

    @Test(arguments: [
        #"{"a":1,"history":[{"x":"]}\"{["},[1,[2,{}]],"s\\",-1.5e3,true,null,{}],"b":[3]}"#,
        #"{ "history" : [ ] , "b" : { "history" : [1] } }"#,
        #"{"history":[ 7 ,"x" , {"k":[]} ]}"#,
        "{\"history\":[\n{\"a\": \"\\u00e9\"},\n{\"b\": 2}\n]\n}\n",
    ])
    func readsWhatTheWholeParseReads(_ text: String) throws {
        let whole = try JSONValue(parsing: Array(text.utf8))
        let (value, elements) = try Self.deferred(text)
        guard case .object(var members) = whole, case .array(let items)? = members.removeValue(forKey: "history") else {
            Issue.record("no history in \(text)")
            return
        }
        #expect(value == .object(members))
        #expect(elements == items)
    }

    @Test func onlyATopLevelArrayIsDeferred() throws {
        #expect(try Self.deferred(#"{"history":"none"}"#).1 == nil)
        #expect(try Self.deferred(#"{"x":{"history":[1]}}"#).1 == nil)
        #expect(try Self.deferred(#"[{"history":[1]}]"#).1 == nil)
    }

    @Test(arguments: [
        #"{"history":[1,,2]}"#, #"{"history":[1 2]}"#, #"{"history":[{"a":1}"#, #"{"history":["open]}"#,
        #"{"history":[{"a":]}]}"#, #"{"history":[{"a":1}],"history":[]}"#, #"{"history":[1]} x"#, #"{"history":[tru]}"#,
        #"{"history":[{"a":1}}]}"#,
    ])
    func malformedDocumentsFailSomewhere(_ text: String) {
        #expect(throws: JSONParseError.self, "\(text)") { _ = try Self.deferred(text) }
        #expect(throws: JSONParseError.self, "\(text)") { _ = try JSONValue(parsing: Array(text.utf8)) }
    }
}
