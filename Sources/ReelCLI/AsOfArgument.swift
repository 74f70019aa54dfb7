import Reel
import ArgumentParser

/// `--as-of`: a log position (`1234`), a stream version (`v12`) or a time (`WrittenTime`). A time
/// without a zone is in the zone text output shows, which `--utc` decides, and the options are
/// read after this argument is: such a time is placed on the clock when asked for (`value`).
struct AsOfArgument: ExpressibleByArgument {
    private enum Point {
        case fixed(AsOf)
        case onTheShownClock(WrittenTime)
    }

    private let point: Point

    init?(argument: String) {
        if let position = UInt64(argument), position > 0 {
            point = .fixed(.position(position))
        } else if argument.hasPrefix("v"), let version = UInt64(argument.dropFirst()), version > 0 {
            point = .fixed(.streamVersion(version))
        } else if let written = WrittenTime(argument) {
            if written.zone == .shown {
                point = .onTheShownClock(written)
            } else if let micros = written.instant {
                point = .fixed(.time(micros))
            } else {
                return nil
            }
        } else {
            return nil
        }
    }

    var value: AsOf {
        switch point {
        case .fixed(let asOf): asOf
        // A time without a zone always names an instant (a skipped hour is read as `mktime` does).
        case .onTheShownClock(let written): .time(written.instant ?? written.wall * 1_000_000 + written.micros)
        }
    }

    /// What `--as-of` is given, or a usage error saying exactly what it takes.
    static func parse(_ text: String) throws -> AsOfArgument {
        if let point = AsOfArgument(argument: text) { return point }
        if text == "0" { throw ValidationError("log positions count from 1") }
        if text == "v0" { throw ValidationError("stream versions count from v1") }
        if let written = WrittenTime(text), case .named(let name) = written.zone {
            throw ValidationError("the local zone is not called \(name) at that time; write an offset instead (+01:00) or Z for UTC")
        }
        throw ValidationError(
            "expected a log position (1234), a stream version (v12), a date (2026-11-24) or a time (2026-11-24 07:56, 2026-11-24 07:56:12, optionally followed by Z, +01:00 or the local zone's name)")
    }

    static let help = ArgumentHelp(
        "A log position (1234), a stream version (v12), or a time as history prints it (2026-11-21 09:30, local time, or UTC with --utc), with a zone if you like (2026-11-21 09:30 CET, 2026-11-21T09:30:00+01:00, …Z), or a date (the end of that day, local time).",
        valueName: "point")
}
