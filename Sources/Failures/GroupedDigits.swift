/// A count as messages write it, digits grouped in threes (`6,291,529`): the one place every
/// module's messages take it from (`ByteCount.grouped`, the domain's outcome lines).
public enum GroupedDigits {
    public static func of(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return (number < 0 ? "-" : "") + digits + grouped
    }
}
