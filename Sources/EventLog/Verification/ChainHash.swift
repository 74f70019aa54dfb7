import Crypto

/// A SHA-256 value in the hash chain.
public struct ChainHash: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = Array(bytes) }
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// SHA-256 of `bytes`, with swift-crypto (libcrypto's one-shot `SHA256` was slower here: a
    /// full verify of 1M events took 0.50 s with it against 0.33–0.35 s).
    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> ChainHash {
        SHA256.hash(data: bytes).withUnsafeBytes { ChainHash($0) }
    }

    /// The same, the digest lent to `body` (no array made).
    public static func sha256<R>(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        SHA256.hash(data: bytes).withUnsafeBytes(body)
    }

    /// The previous hash of the first envelope.
    public static let zero = ChainHash(bytes: [UInt8](repeating: 0, count: 32))

    /// From 64 hex digits; `nil` for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(32)
        for i in stride(from: 0, to: 64, by: 2) {
            guard let hi = Self.nibble(digits[i]), let lo = Self.nibble(digits[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        bytes = out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var description: String { hex }
}
