import Crypto
import Foundation

/// Names an OMDb key in the budget store without the key: HMAC-SHA256 of the key under a salt
/// of 32 random bytes kept beside the key in Reel's config directory (mode 0600). A plain hash
/// would not do: OMDb's free keys are 8 hexadecimal digits, so any unsalted hash in the cache
/// store could be reversed by trying all 2^32 of them; without the salt the slot says nothing.
///
/// When the salt can be neither read nor made (a read-only config directory), every key shares
/// one slot: the count is then too high for a second key, never too low.
public enum OMDbBudgetSlot {
    public static let shared = "any-key"

    public static func slot(for key: OMDbKey, store: OMDbKeyStore) -> String {
        guard let salt = salt(at: store.saltPath) else { return shared }
        let mac = HMAC<SHA256>.authenticationCode(for: Array(key.secret.utf8), using: SymmetricKey(data: salt))
        return mac.prefix(12).map { String(format: "%02x", $0) }.joined()
    }

    /// The salt at `path`, made when missing.
    static func salt(at path: String) -> [UInt8]? {
        if let bytes = try? CredentialFile.read(path) {
            return bytes.count == 32 ? bytes : nil
        }
        return makeSalt(at: path)
    }

    /// Makes a salt at `path` unless one is there, and answers the one there. Processes that
    /// start together may each find none and make one: the first one made stays and all use it
    /// (a salt replaced after a process read it gave one key two slots, and twice the budget).
    static func makeSalt(at path: String) -> [UInt8]? {
        var generator = SystemRandomNumberGenerator()
        let fresh = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = try? CredentialFile.create(fresh, at: path)
        guard let written = try? CredentialFile.read(path), written.count == 32 else { return nil }
        return written
    }
}
