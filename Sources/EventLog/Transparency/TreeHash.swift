import Crypto
import Foundation

/// A hash of the ledger's Merkle tree, as RFC 6962 makes it with SHA-256: a leaf's (`0x00` before
/// the envelope's bytes), a node's (`0x01` before its two children's hashes), a whole tree's.
/// The tree is the transparency log over the ledger's envelopes (`Schemas/ledger-layout.md`).
/// Its 32 bytes are kept inline (no allocation): appends make one or two per event. Four words,
/// not a `SIMD4`: a 32-byte-aligned vector is not kept aligned in an async function's frame.
public struct TreeHash: Hashable, Sendable, CustomStringConvertible {
    private var storage: (UInt64, UInt64, UInt64, UInt64)

    public static func == (a: TreeHash, b: TreeHash) -> Bool {
        a.storage.0 == b.storage.0 && a.storage.1 == b.storage.1 && a.storage.2 == b.storage.2 && a.storage.3 == b.storage.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.0)
        hasher.combine(storage.1)
        hasher.combine(storage.2)
        hasher.combine(storage.3)
    }

    /// The 32 bytes of the digest.
    public var bytes: [UInt8] { withUnsafeBytes(of: storage) { Array($0) } }

    /// Lends `body` the 32 bytes.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: storage, body)
    }

    private init(copying raw: UnsafeRawBufferPointer) {
        storage = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw.prefix(32))) }
    }

    /// The hash of the 32 bytes `raw` holds; `nil` for any other count.
    public init?(raw: UnsafeRawBufferPointer) {
        guard raw.count == 32 else { return nil }
        self.init(copying: raw)
    }

    /// The hash of 32 bytes; `nil` for any other count.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        storage = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &storage) { out in
            for (index, byte) in bytes.enumerated() { out[index] = byte }
        }
    }

    init(digest: SHA256.Digest) {
        storage = (0, 0, 0, 0)
        digest.withUnsafeBytes { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
    }

    /// The leaf hash of `data` (a stored envelope): SHA-256 of `0x00 ‖ data`.
    public static func leaf(_ data: UnsafeRawBufferPointer) -> TreeHash {
        // The prefix and the data in one buffer, hashed in one update: after a 1-byte update the
        // hasher would copy every block of the data through its own buffer.
        withUnsafeTemporaryAllocation(byteCount: data.count + 1, alignment: 16) { buffer in
            buffer[0] = 0
            if let base = data.baseAddress, data.count > 0 { (buffer.baseAddress! + 1).copyMemory(from: base, byteCount: data.count) }
            return TreeHash(digest: SHA256.hash(data: UnsafeRawBufferPointer(buffer)))
        }
    }

    /// The same for bytes in an array.
    public static func leaf(_ data: [UInt8]) -> TreeHash { data.withUnsafeBytes { leaf($0) } }

    /// The hash of the node over `left` and `right`: SHA-256 of `0x01 ‖ left ‖ right`.
    public static func node(_ left: TreeHash, _ right: TreeHash) -> TreeHash {
        withUnsafeTemporaryAllocation(byteCount: 65, alignment: 16) { buffer in
            buffer[0] = 1
            left.withBytes { (buffer.baseAddress! + 1).copyMemory(from: $0.baseAddress!, byteCount: 32) }
            right.withBytes { (buffer.baseAddress! + 33).copyMemory(from: $0.baseAddress!, byteCount: 32) }
            return TreeHash(digest: SHA256.hash(data: UnsafeRawBufferPointer(buffer)))
        }
    }

    /// The hash of the tree with no leaves: SHA-256 of nothing.
    public static let empty = TreeHash(digest: SHA256.hash(data: [UInt8]()))

    /// Standard base64 (RFC 4648 §4), as checkpoints and proofs write hashes.
    public var base64: String { Data(bytes).base64EncodedString() }

    /// From standard base64 of 32 bytes; `nil` for anything else.
    public init?(base64: some StringProtocol) {
        guard let data = Data(base64Encoded: String(base64)), data.count == 32 else { return nil }
        self.init(bytes: data)
    }

    public var description: String { base64 }
}
