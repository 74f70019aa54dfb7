import Crypto
import Foundation

/// A log's Ed25519 signing key as C2SP signed-note names it: a key name, and the key hash that
/// binds the name to the public key (the first four bytes of SHA-256 of `name ‖ "\n" ‖ 0x01 ‖
/// public key`). Written out in the Go checksum database's text form (`PRIVATE+KEY+…`), which
/// `golang.org/x/mod/sumdb/note` reads.
public struct NoteKey: Sendable {
    /// The key's name: the log's origin.
    public let name: String
    private let key: Curve25519.Signing.PrivateKey

    /// A new key named `name` (no spaces, no `+`, not empty).
    public init(generatingFor name: String) {
        precondition(NoteVerifier.isValidName(name), "a note key name has no spaces and no +")
        self.name = name
        key = Curve25519.Signing.PrivateKey()
    }

    /// The key `text` holds (`PRIVATE+KEY+name+hash+base64(0x01 ‖ seed)`); `nil` for anything
    /// else, a key hash that does not match included.
    public init?(text: String) {
        // The key's base64 may hold `+` itself: only the first four split.
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "+", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "PRIVATE", parts[1] == "KEY", NoteVerifier.isValidName(String(parts[2])),
            let data = Data(base64Encoded: String(parts[4])), data.count == 33, data.first == 1,
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: data.dropFirst())
        else { return nil }
        name = String(parts[2])
        self.key = key
        guard String(parts[3]) == NoteVerifier.hex(keyHash) else { return nil }
    }

    /// The key as text, to be kept secret.
    public var text: String { "PRIVATE+KEY+\(name)+\(NoteVerifier.hex(keyHash))+\(Data([1] + key.rawRepresentation).base64EncodedString())" }

    /// The public key, as C2SP and the Go checksum database write it: `name+hash+base64(0x01 ‖ key)`.
    public var verifierKey: String { NoteVerifier.verifierKey(name: name, publicKey: Array(key.publicKey.rawRepresentation)) }

    var keyHash: [UInt8] { NoteVerifier.keyHash(name: name, publicKey: Array(key.publicKey.rawRepresentation)) }

    /// `body` (lines each ending in a newline) signed: the body, a blank line, and the signature
    /// line `— name base64(key hash ‖ signature)`.
    public func sign(_ body: String) throws -> String {
        let signature = try key.signature(for: Data(body.utf8))
        return body + "\n" + "\u{2014} \(name) \(Data(keyHash + Array(signature)).base64EncodedString())\n"
    }
}

/// Checks notes signed by one key (`NoteKey.verifierKey`), as C2SP signed-note reads them.
public struct NoteVerifier: Sendable {
    public let name: String
    let keyHash: [UInt8]
    let key: Curve25519.Signing.PublicKey

    /// The verifier of `text` (`name+hash+base64(0x01 ‖ key)`); `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, Self.isValidName(String(parts[0])), let data = Data(base64Encoded: String(parts[2])), data.count == 33,
            data.first == 1, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: data.dropFirst())
        else { return nil }
        name = String(parts[0])
        self.key = key
        keyHash = Self.keyHash(name: name, publicKey: Array(data.dropFirst()))
        guard String(parts[1]) == Self.hex(keyHash) else { return nil }
    }

    /// The body of `note` when one of its signature lines is this key's and verifies; else `nil`.
    /// Other keys' signatures (a witness's cosignature) are left alone.
    public func open(_ note: String) -> String? {
        guard let split = note.range(of: "\n\n", options: .backwards) else { return nil }
        let body = String(note[..<split.lowerBound]) + "\n"
        let signatures = note[split.upperBound...]
        guard signatures.hasSuffix("\n") else { return nil }
        for line in signatures.dropLast().split(separator: "\n", omittingEmptySubsequences: false) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0] == "\u{2014}" else { return nil }
            guard fields[1] == name, let data = Data(base64Encoded: String(fields[2])), data.count == 68, Array(data.prefix(4)) == keyHash else {
                continue
            }
            if key.isValidSignature(data.dropFirst(4), for: Data(body.utf8)) { return body }
        }
        return nil
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains { $0 == "+" || $0.isWhitespace || $0.isNewline }
    }

    static func keyHash(name: String, publicKey: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: Array(name.utf8) + [0x0a, 0x01] + publicKey).prefix(4))
    }

    static func verifierKey(name: String, publicKey: [UInt8]) -> String {
        "\(name)+\(hex(keyHash(name: name, publicKey: publicKey)))+\(Data([1] + publicKey).base64EncodedString())"
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
