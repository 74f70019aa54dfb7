import Foundation
import Glibc
import Synchronization

/// The time zone text shows times in, for every face (the commands' text, the terminal app): the
/// local one (`TZ`, else the system's), or UTC with `--utc` or `REEL_UTC=1`. `--json` is UTC
/// whatever this says (RFC 3339, as the schemas state).
///
/// Offsets come from the C library (`localtime_r`), which reads the zone rules once per process:
/// no `DateFormatter` or `TimeZone` per row of a list thousands of rows long.
public enum DisplayZone {
    /// The offset from UTC in force at an instant, and the name shown with it (`JST`, `CEST`, `UTC`).
    public struct Offset: Sendable, Equatable {
        /// Seconds east of UTC.
        public let seconds: Int64
        public let name: String

        public static let utc = Offset(seconds: 0, name: "UTC")
    }

    private static let chosenUTC = Mutex<Bool?>(nil)

    /// The zone for this run: UTC with the flag or `REEL_UTC` set to 1/true/yes, else local.
    public static func choose(utc: Bool) {
        let value = utc || environmentSaysUTC
        chosenUTC.withLock { $0 = value }
    }

    public static var isUTC: Bool { chosenUTC.withLock { $0 } ?? environmentSaysUTC }

    private static var environmentSaysUTC: Bool {
        ["1", "true", "yes"].contains((ProcessInfo.processInfo.environment["REEL_UTC"] ?? "").lowercased())
    }

    /// The shown zone's offset at `seconds` since the epoch.
    public static func offset(at seconds: Int64) -> Offset {
        isUTC ? .utc : local(at: seconds)
    }

    /// The shown zone's offset now.
    public static var offsetNow: Offset { offset(at: Int64(time(nil))) }

    /// The local zone's offset at `seconds`, named by its abbreviation; a zone whose rules give
    /// only numbers (`+04` for Asia/Dubai) is named `UTC+04:00`, and one at UTC is `UTC`.
    public static func local(at seconds: Int64) -> Offset {
        var time = time_t(seconds)
        var fields = tm()
        guard localtime_r(&time, &fields) != nil else { return .utc }
        let offset = Int64(fields.tm_gmtoff)
        let abbreviation = fields.tm_zone.map { String(cString: $0) } ?? ""
        let lettered = !abbreviation.isEmpty && abbreviation.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }
        return Offset(seconds: offset, name: lettered ? abbreviation : numericName(offset))
    }

    /// `UTC`, `UTC+09:00`, `UTC-03:30`.
    public static func numericName(_ offset: Int64) -> String {
        guard offset != 0 else { return "UTC" }
        let minutes = abs(offset) / 60
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "UTC" + (offset < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
    }

    /// The instant (seconds since the epoch) a wall-clock reading names, `wall` being that reading
    /// counted as if it were UTC. With `name`, the reading is in the local zone when it had that
    /// name then (`CET` or `CEST`), or nil; without, it is in the shown zone: of two instants with
    /// that reading (the hour repeated when clocks go back) the earlier, and a reading clocks
    /// skipped is taken with the offset before the change (02:30 on the spring-forward night is
    /// 03:30 summer time), as `mktime` does.
    public static func instant(ofWall wall: Int64, named name: String? = nil) -> Int64? {
        if name == nil && isUTC { return wall }
        // Offsets change at most a few times a year: the ones a day either side cover the reading.
        let before = local(at: wall - 86_400)
        let after = local(at: wall + 86_400)
        let candidates = (before == after ? [before] : [before, after]).map { wall - $0.seconds }.sorted()
        let fitting = candidates.filter { local(at: $0).seconds == wall - $0 }
        if let name { return fitting.first { local(at: $0).name == name } }
        return fitting.first ?? wall - before.seconds
    }

    /// `micros` moved by the shown zone's offset then, so that UTC arithmetic reads its wall clock,
    /// and that zone; unmoved, as UTC, at the ends of time where the offset overflows.
    public static func onTheClock(_ micros: Int64) -> (wall: Int64, zone: Offset) {
        let seconds = micros >= 0 ? micros / 1_000_000 : -((-micros - 1) / 1_000_000) - 1
        let zone = offset(at: seconds)
        let (shifted, overflow) = micros.addingReportingOverflow(zone.seconds * 1_000_000)
        return overflow ? (micros, .utc) : (shifted, zone)
    }
}
