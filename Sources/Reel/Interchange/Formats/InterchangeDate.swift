import Ledger
/// Dates and times as other apps' exports write them, to microseconds since 1970-01-01T00:00:00Z,
/// in pure Swift (civil date to days after Howard Hinnant's algorithm).
enum InterchangeDate {
    /// Parses `2024-01-02` (midnight UTC), ISO 8601 date-times such as `2024-01-02T03:04:05.000Z`,
    /// `2024-01-02 03:04:05` or `2024-01-02T03:04:05+02:00` (no zone means UTC; the fraction may
    /// have any number of digits, kept to the microsecond), and the `Sun Jan 13 00:00:00 2013` of
    /// old IMDb exports. `nil` for anything else, including impossible dates such as February 30.
    static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        if let iso = iso(b) { return iso }
        return ctime(b)
    }

    private static func iso(_ b: [UInt8]) -> Int64? {
        guard b.count >= 10, b[4] == 0x2D, b[7] == 0x2D, let year = number(b, 0..<4), let month = number(b, 5..<7),
            let day = number(b, 8..<10), let days = UTCTime.days(year: year, month: month, day: day)
        else { return nil }
        if b.count == 10 { return days * 86_400 * 1_000_000 }
        // THH:MM, then optionally :SS, .fraction, and a zone.
        guard b.count >= 16, b[10] == 0x54 || b[10] == 0x20 || b[10] == 0x74, b[13] == 0x3A,
            let hour = number(b, 11..<13), let minute = number(b, 14..<16), hour < 24, minute < 60
        else { return nil }
        var i = 16
        var second: Int64 = 0
        var micros: Int64 = 0
        if i < b.count, b[i] == 0x3A {
            guard let s = number(b, (i + 1)..<(i + 3)), s < 60 else { return nil }
            second = s
            i += 3
            if i < b.count, b[i] == 0x2E || b[i] == 0x2C {
                i += 1
                var digits = 0
                while i < b.count, isDigit(b[i]) {
                    if digits < 6 { micros = micros * 10 + Int64(b[i] - 0x30) }
                    digits += 1
                    i += 1
                }
                guard digits > 0 else { return nil }
                for _ in min(digits, 6)..<6 { micros *= 10 }
            }
        }
        var offsetSeconds: Int64 = 0
        if i < b.count {
            if b[i] == 0x5A || b[i] == 0x7A {
                i += 1
            } else if b[i] == 0x2B || b[i] == 0x2D {
                let sign: Int64 = b[i] == 0x2D ? -1 : 1
                guard let zoneHour = number(b, (i + 1)..<(i + 3)), zoneHour < 24 else { return nil }
                i += 3
                if i < b.count, b[i] == 0x3A { i += 1 }
                var zoneMinute: Int64 = 0
                if i < b.count {
                    guard let m = number(b, i..<(i + 2)), m < 60 else { return nil }
                    zoneMinute = m
                    i += 2
                }
                offsetSeconds = sign * (zoneHour * 3_600 + zoneMinute * 60)
            } else {
                return nil
            }
        }
        guard i == b.count else { return nil }
        return (days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds) * 1_000_000 + micros
    }

    /// `Sun Jan 13 00:00:00 2013` (C's `asctime`, taken as UTC; the day may be one digit or space-padded).
    private static func ctime(_ b: [UInt8]) -> Int64? {
        let parts = b.split(separator: 0x20).map { Array($0) }
        guard parts.count == 5, parts[0].count == 3, let month = monthNames.firstIndex(of: String(decoding: parts[1], as: UTF8.self)),
            let day = number(parts[2], 0..<parts[2].count), parts[3].count == 8, parts[3][2] == 0x3A, parts[3][5] == 0x3A,
            let hour = number(parts[3], 0..<2), let minute = number(parts[3], 3..<5), let second = number(parts[3], 6..<8),
            hour < 24, minute < 60, second < 60, parts[4].count == 4, let year = number(parts[4], 0..<4),
            let days = UTCTime.days(year: year, month: Int64(month + 1), day: day)
        else { return nil }
        return (days * 86_400 + hour * 3_600 + minute * 60 + second) * 1_000_000
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The decimal number in `b[range]`: digits only, at least one.
    private static func number(_ b: [UInt8], _ range: Range<Int>) -> Int64? {
        guard !range.isEmpty, range.upperBound <= b.count, range.count <= 9 else { return nil }
        var value: Int64 = 0
        for i in range {
            guard isDigit(b[i]) else { return nil }
            value = value * 10 + Int64(b[i] - 0x30)
        }
        return value
    }
}
