import Presentation
import Reel

/// Times as Reel prints them: in text, the wall clock of the zone `DisplayZone` shows (local, or
/// UTC with `--utc`) with that zone named once where it is clear (`TIME (JST)`, `Saved since
/// 2026-11-24 16:56:01 JST`); in `--json`, ISO 8601 in UTC always.
enum Timestamp {
    /// `2026-11-21T09:30:00.123456Z` from microseconds since the epoch: UTC, for `--json`.
    static func iso(_ micros: Int64) -> String { UTCTime.iso(micros) }

    /// Seconds since the Epoch as another program stamped them (a witness's), in ISO 8601; a
    /// time past the year 9999 is shown as its last second.
    static func iso(seconds: UInt64) -> String { UTCTime.iso(Int64(min(seconds, 253_402_300_799)) * 1_000_000) }

    /// An instant read on the shown zone's clock.
    struct Reading {
        /// `2026-11-21T18:30:00.123456Z`: the wall clock written as ISO 8601 (the `Z` is not the zone).
        let wall: String
        let zone: DisplayZone.Offset

        /// `2026-11-21 18:30:00`.
        var short: String { String(wall.prefix(10)) + " " + String(wall.dropFirst(11).prefix(8)) }
    }

    static func reading(_ micros: Int64) -> Reading {
        let (shifted, zone) = onTheClock(micros)
        return Reading(wall: UTCTime.iso(shifted), zone: zone)
    }

    /// The day on the shown zone's clock, as days since 1970-01-01, and the zone: for a column of
    /// thousands of rows added on a few days, where each day is written once (`day(number:)`).
    static func dayNumber(_ micros: Int64) -> (number: Int64, zone: DisplayZone.Offset) {
        let (shifted, zone) = onTheClock(micros)
        let perDay: Int64 = 86_400_000_000
        return (shifted >= 0 ? shifted / perDay : -((-shifted - 1) / perDay) - 1, zone)
    }

    /// `2026-11-21` from days since 1970-01-01.
    static func day(number: Int64) -> String { String(UTCTime.iso(number * 86_400_000_000).prefix(10)) }

    private static func onTheClock(_ micros: Int64) -> (Int64, DisplayZone.Offset) { DisplayZone.onTheClock(micros) }

    /// `2026-11-21 18:30:00` for tables, whose header names the zone (`zone(of:)`).
    static func short(_ micros: Int64) -> String { reading(micros).short }

    /// `2026-11-21 18:30:00 JST`: a time standing alone, with its zone.
    static func labelled(_ micros: Int64) -> String {
        let reading = reading(micros)
        return reading.short + " " + reading.zone.name
    }

    /// The zone for a column of these instants: `JST`, or `CET/CEST` when a change of clocks falls
    /// between them (each name once, in order of first appearance); for none, the zone now.
    static func zone(of instants: some Sequence<Int64>) -> String {
        var names: [String] = []
        for micros in instants {
            let name = DisplayZone.offset(at: seconds(micros)).name
            if !names.contains(name) { names.append(name) }
        }
        return names.isEmpty ? DisplayZone.offsetNow.name : names.joined(separator: "/")
    }

    /// Whole seconds since the epoch, rounded down (before 1970 too).
    private static func seconds(_ micros: Int64) -> Int64 {
        micros >= 0 ? micros / 1_000_000 : -((-micros - 1) / 1_000_000) - 1
    }

    /// `as of …` in text: a point in time on the shown zone's clock, others as they are.
    static func point(_ asOf: AsOf) -> String {
        if case .time(let micros) = asOf { return labelled(micros) }
        return asOf.description
    }
}
