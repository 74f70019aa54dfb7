import Crypto
import Foundation

/// An Ed25519 key as C2SP signed-note names it: a key name, and the key hash that binds the name
/// to the public key (the first four bytes of SHA-256 of `name ‖ "\n" ‖ type ‖ public key`). A
/// log's key signs its checkpoints (type 0x01, `sign`); a witness's key cosigns other logs'
/// checkpoints (type 0x04, C2SP tlog-cosignature, `cosign`). Written out in the Go checksum
/// database's text form (`PRIVATE+KEY+…`), which `golang.org/x/mod/sumdb/note` reads for type 0x01.
public struct NoteKey: Sendable {
    /// What a key's signatures are.
    public enum Kind: UInt8, Sendable {
        /// A signed note's signature (C2SP signed-note, Ed25519).
        case signature = 0x01
        /// A witness's timestamped cosignature (C2SP tlog-cosignature v1, Ed25519).
        case cosignature = 0x04
    }

    /// The key's name: the log's origin, or the witness's name.
    public let name: String
    public let kind: Kind
    private let key: Curve25519.Signing.PrivateKey

    /// A new key named `name` (no spaces, no `+`, not empty).
    public init(generatingFor name: String, kind: Kind = .signature) {
        precondition(NoteVerifier.isValidName(name), "a note key name has no spaces and no +")
        self.name = name
        self.kind = kind
        key = Curve25519.Signing.PrivateKey()
    }

    /// The key `text` holds (`PRIVATE+KEY+name+hash+base64(type ‖ seed)`); `nil` for anything
    /// else, a key hash that does not match included.
    public init?(text: String) {
        // The key's base64 may hold `+` itself: only the first four split.
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "+", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "PRIVATE", parts[1] == "KEY", NoteVerifier.isValidName(String(parts[2])),
            let data = Data(base64Encoded: String(parts[4])), data.count == 33, let kind = data.first.flatMap(Kind.init(rawValue:)),
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: data.dropFirst())
        else { return nil }
        name = String(parts[2])
        self.kind = kind
        self.key = key
        guard String(parts[3]) == NoteVerifier.hex(keyHash) else { return nil }
    }

    /// The key as text, to be kept secret.
    public var text: String { "PRIVATE+KEY+\(name)+\(NoteVerifier.hex(keyHash))+\(Data([kind.rawValue] + key.rawRepresentation).base64EncodedString())" }

    /// The public key, as C2SP and the Go checksum database write it: `name+hash+base64(type ‖ key)`.
    public var verifierKey: String { NoteVerifier.verifierKey(name: name, kind: kind, publicKey: Array(key.publicKey.rawRepresentation)) }

    var keyHash: [UInt8] { NoteVerifier.keyHash(name: name, kind: kind, publicKey: Array(key.publicKey.rawRepresentation)) }

    /// `body` (lines each ending in a newline) signed: the body, a blank line, and the signature
    /// line `— name base64(key hash ‖ signature)`.
    public func sign(_ body: String) throws -> String {
        precondition(kind == .signature, "a cosigner's key cosigns")
        let signature = try key.signature(for: Data(body.utf8))
        return body + "\n" + "\u{2014} \(name) \(Data(keyHash + Array(signature)).base64EncodedString())\n"
    }

    /// The cosignature of the checkpoint `body` at `time` (seconds since the Epoch): the note
    /// signature line `— name base64(key ID ‖ time ‖ signature)`, the signature over
    /// `cosignature/v1\ntime <time>\n` and the body (C2SP tlog-cosignature).
    public func cosign(_ body: String, time: UInt64) throws -> String {
        precondition(kind == .cosignature, "a log's key signs")
        let signature = try key.signature(for: Data(NoteVerifier.cosignedMessage(body, time: time).utf8))
        let stamp = withUnsafeBytes(of: time.bigEndian) { Array($0) }
        return "\u{2014} \(name) \(Data(keyHash + stamp + Array(signature)).base64EncodedString())\n"
    }
}
