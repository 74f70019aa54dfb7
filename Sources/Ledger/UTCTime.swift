/// Formats microseconds since the epoch as ISO 8601 UTC (`2026-11-21T09:30:00.123456Z`), in pure
/// Swift (days to civil date after Howard Hinnant's algorithm), for messages from the domain.
public enum UTCTime {
    /// Parses what `iso` writes (`2026-11-21T09:30:00.123456Z`; the fraction may have 0 to 6
    /// digits); `nil` for anything else, such as a day the month does not have.
    public static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= b.count, !range.isEmpty else { return nil }
            var v: Int64 = 0
            for i in range {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int64(b[i] - 0x30)
            }
            return v
        }
        guard b.count >= 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b.last == 0x5A,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        guard let days = days(year: year, month: month, day: day) else { return nil }
        var micros: Int64 = 0
        if b.count > 20 {
            guard b[19] == 0x2E, (21...27).contains(b.count), let fraction = number(20..<(b.count - 1)) else { return nil }
            micros = fraction
            for _ in 0..<(6 - (b.count - 21)) { micros *= 10 }
        } else if b[19] != 0x5A {
            return nil
        }
        return ((days * 86_400 + hour * 3_600 + minute * 60 + second) * 1_000_000) + micros
    }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm, the inverse of `iso`),
    /// or `nil` when the date does not exist (February 31, month 13): never normalised to another day.
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64? {
        guard (1...12).contains(month), day >= 1 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[Int(month - 1)] else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func iso(_ micros: Int64) -> String {
        let (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        var secs = seconds
        var frac = fraction
        if frac < 0 {
            frac += 1_000_000
            secs -= 1
        }
        var days = secs / 86_400
        var rest = secs % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        if (0...9_999).contains(year) {
            // The usual case, written digit by digit into the string's own 27 bytes.
            return String(unsafeUninitializedCapacity: 27) { out in
                var at = 0
                func put(_ value: Int64, _ width: Int, then separator: UInt8) {
                    var v = value
                    for i in stride(from: width - 1, through: 0, by: -1) {
                        out[at + i] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
                        v /= 10
                    }
                    out[at + width] = separator
                    at += width + 1
                }
                put(year, 4, then: UInt8(ascii: "-"))
                put(month, 2, then: UInt8(ascii: "-"))
                put(day, 2, then: UInt8(ascii: "T"))
                put(rest / 3600, 2, then: UInt8(ascii: ":"))
                put(rest % 3600 / 60, 2, then: UInt8(ascii: ":"))
                put(rest % 60, 2, then: UInt8(ascii: "."))
                put(frac, 6, then: UInt8(ascii: "Z"))
                return at
            }
        }
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(rest / 3600, 2)):\(pad(rest % 3600 / 60, 2)):\(pad(rest % 60, 2)).\(pad(frac, 6))Z"
    }
}
