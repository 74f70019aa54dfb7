import Crypto
import Foundation

/// A hash of the ledger's Merkle tree, as RFC 6962 makes it with SHA-256: a leaf's (`0x00` before
/// the envelope's bytes), a node's (`0x01` before its two children's hashes), a whole tree's.
/// The tree is the transparency log over the ledger's envelopes (`Schemas/ledger-layout.md`).
public struct TreeHash: Hashable, Sendable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    public let bytes: [UInt8]

    /// The hash of 32 bytes; `nil` for any other count.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        self.bytes = Array(bytes)
    }

    init(digest: SHA256.Digest) { bytes = Array(digest) }

    /// The leaf hash of `data` (a stored envelope): SHA-256 of `0x00 ‖ data`.
    public static func leaf(_ data: UnsafeRawBufferPointer) -> TreeHash {
        var hasher = SHA256()
        hasher.update(data: [0])
        hasher.update(bufferPointer: data)
        return TreeHash(digest: hasher.finalize())
    }

    /// The same for bytes in an array.
    public static func leaf(_ data: [UInt8]) -> TreeHash { data.withUnsafeBytes { leaf($0) } }

    /// The hash of the node over `left` and `right`: SHA-256 of `0x01 ‖ left ‖ right`.
    public static func node(_ left: TreeHash, _ right: TreeHash) -> TreeHash {
        var hasher = SHA256()
        hasher.update(data: [1])
        hasher.update(data: left.bytes)
        hasher.update(data: right.bytes)
        return TreeHash(digest: hasher.finalize())
    }

    /// The hash of the tree with no leaves: SHA-256 of nothing.
    public static let empty = TreeHash(digest: SHA256.hash(data: [UInt8]()))

    /// Standard base64 (RFC 4648 §4), as checkpoints and proofs write hashes.
    public var base64: String { Data(bytes).base64EncodedString() }

    /// From standard base64 of 32 bytes; `nil` for anything else.
    public init?(base64: some StringProtocol) {
        guard let data = Data(base64Encoded: String(base64)), data.count == 32 else { return nil }
        bytes = Array(data)
    }

    public var description: String { base64 }
}
