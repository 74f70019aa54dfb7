/// Bytes a store lends for the length of a call, as a `RawSpan`: bounds-checked and unable to
/// escape the call, so no pointer into a store's pages or buffers reaches the code above it.
extension RawSpan {
    /// Whether the bytes begin with `prefix`.
    public func starts(with prefix: [UInt8]) -> Bool {
        guard byteCount >= prefix.count else { return false }
        for (offset, byte) in prefix.enumerated() where unsafeLoad(fromByteOffset: offset, as: UInt8.self) != byte { return false }
        return true
    }

    /// Whether the bytes are exactly `bytes`.
    public func equals(_ bytes: [UInt8]) -> Bool { byteCount == bytes.count && starts(with: bytes) }

    /// The offset of the first byte that is `byte`, if any.
    public func firstIndex(of byte: UInt8) -> Int? {
        (0..<byteCount).first { self[byteAt: $0] == byte }
    }

    /// The byte at `offset` (bounds-checked).
    public subscript(byteAt offset: Int) -> UInt8 { unsafeLoad(fromByteOffset: offset, as: UInt8.self) }
}

extension Array where Element == UInt8 {
    /// A copy of bytes a store lent.
    public init(_ span: RawSpan) {
        self = span.withUnsafeBytes { Array($0) }
    }
}
