import Reel

/// ISO 8601 times in UTC, as Reel prints and reads them.
enum Timestamp {
    /// `2026-11-21T09:30:00.123456Z` from microseconds since the epoch.
    static func iso(_ micros: Int64) -> String { UTCTime.iso(micros) }

    /// `2026-11-21`, the day in UTC, for narrow table columns.
    static func day(_ micros: Int64) -> String { String(iso(micros).prefix(10)) }

    /// `2026-11-21 09:30:00` for tables.
    static func short(_ micros: Int64) -> String {
        let full = iso(micros)
        return String(full.prefix(10)) + " " + String(full.dropFirst(11).prefix(8))
    }

    /// Parses `YYYY-MM-DD` (the end of that day, UTC), or `YYYY-MM-DD[T ]HH:MM[:SS[.fraction]]`
    /// with `Z`, a `±HH:MM` offset or no zone (UTC). Returns microseconds since the epoch.
    static func parse(_ text: String) -> Int64? {
        let chars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= chars.count else { return nil }
            var value = 0
            for c in chars[from..<(from + count)] {
                guard c >= 0x30 && c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            return value
        }
        func at(_ i: Int, _ c: Character) -> Bool { i < chars.count && chars[i] == c.asciiValue! }
        // A day the month does not have (2026-02-31) is refused, not carried into the next month.
        guard let year = number(0, 4), at(4, "-"), let month = number(5, 2), at(7, "-"), let day = number(8, 2),
            let days = UTCTime.days(year: Int64(year), month: Int64(month), day: Int64(day))
        else { return nil }
        if chars.count == 10 {
            return (days * 86_400 + 86_399) * 1_000_000 + 999_999
        }
        guard at(10, "T") || at(10, " "), let hour = number(11, 2), at(13, ":"), let minute = number(14, 2),
            hour < 24, minute < 60
        else { return nil }
        var i = 16
        var second = 0
        var micros = 0
        if at(i, ":") {
            guard let s = number(i + 1, 2), s < 61 else { return nil }
            second = s
            i += 3
            if at(i, ".") {
                i += 1
                var digits = 0
                while i < chars.count, chars[i] >= 0x30 && chars[i] <= 0x39 {
                    if digits < 6 { micros = micros * 10 + Int(chars[i] - 0x30) }
                    digits += 1
                    i += 1
                }
                guard digits > 0 else { return nil }
                for _ in digits..<6 where digits < 6 { micros *= 10 }
            }
        }
        var offset = 0
        if at(i, "Z") {
            i += 1
        } else if at(i, "+") || at(i, "-") {
            let sign = at(i, "-") ? -1 : 1
            guard let oh = number(i + 1, 2), at(i + 3, ":"), let om = number(i + 4, 2) else { return nil }
            offset = sign * (oh * 3600 + om * 60)
            i += 6
        }  // No zone: UTC, as `history` and `saved` print times (`2026-11-24 07:56`).
        guard i == chars.count else { return nil }
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offset)
        return seconds * 1_000_000 + Int64(micros)
    }
}
