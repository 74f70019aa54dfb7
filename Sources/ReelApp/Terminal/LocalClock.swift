import Glibc
import Reel

/// Times as the app shows them: on the local clock (`TZ`, else the system's), or UTC when
/// `REEL_UTC` says so, as the commands show them.
struct LocalClock: Sendable {
    let utc: Bool

    init(environment: [String: String]) {
        utc = ["1", "true", "yes"].contains((environment["REEL_UTC"] ?? "").lowercased())
    }

    /// The instant as the wall clock reads it, counted as if UTC (`HistoryLine.wall`).
    func wall(_ micros: Int64) -> Int64 {
        guard !utc else { return micros }
        var time = time_t(micros >= 0 ? micros / 1_000_000 : -((-micros - 1) / 1_000_000) - 1)
        var fields = tm()
        guard localtime_r(&time, &fields) != nil else { return micros }
        let (shifted, overflow) = micros.addingReportingOverflow(Int64(fields.tm_gmtoff) * 1_000_000)
        return overflow ? micros : shifted
    }

    /// `2026-11-24 07:24`.
    func short(_ micros: Int64) -> String {
        let iso = UTCTime.iso(wall(micros))
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5))
    }
}
