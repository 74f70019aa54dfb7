import Presentation
import Reel

/// A time as a person writes it for `--as-of`: `YYYY-MM-DD` (the end of that day), or
/// (up to the end of the minute or second written, unless a fraction is given)
/// `YYYY-MM-DD[T ]HH:MM[:SS[.fraction]]` followed by nothing (the zone text output shows, so what
/// `history` prints pastes back as it is), `Z`, an offset (`+01:00`, `+0100`, `+01`), or a space
/// and `UTC`, `GMT`, `UTC+09:00` or the local zone's name at that time (`JST`, `CET`, `CEST`).
struct WrittenTime {
    enum Zone: Equatable {
        /// None written: the zone `DisplayZone` shows, known only once the options are read.
        case shown
        /// Seconds east of UTC.
        case offset(Int64)
        /// An abbreviation, upper-cased, to match against the local zone's.
        case named(String)
    }

    /// The reading on the clock, counted in seconds as if it were UTC, and its microseconds.
    let wall: Int64
    let micros: Int64
    let zone: Zone

    /// Microseconds since the epoch; nil for a name the local zone did not have at that time
    /// (`CEST` in January, `PST` in Berlin).
    var instant: Int64? {
        let seconds: Int64?
        switch zone {
        case .shown: seconds = DisplayZone.instant(ofWall: wall)
        case .offset(let offset): seconds = wall - offset
        case .named(let name): seconds = DisplayZone.instant(ofWall: wall, named: name)
        }
        return seconds.map { $0 * 1_000_000 + micros }
    }

    init?(_ text: String) {
        let chars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from >= 0, from + count <= chars.count else { return nil }
            var value: Int64 = 0
            for c in chars[from..<(from + count)] {
                guard c >= 0x30 && c <= 0x39 else { return nil }
                value = value * 10 + Int64(c - 0x30)
            }
            return value
        }
        func at(_ i: Int, _ c: Character) -> Bool { i < chars.count && chars[i] == c.asciiValue! }
        // A day the month does not have (2026-02-31) is refused, not carried into the next month.
        guard let year = number(0, 4), at(4, "-"), let month = number(5, 2), at(7, "-"), let day = number(8, 2),
            let days = UTCTime.days(year: year, month: month, day: day)
        else { return nil }
        if chars.count == 10 {
            wall = days * 86_400 + 86_399
            micros = 999_999
            zone = .shown
            return
        }
        guard at(10, "T") || at(10, " "), let hour = number(11, 2), at(13, ":"), let minute = number(14, 2),
            hour < 24, minute < 60
        else { return nil }
        var i = 16
        // A time means the whole of what it names, as a date means the whole day: a minute written
        // without seconds is up to its last microsecond, and so is a second without a fraction, so
        // pasting the time `history` prints for an event includes that event.
        var second: Int64 = 59
        var fraction: Int64 = 999_999
        if at(i, ":") {
            guard let s = number(i + 1, 2), s < 61 else { return nil }
            second = s
            i += 3
            if at(i, ".") {
                i += 1
                fraction = 0
                var digits = 0
                while i < chars.count, chars[i] >= 0x30 && chars[i] <= 0x39 {
                    if digits < 6 { fraction = fraction * 10 + Int64(chars[i] - 0x30) }
                    digits += 1
                    i += 1
                }
                guard digits > 0 else { return nil }
                for _ in digits..<6 where digits < 6 { fraction *= 10 }
            }
        }
        wall = days * 86_400 + hour * 3_600 + minute * 60 + second
        micros = fraction
        guard let zone = Self.zone(String(decoding: chars[i...], as: UTF8.self)) else { return nil }
        self.zone = zone
    }

    /// What follows the time: "", `Z`, `+01:00`, or ` UTC`, ` UTC+09:00`, ` +09:00`, ` JST`.
    private static func zone(_ text: String) -> Zone? {
        if text.isEmpty { return .shown }
        if text == "Z" { return .offset(0) }
        if let offset = offset(text) { return .offset(offset) }
        guard text.first == " " else { return nil }
        let rest = text.dropFirst().uppercased()
        if ["Z", "UTC", "GMT"].contains(rest) { return .offset(0) }
        for prefix in ["UTC", "GMT", ""] where rest.hasPrefix(prefix) {
            if let offset = offset(String(rest.dropFirst(prefix.count))) { return .offset(offset) }
        }
        guard (2...6).contains(rest.utf8.count), rest.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { return nil }
        return .named(rest)
    }

    /// `+01:00`, `-0330`, `+09`: seconds east of UTC.
    private static func offset(_ text: String) -> Int64? {
        let chars = Array(text.utf8)
        guard let sign = chars.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = chars.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard [2, 4].contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            chars.count == 1 + digits.count || (chars.count == 6 && chars[3] == UInt8(ascii: ":"))
        else { return nil }
        let values = digits.map { Int64($0 - 0x30) }
        let hours = values[0] * 10 + values[1]
        let minutes = values.count == 4 ? values[2] * 10 + values[3] : 0
        guard hours < 24, minutes < 60 else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }
}
