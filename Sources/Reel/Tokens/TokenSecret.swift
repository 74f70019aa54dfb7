import Crypto
import Foundation

/// The secret of an account token: 32 random bytes (256 bits) from the system's CSPRNG, written
/// `reel_` + base64url without padding (43 characters), so a secret scanner can tell one at a glance.
///
/// Only the bearer has it. The token store keeps its digest (`digest`, the lookup key) and the
/// token's handle sealed under a key only the secret gives (`handleKey`); neither the secret nor
/// anything it could be computed back from is written anywhere.
struct TokenSecret: Sendable {
    static let prefix = "reel_"
    static let byteCount = 32
    /// `reel_` and 43 characters of base64url.
    static let textLength = prefix.utf8.count + 43

    let bytes: [UInt8]

    /// A new secret, from swift-crypto's generator (the system's CSPRNG, as the ledger's keys).
    static func random() -> TokenSecret {
        TokenSecret(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The secret `text` writes, or `nil` unless it is exactly the form `text` (below) prints:
    /// `reel_` and the 43 base64url characters of 32 bytes, canonical (the last character's two
    /// unused bits zero), so one secret has one spelling.
    init?(text: String) {
        let utf8 = text.utf8
        guard utf8.count == Self.textLength, utf8.starts(with: Self.prefix.utf8) else { return nil }
        let encoded = utf8.dropFirst(Self.prefix.utf8.count)
        guard encoded.allSatisfy(Self.isBase64URL) else { return nil }
        // base64url → base64, padded, for Foundation's decoder.
        // 43 characters carry 258 bits: the last one's two spare bits must be zero.
        guard let last = encoded.last, Self.canonicalLast.utf8.contains(last) else { return nil }
        let standard = String(decoding: encoded.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0 }, as: UTF8.self) + "="
        guard let decoded = Data(base64Encoded: standard), decoded.count == Self.byteCount else { return nil }
        self.init(bytes: Array(decoded))
    }

    /// The base64url digits whose two low bits are zero.
    private static let canonicalLast = "AEIMQUYcgkosw048"

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// `reel_` + base64url of the bytes, without padding: what the bearer sends.
    var text: String {
        var encoded = Data(bytes).base64EncodedString()
        encoded = String(encoded.compactMap { c -> Character? in
            switch c {
            case "+": "-"
            case "/": "_"
            case "=": nil
            default: c
            }
        })
        return Self.prefix + encoded
    }

    /// What the store keys a token by: SHA-256 of `"reel-token/1" ‖ 0x00 ‖` the 32 bytes.
    ///
    /// A plain hash, without salt or stretching, is right for this secret and only for such a
    /// one: salts and slow hashes (bcrypt, Argon2) defend secrets people choose, which are few
    /// enough to guess or tabulate. 256 uniformly random bits cannot be guessed or tabulated
    /// whatever the hash costs, so a fast one loses nothing, and it is what a check run on
    /// every HTTP request can afford. SHA-256's preimage resistance is what keeps a stolen copy
    /// of the store from giving the secrets; the label keeps this digest apart from any other
    /// use of the same bytes.
    var digest: [UInt8] {
        Array(SHA256.hash(data: Array("reel-token/1".utf8) + [0] + bytes))
    }

    /// The key that seals the token's handle in its record, SHA-256 of `"reel-token-handle/1" ‖
    /// 0x00 ‖` the 32 bytes: the store can give the handle to whoever presents the secret, and to
    /// nobody else, so no file holds a handle in the clear (a deleted account's handle must be in
    /// none). From a uniformly random 256-bit secret one labelled hash is as good a key as HKDF's
    /// (whose extract step exists for secrets that are not uniform), at a tenth of the cost on a
    /// path every request takes (0.4 µs against 5 µs, release build).
    var handleKey: SymmetricKey {
        SymmetricKey(data: SHA256.hash(data: Array("reel-token-handle/1".utf8) + [0] + bytes))
    }

    /// Whether two byte strings are equal, in time that depends on their length only (no early
    /// exit at the first difference).
    static func constantTimeEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
