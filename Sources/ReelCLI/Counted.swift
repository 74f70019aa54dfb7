import Reel

/// Counts in text a person reads: digits grouped (`ByteCount.grouped`), the noun singular for one
/// (`1 account`, `2 accounts`), byte counts the same way (`6,291,529 bytes`).
enum Counted {
    static func of(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(ByteCount.grouped(n)) \(n == 1 ? noun : plural ?? noun + "s")"
    }
}
