import Presentation
import Reel

/// Times as the app shows them: on the clock `DisplayZone` shows (local, or UTC with `--utc` or
/// `REEL_UTC`), as the commands show them.
struct LocalClock: Sendable {
    /// The instant as the wall clock reads it, counted as if UTC (`HistoryLine.wall`).
    func wall(_ micros: Int64) -> Int64 { DisplayZone.onTheClock(micros).wall }

    /// `2026-11-24 07:24`.
    func short(_ micros: Int64) -> String {
        let iso = UTCTime.iso(wall(micros))
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5))
    }
}
