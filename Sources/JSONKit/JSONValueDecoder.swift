/// Decodes `Decodable` values from JSON text through `JSONValue`, with Foundation's `JSONDecoder`
/// rules for what models meet (its default strategies): a number decodes as any numeric type
/// it fits exactly, a missing key is `keyNotFound`, a null where a value is required is
/// `valueNotFound`, a value of another type is `typeMismatch` naming the type expected, and each
/// error carries the coding path. Text that is not JSON throws `JSONParseError`.
///
/// So that TMDb's answers are read by the same strict parser as everything else in Reel, and
/// without Foundation. Dates, data and URLs get no special treatment: no model decodes them.
public struct JSONValueDecoder: Sendable {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: try JSONValue(parsing: bytes))
    }

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value, codingPath: []).unwrap(T.self)
    }
}

/// A coding key for an array's element, or for a super decoder.
private struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(_ index: Int) {
        intValue = index
        stringValue = "Index \(index)"
    }

    init?(intValue: Int) { self.init(intValue) }

    init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    static let superKey = IndexKey(stringValue: "super")!
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, codingPath: [any CodingKey]) {
        self.value = value
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .object(let members): return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
        case .null:
            throw DecodingError.valueNotFound(
                [String: Any].self, .init(codingPath: codingPath, debugDescription: "Cannot get keyed decoding container -- found null value instead")
            )
        default: throw mismatch([String: Any].self)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let items): return UnkeyedContainer(items: items, codingPath: codingPath)
        case .null:
            throw DecodingError.valueNotFound(
                [Any].self, .init(codingPath: codingPath, debugDescription: "Cannot get unkeyed decoding container -- found null value instead")
            )
        default: throw mismatch([Any].self)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(kind) instead."))
    }

    private var kind: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }

    private func missing(_ type: Any.Type) -> DecodingError {
        DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
    }

    /// A type other than a number, a string or a flag decodes itself, with this decoder; those
    /// (the elements of `[Int]` and `[String]`, say) are read here, without a container.
    func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Int.self, let value = try integer(Int.self) as? T { return value }
        if T.self == String.self, let value = try string() as? T { return value }
        if T.self == Double.self, let value = try double() as? T { return value }
        if T.self == Bool.self, let value = try bool() as? T { return value }
        return try T(from: self)
    }

    func bool() throws -> Bool {
        switch value {
        case .bool(let b): return b
        case .null: throw missing(Bool.self)
        default: throw mismatch(Bool.self)
        }
    }

    func string() throws -> String {
        switch value {
        case .string(let s): return s
        case .null: throw missing(String.self)
        default: throw mismatch(String.self)
        }
    }

    func double() throws -> Double {
        switch value {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        case .null: throw missing(Double.self)
        default: throw mismatch(Double.self)
        }
    }

    func float() throws -> Float {
        let d = try double()
        guard d.magnitude <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(d)> does not fit in Float."))
        }
        return Float(d)
    }

    /// A number that is an integer of `T`'s range (`5`, `5.0`, `5e0`); any other number is
    /// corrupt data, as for JSONDecoder.
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let fitted: T?
        switch value {
        case .integer(let i): fitted = T(exactly: i)
        case .double(let d): fitted = T(exactly: d)
        case .null: throw missing(T.self)
        default: throw mismatch(T.self)
        }
        guard let fitted else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number does not fit in \(T.self)."))
        }
        return fitted
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func decoder(_ key: Key) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\").")
            )
        }
        return ValueDecoder(value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(key).value == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(key).double() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(key).float() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(key).unwrap(type) }

    /// Nil for a missing key or a null, as JSONDecoder; spelled out to look the key up once.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = members[key.stringValue], value != .null else { return nil }
        return try ValueDecoder(value, codingPath: codingPath + [key]).string()
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = members[key.stringValue], value != .null else { return nil }
        return try ValueDecoder(value, codingPath: codingPath + [key]).integer(type)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = members[key.stringValue], value != .null else { return nil }
        return try ValueDecoder(value, codingPath: codingPath + [key]).double()
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = members[key.stringValue], value != .null else { return nil }
        return try ValueDecoder(value, codingPath: codingPath + [key]).bool()
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members[key.stringValue], value != .null else { return nil }
        return try ValueDecoder(value, codingPath: codingPath + [key]).unwrap(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder(key).unkeyedContainer() }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(members["super"] ?? .null, codingPath: codingPath + [IndexKey.superKey])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next element's decoder, moving past it.
    private mutating func next(_ type: Any.Type) throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end.")
            )
        }
        defer { currentIndex += 1 }
        return ValueDecoder(items[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any?.self, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end.")
            )
        }
        guard items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).bool() }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).string() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).double() }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).float() }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).integer(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).unwrap(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next([Any].self).unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
    func decode(_ type: String.Type) throws -> String { try decoder.string() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.double() }
    func decode(_ type: Float.Type) throws -> Float { try decoder.float() }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unwrap(type) }
}
