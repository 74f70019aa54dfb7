/// A JSON document as a value: what event payloads are made of, what upcasters rewrite, what
/// `--json` prints and what the sample catalog answers with.
///
/// `encoded()` is deterministic (object keys sorted, no insignificant whitespace), so the same
/// event always serialises to the same bytes.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses UTF-8 JSON text (RFC 8259); throws `JSONParseError` naming the byte offset.
    ///
    /// Inlinable so that a caller in another module copies its bytes (an array, a slice of an
    /// export) specialised for their type, not element by element through the generic
    /// `Collection` witnesses; replays parse every payload through here.
    @inlinable
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        self = try JSONParser.parse(Array(bytes))
    }

    /// How deep arrays and objects may nest in a document (the document's own value is level 1).
    public static var maximumDepth: Int { JSONParser.maximumDepth }

    /// Parses a document whose top level is an object, leaving out the array member `name`,
    /// whose elements are only delimited: byte ranges of `bytes`, each to be parsed on its own
    /// (a large array, in parallel, without a tree of the whole). `nil` when there is no such array.
    public static func parse(_ bytes: [UInt8], deferringElementsOf name: String) throws(JSONParseError) -> (value: JSONValue, elements: [Range<Int>]?) {
        try JSONParser.parse(bytes, deferringElementsOf: name)
    }

    @inlinable
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    @inlinable
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    @inlinable
    public var integerValue: Int64? {
        switch self {
        case .integer(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int64(d)
        default: return nil
        }
    }

    @inlinable
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(to: &out)
        return out
    }

    public var text: String { String(decoding: encoded(), as: UTF8.self) }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
            if d.isFinite { out.append(contentsOf: "\(d)".utf8) } else { out.append(contentsOf: "null".utf8) }
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `"s"` with JSON escapes to `out`; `backspaceAndFormFeed` writes 0x08 and 0x0C as
    /// `\b` and `\f` (JSONEncoder's way) instead of `\u0008` and `\u000c` (the canonical form's).
    /// Public for writers that make JSON bytes directly, without a tree (the ledger's canonical
    /// favorites, the credentials file).
    public static func writeString(_ s: String, backspaceAndFormFeed: Bool = false, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x08 where backspaceAndFormFeed: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C where backspaceAndFormFeed: out.append(contentsOf: #"\f"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByArrayLiteral, ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .integer(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let items): try container.encode(items)
        case .object(let members): try container.encode(members)
        }
    }
}

extension JSONValue {
    /// `.null` for `nil`, else the wrapped value.
    @inlinable
    public init(_ optional: JSONValue?) { self = optional ?? .null }
}

extension JSONValue {
    /// An object with `other`'s members added (replacing members of the same name); any other
    /// value is returned as it is.
    @inlinable
    public func merging(_ other: [String: JSONValue]) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.merging(other) { _, new in new })
    }
}
