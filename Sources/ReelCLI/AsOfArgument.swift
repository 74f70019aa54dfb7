import Reel
import ArgumentParser

/// `--as-of`: a log position (`1234`), a stream version (`v12`) or an ISO 8601 time
/// (`2026-11-21T09:30:00Z`, or a date `2026-11-21` meaning the end of that day, UTC).
struct AsOfArgument: ExpressibleByArgument {
    let value: AsOf

    init?(argument: String) {
        if let position = UInt64(argument), position > 0 {
            value = .position(position)
        } else if argument.hasPrefix("v"), let version = UInt64(argument.dropFirst()), version > 0 {
            value = .streamVersion(version)
        } else if let micros = Timestamp.parse(argument) {
            value = .time(micros)
        } else {
            return nil
        }
    }

    static let help = ArgumentHelp(
        "A log position (1234), a stream version (v12) or a time as history prints it (2026-11-21 09:30, UTC), in ISO 8601 with a zone (2026-11-21T09:30:00+01:00), or a date (the end of that day, UTC).",
        valueName: "point")
}
