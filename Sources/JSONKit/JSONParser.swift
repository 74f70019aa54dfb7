#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A strict RFC 8259 parser over UTF-8 bytes, small and allocation-light: payloads are parsed on
/// every replay, so this is on the rebuild's hot path.
@usableFromInline
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    static let maximumDepth = 64
    /// The top-level member whose array elements are delimited, not parsed (see `parse(_:deferringElementsOf:)`).
    private var deferredName: String?
    private var deferred: [Range<Int>]?

    @usableFromInline
    static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected data after the document") }
        return value
    }

    /// Parses a document whose top level is an object, except for the array member `name`: its
    /// elements are only delimited, as byte ranges of `bytes` for the caller to parse one by one
    /// (in parallel, say), and the member is left out of the value. `nil` when there is no such
    /// array. What lies between the elements is checked here; the elements, when parsed.
    static func parse(_ bytes: [UInt8], deferringElementsOf name: String) throws(JSONParseError) -> (JSONValue, [Range<Int>]?) {
        var parser = JSONParser(bytes: bytes)
        parser.deferredName = name
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected data after the document") }
        return (value, parser.deferred)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ reason: String) -> JSONParseError { JSONParseError(offset: index, reason: reason) }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private mutating func value() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end") }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] { throw error("unexpected character") }
        index += count
    }

    private mutating func nest() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func object() throws(JSONParseError) -> JSONValue {
        try nest()
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let deferring = depth == 1 && key == deferredName
            guard !deferring || (deferred == nil && members[key] == nil) else { throw error("duplicate member \"\(key)\"") }
            if deferring, index < bytes.count, bytes[index] == UInt8(ascii: "[") {
                deferred = try delimitElements()
            } else {
                guard members.updateValue(try value(), forKey: key) == nil else { throw error("duplicate member \"\(key)\"") }
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw error("expected ',' or '}'")
        }
        depth -= 1
        return .object(members)
    }

    private mutating func array() throws(JSONParseError) -> JSONValue {
        try nest()
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw error("expected ',' or ']'")
        }
        depth -= 1
        return .array(items)
    }

    /// The byte ranges of an array's elements, from its `[` to past its `]`.
    private mutating func delimitElements() throws(JSONParseError) -> [Range<Int>] {
        index += 1
        var ranges: [Range<Int>] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return ranges
        }
        while true {
            skipWhitespace()
            let start = index
            try skipValue()
            ranges.append(start..<index)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw error("expected ',' or ']'")
        }
        return ranges
    }

    /// Moves past one value without building it: strings and brackets are followed, nothing else
    /// is checked (the value is parsed strictly later).
    private mutating func skipValue() throws(JSONParseError) {
        let result: Result<Int, JSONParseError> = bytes.withUnsafeBufferPointer { b in
            var i = index
            var nesting = 0
            repeat {
                guard i < b.count else { return .failure(JSONParseError(offset: i, reason: "unexpected end")) }
                switch b[i] {
                case UInt8(ascii: "\""):
                    // To the next quote not escaped: memchr, then count the backslashes before it.
                    i += 1
                    while true {
                        guard i < b.count, let found = memchr(b.baseAddress! + i, Int32(UInt8(ascii: "\"")), b.count - i) else {
                            return .failure(JSONParseError(offset: b.count, reason: "unterminated string"))
                        }
                        let quote = UnsafeRawPointer(found) - UnsafeRawPointer(b.baseAddress!)
                        var backslashes = 0
                        while quote - backslashes - 1 >= i, b[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                        i = quote + 1
                        if backslashes % 2 == 0 { break }
                    }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    nesting += 1
                    i += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard nesting > 0 else { return .failure(JSONParseError(offset: i, reason: "unexpected character")) }
                    nesting -= 1
                    i += 1
                case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","):
                    // Between the members of what is being skipped (never at its start: see the caller).
                    guard nesting > 0 else { return .success(i) }
                    i += 1
                default:
                    // A scalar, a colon: up to the next delimiter.
                    scan: while i < b.count {
                        switch b[i] {
                        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["),
                            UInt8(ascii: "}"), UInt8(ascii: "]"):
                            break scan
                        default: i += 1
                        }
                    }
                    if nesting == 0 { return .success(i) }
                }
            } while nesting > 0
            return .success(i)
        }
        switch result {
        case .success(let end): index = min(end, bytes.count)
        case .failure(let failure): throw failure
        }
    }

    private mutating func string() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        var ascii = true
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            guard bytes[index] >= 0x20 else { throw error("control character in a string") }
            if bytes[index] >= 0x80 { ascii = false }
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string") }
        if bytes[index] == UInt8(ascii: "\"") {
            // No escapes (nearly always): the bytes are the string; ASCII needs no validation.
            let end = index
            let text = bytes.withUnsafeBufferPointer { buffer in
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
                return ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
            }
            guard let text else { throw error("invalid UTF-8 in a string") }
            index += 1
            return text
        }
        var scalars = Array(bytes[start..<index])
        while bytes[index] != UInt8(ascii: "\"") {
            // An escape.
            index += 1
            guard index < bytes.count else { throw error("unterminated string") }
            let c = bytes[index]
            index += 1
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(c)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw error("unpaired surrogate")
                }
                scalars.append(contentsOf: String(Character(Unicode.Scalar(code)!)).utf8)
            default: throw error("invalid escape")
            }
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                guard bytes[index] >= 0x20 else { throw error("control character in a string") }
                scalars.append(bytes[index])
                index += 1
            }
            guard index < bytes.count else { throw error("unterminated string") }
        }
        index += 1
        guard let text = String(validating: scalars, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
        return text
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text) else { throw JSONParseError(offset: start, reason: "invalid number") }
        return .double(value)
    }

    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}
