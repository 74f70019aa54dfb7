import Crypto
import Foundation

/// Checks notes signed, or cosigned, by one key (`NoteKey.verifierKey`), as C2SP signed-note and
/// tlog-cosignature read them.
public struct NoteVerifier: Sendable {
    public let name: String
    public let kind: NoteKey.Kind
    let keyHash: [UInt8]
    let key: Curve25519.Signing.PublicKey

    /// The verifier of `text` (`name+hash+base64(type ‖ key)`, type 0x01 or 0x04); `nil` for
    /// anything else.
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, Self.isValidName(String(parts[0])), let data = Data(base64Encoded: String(parts[2])), data.count == 33,
            let kind = data.first.flatMap(NoteKey.Kind.init(rawValue:)), let key = try? Curve25519.Signing.PublicKey(rawRepresentation: data.dropFirst())
        else { return nil }
        name = String(parts[0])
        self.kind = kind
        self.key = key
        keyHash = Self.keyHash(name: name, kind: kind, publicKey: Array(data.dropFirst()))
        guard String(parts[1]) == Self.hex(keyHash) else { return nil }
    }

    /// The body of `note` when one of its signature lines is this key's and verifies; else `nil`.
    /// Other keys' signatures (a witness's cosignature) are left alone. A cosigner's key opens
    /// nothing: a cosignature vouches for a checkpoint another key signed (`cosignature(on:)`).
    public func open(_ note: String) -> String? {
        guard case .opened(let body, _) = strictlyOpen(note) else { return nil }
        return body
    }

    /// What a strict reading of `note` under this key finds (C2SP signed-note: a line that names
    /// this key and does not verify makes the note malformed, whatever else verifies).
    public enum Opening: Sendable, Equatable {
        /// Every line of this key's verifies, and there is one: the body and the first such line.
        case opened(body: String, line: String)
        /// No line is this key's.
        case unsigned
        /// A line is this key's and does not verify (or is not a note at all).
        case malformed
    }

    /// `note` read strictly under this key (`Opening`).
    public func strictlyOpen(_ note: String) -> Opening {
        guard kind == .signature, let (body, lines) = Self.split(note) else { return .malformed }
        var verified: String?
        for line in lines {
            guard let data = signature(line) else { continue }
            guard data.count == 68, key.isValidSignature(data.dropFirst(4), for: Data(body.utf8)) else { return .malformed }
            verified = verified ?? String(line)
        }
        return verified.map { .opened(body: body, line: $0) } ?? .unsigned
    }

    /// The time (seconds since the Epoch) of this cosigner's cosignature on `note`'s body, when
    /// one of its signature lines is one and verifies; else `nil`.
    public func cosignature(on note: String) -> UInt64? {
        guard kind == .cosignature, let (body, lines) = Self.split(note) else { return nil }
        for line in lines {
            guard let data = signature(line), let time = Self.stamp(data) else { continue }
            if key.isValidSignature(data.dropFirst(12), for: Data(Self.cosignedMessage(body, time: time).utf8)) { return time }
        }
        return nil
    }

    /// The signer's name and the time a cosignature line (`— name base64`) states, unverified;
    /// `nil` for a line that is not one.
    public static func cosignatureStamp(_ line: some StringProtocol) -> (name: String, time: UInt64)? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0] == "\u{2014}", let data = Data(base64Encoded: String(fields[2])), let time = stamp(data) else { return nil }
        return (String(fields[1]), time)
    }

    /// The time of a cosignature's bytes (key ID ‖ time ‖ signature); C2SP tlog-cosignature: never
    /// zero, nor past 2⁶³ − 1.
    private static func stamp(_ data: Data) -> UInt64? {
        guard data.count == 76 else { return nil }
        let time = data.dropFirst(4).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return time > 0 && time <= UInt64(Int64.max) ? time : nil
    }

    /// A signature line's bytes when it names this key (by name and key hash).
    private func signature(_ line: Substring) -> Data? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard fields[1] == name, let data = Data(base64Encoded: String(fields[2])), data.count > 4, Array(data.prefix(4)) == keyHash else { return nil }
        return data
    }

    /// A note's body (with its final newline) and its signature lines, each `— name base64`;
    /// `nil` when it is not a signed note.
    public static func split(_ note: String) -> (body: String, lines: [Substring])? {
        guard let split = note.range(of: "\n\n", options: .backwards) else { return nil }
        let body = String(note[..<split.lowerBound]) + "\n"
        let signatures = note[split.upperBound...]
        guard signatures.hasSuffix("\n") else { return nil }
        let lines = signatures.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.allSatisfy({ line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            return fields.count == 3 && fields[0] == "\u{2014}"
        }) else { return nil }
        return (body, lines)
    }

    /// What a cosignature signs (C2SP tlog-cosignature v1, Ed25519).
    static func cosignedMessage(_ body: String, time: UInt64) -> String {
        "cosignature/v1\ntime \(time)\n" + body
    }

    /// A key name as C2SP signed-note allows it: not empty, no `+`, no space or other control.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 256
            && !name.unicodeScalars.contains { $0 == "+" || $0.properties.isWhitespace || $0.properties.generalCategory == .control }
    }

    static func keyHash(name: String, kind: NoteKey.Kind, publicKey: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: Array(name.utf8) + [0x0a, kind.rawValue] + publicKey).prefix(4))
    }

    static func verifierKey(name: String, kind: NoteKey.Kind, publicKey: [UInt8]) -> String {
        "\(name)+\(hex(keyHash(name: name, kind: kind, publicKey: publicKey)))+\(Data([kind.rawValue] + publicKey).base64EncodedString())"
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
