import Foundation

/// Numbers in text a person reads: digits grouped (`27,917`), nouns in the singular for one
/// (`1 account`, `2 accounts`), byte counts the same way (`6,291,529 bytes`).
enum Counted {
    static func number(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (n < 0 ? "-" : "") + grouped
    }

    static func of(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number(n)) \(n == 1 ? noun : plural ?? noun + "s")"
    }
}
