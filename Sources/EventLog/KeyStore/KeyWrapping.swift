public import Crypto
import Failures
public import Foundation

/// Account keys stored wrapped under a key-encryption key (KEK) that is kept outside the store
/// (`Schemas/keyring-layout.md`): AES-256-GCM over the 32-byte key, bound to the store, the stream
/// and the KEK's generation, so a wrapped key moved to another row, store or generation does not
/// open. A store keeps only wrapped keys; destroying a generation's KEK makes every copy of the
/// keys wrapped under it (a dead row, the WAL, a standby, a backup) unreadable.
@_spi(Stores) public enum KeyWrapping {
    /// Bytes of a wrapped key: a 12-byte nonce, the 32-byte key sealed, a 16-byte tag.
    public static let wrappedSize = 60

    /// Wraps `key` (32 bytes) for `stream` under `kek`, the KEK of `generation` of the keyring of `store`.
    public static func wrap(_ key: [UInt8], stream: String, generation: UInt64, store: UUID, under kek: SymmetricKey) throws -> [UInt8] {
        precondition(key.count == 32, "a stream key is 32 bytes")
        let box = try AES.GCM.seal(key, using: kek, authenticating: context(stream: stream, generation: generation, store: store))
        return Array(box.nonce) + Array(box.ciphertext) + Array(box.tag)
    }

    /// Opens a wrapped key; `nil` when it does not authenticate (another store, stream or
    /// generation, or changed bytes).
    public static func unwrap(_ wrapped: [UInt8], stream: String, generation: UInt64, store: UUID, under kek: SymmetricKey) -> [UInt8]? {
        guard wrapped.count == wrappedSize, let nonce = try? AES.GCM.Nonce(data: wrapped[0..<12]),
            let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: wrapped[12..<44], tag: wrapped[44..<60]),
            let key = try? AES.GCM.open(box, using: kek, authenticating: context(stream: stream, generation: generation, store: store))
        else { return nil }
        return Array(key)
    }

    /// What the store records of a generation's KEK so that a keyring can be matched to it without
    /// the store holding anything that opens a key: HMAC-SHA256 under the KEK of the store and the
    /// generation.
    public static func check(of kek: SymmetricKey, generation: UInt64, store: UUID) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: checkContext(generation: generation, store: store), using: kek))
    }

    static func context(stream: String, generation: UInt64, store: UUID) -> [UInt8] {
        Array("reel-key-wrap/1".utf8) + [0] + Array(store.uuidString.lowercased().utf8) + [0] + Array(stream.utf8) + [0] + bigEndian(generation)
    }

    static func checkContext(generation: UInt64, store: UUID) -> [UInt8] {
        Array("reel-keyring-check/1".utf8) + [0] + Array(store.uuidString.lowercased().utf8) + [0] + bigEndian(generation)
    }

    static func bigEndian(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
}
