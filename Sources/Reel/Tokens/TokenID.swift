/// A token's public id: 12 lowercase hex digits (48 random bits), what `reel token list` shows
/// and `reel token revoke` takes. It names a token; it gives no access.
enum TokenID {
    static let length = 12

    /// A new id (the caller makes another one should it be taken, which 48 bits make rare).
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let value: UInt64 = generator.next() & 0xFFFF_FFFF_FFFF
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: length - digits.count) + digits
    }

    /// Whether `text` has an id's form (it may still name no token).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
