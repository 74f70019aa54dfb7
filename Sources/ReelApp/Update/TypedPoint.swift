import Foundation
import Reel

/// A point in the account's past as typed after `t`, in the forms `reel saved --as-of` takes: a
/// stream version (`v12`), a log position (`1234`), a date (`2026-11-24`, the end of that day)
/// or a time (`2026-11-24 07:24`, that minute's end; `07:24:10`, that second's), on the local
/// clock the history shows.
public enum TypedPoint: Sendable, Equatable {
    case version(UInt64)
    case position(UInt64)
    /// The last microsecond the text names, as the local wall clock reads, counted as if UTC
    /// (compared with `HistoryLine.wall`).
    case wall(Int64)

    public static let expected = "expected a stream version (v12), a log position (1234), a date (2026-11-24) or a time (2026-11-24 07:24)"

    public init?(_ typed: String) {
        let text = typed.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("v"), let version = UInt64(text.dropFirst()), version > 0 {
            self = .version(version)
        } else if let position = UInt64(text), position > 0 {
            self = .position(position)
        } else if let wall = Self.wall(text) {
            self = .wall(wall)
        } else {
            return nil
        }
    }

    /// `YYYY-MM-DD`, then ` HH:MM` or `THH:MM`, then `:SS`: the last microsecond it names.
    private static func wall(_ text: String) -> Int64? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        guard (1...2).contains(parts.count) else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int64($0) }
        guard date.count == 3, parts[0].count == 10, let year = date[0], let month = date[1], let day = date[2],
            let days = UTCTime.days(year: year, month: month, day: day)
        else { return nil }
        let second: Int64 = 1_000_000
        let start = days * 86_400 * second
        guard parts.count == 2 else { return start + 86_400 * second - 1 }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Int64($0) }
        guard (2...3).contains(clock.count), clock.allSatisfy({ $0 != nil }) else { return nil }
        let hour = clock[0]!, minute = clock[1]!, seconds = clock.count == 3 ? clock[2]! : nil
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(seconds ?? 0) else { return nil }
        let at = start + (hour * 3_600 + minute * 60 + (seconds ?? 0)) * second
        return at + (seconds == nil ? 60 * second : second) - 1
    }
}
