import JSONKit
import Ledger

/// Reads one object of the sample catalog's JSON into facts, with JSONDecoder's rules for the
/// shapes the facts use (an optional field may be missing or null; a number may be written as an
/// integer). The bundled catalog is read by every command that uses it, so this reads the parsed
/// tree directly instead of through `Decodable`, which was the larger part of a short command's time.
struct SampleFactReader {
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    private let members: [String: JSONValue]
    private let path: String

    init(_ value: JSONValue, path: String) throws(Failure) {
        guard case .object(let members) = value else { throw Failure(path: path, reason: "expected an object") }
        self.members = members
        self.path = path
    }

    /// Each element of a top-level array, read by `make`.
    static func list<T>(_ value: JSONValue, path: String, _ make: (SampleFactReader) throws(Failure) -> T) throws(Failure) -> [T] {
        guard case .array(let items) = value else { throw Failure(path: path, reason: "expected an array") }
        var read: [T] = []
        read.reserveCapacity(items.count)
        for (i, item) in items.enumerated() { read.append(try make(SampleFactReader(item, path: "\(path)[\(i)]"))) }
        return read
    }

    private func failure(_ name: String, _ reason: String) -> Failure { Failure(path: "\(path).\(name)", reason: reason) }

    /// The member `name`, nil when it is missing or null.
    private func member(_ name: String) -> JSONValue? {
        guard let value = members[name] else { return nil }
        if case .null = value { return nil }
        return value
    }

    private func required(_ name: String) throws(Failure) -> JSONValue {
        guard let value = member(name) else { throw failure(name, "missing") }
        return value
    }

    private func int(_ value: JSONValue, _ name: String) throws(Failure) -> Int {
        guard let n = value.integerValue, let int = Int(exactly: n) else { throw failure(name, "expected an integer") }
        return int
    }

    private func string(_ value: JSONValue, _ name: String) throws(Failure) -> String {
        guard case .string(let s) = value else { throw failure(name, "expected a string") }
        return s
    }

    func int(_ name: String) throws(Failure) -> Int { try int(required(name), name) }

    func optionalInt(_ name: String) throws(Failure) -> Int? { try member(name).map { v throws(Failure) in try int(v, name) } }

    func double(_ name: String) throws(Failure) -> Double {
        switch try required(name) {
        case .double(let d): return d
        case .integer(let i): return Double(i)
        default: throw failure(name, "expected a number")
        }
    }

    func bool(_ name: String) throws(Failure) -> Bool {
        guard case .bool(let b) = try required(name) else { throw failure(name, "expected true or false") }
        return b
    }

    func string(_ name: String) throws(Failure) -> String { try string(required(name), name) }

    func optionalString(_ name: String) throws(Failure) -> String? { try member(name).map { v throws(Failure) in try string(v, name) } }

    func strings(_ name: String) throws(Failure) -> [String] {
        try array(name).map { v throws(Failure) in try string(v, name) }
    }

    func ints(_ name: String) throws(Failure) -> [Int] {
        try array(name).map { v throws(Failure) in try int(v, name) }
    }

    /// The member `name` read by `make` (given the value and where it is), nil when it is missing or null.
    func optional<T>(_ name: String, _ make: (JSONValue, String) throws(Failure) -> T) throws(Failure) -> T? {
        guard let value = member(name) else { return nil }
        return try make(value, "\(path).\(name)")
    }

    /// The objects of the array `name`, each read by `make`.
    func objects<T>(_ name: String, _ make: (SampleFactReader) throws(Failure) -> T) throws(Failure) -> [T] {
        try Self.list(required(name), path: "\(path).\(name)", make)
    }

    /// The object `name` as a dictionary of objects, each read by `make`.
    func dictionary<T>(_ name: String, _ make: (SampleFactReader) throws(Failure) -> T) throws(Failure) -> [String: T] {
        guard case .object(let entries) = try required(name) else { throw failure(name, "expected an object") }
        var read: [String: T] = [:]
        read.reserveCapacity(entries.count)
        for (key, value) in entries { read[key] = try make(SampleFactReader(value, path: "\(path).\(name).\(key)")) }
        return read
    }

    private func array(_ name: String) throws(Failure) -> [JSONValue] {
        guard case .array(let items) = try required(name) else { throw failure(name, "expected an array") }
        return items
    }
}
