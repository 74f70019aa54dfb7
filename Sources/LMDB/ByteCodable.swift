/// A value that can be stored as an LMDB key or value without an intermediate copy.
///
/// Integers are stored big-endian, so LMDB's byte order is their numeric order.
public protocol LMDBEncodable {
    /// Calls `body` with the bytes that represent `self`; the buffer is valid only inside `body`.
    func withLMDBBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

/// A value that can be read back from the bytes LMDB returns.
public protocol LMDBDecodable {
    /// Decodes a value from bytes that stay valid only for the call: copy what you keep.
    init(lmdbBytes: UnsafeRawBufferPointer) throws
}

public typealias LMDBCodable = LMDBEncodable & LMDBDecodable

/// A stored value did not have the shape its type expects.
public struct LMDBDecodingError: Error, Sendable, CustomStringConvertible {
    public let type: String
    public let byteCount: Int
    public var description: String { "cannot decode \(type) from \(byteCount) bytes" }
}

extension UInt64: LMDBCodable {
    public func withLMDBBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: bigEndian) { try body($0) }
    }
    public init(lmdbBytes b: UnsafeRawBufferPointer) throws {
        guard b.count == 8 else { throw LMDBDecodingError(type: "UInt64", byteCount: b.count) }
        self = UInt64(bigEndian: b.loadUnaligned(as: UInt64.self))
    }
}

extension UInt32: LMDBCodable {
    public func withLMDBBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: bigEndian) { try body($0) }
    }
    public init(lmdbBytes b: UnsafeRawBufferPointer) throws {
        guard b.count == 4 else { throw LMDBDecodingError(type: "UInt32", byteCount: b.count) }
        self = UInt32(bigEndian: b.loadUnaligned(as: UInt32.self))
    }
}

extension Array: LMDBEncodable where Element == UInt8 {
    public func withLMDBBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes { try body($0) }
    }
}

extension Array: LMDBDecodable where Element == UInt8 {
    public init(lmdbBytes b: UnsafeRawBufferPointer) { self.init(b) }
}

extension String: LMDBCodable {
    public func withLMDBBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var copy = self
        return try copy.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
    public init(lmdbBytes b: UnsafeRawBufferPointer) throws {
        guard let s = String(validating: b.bindMemory(to: UInt8.self), as: UTF8.self) else {
            throw LMDBDecodingError(type: "String", byteCount: b.count)
        }
        self = s
    }
}

extension UnsafeRawBufferPointer: LMDBEncodable {
    public func withLMDBBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(self)
    }
}
