import Files
import Foundation

/// Which routine notes (`Notice.routine`) were shown today, per data directory, so a front end
/// shows each once a day instead of on every command. Kept in `$XDG_STATE_HOME/reel/notices`
/// (else `~/.local/state/reel/notices`), outside the data directory, which reading the catalog
/// must not create: one line per note shown, `day<TAB>data directory digest<TAB>key`, kept until
/// its day is two days behind the day of a note recorded.
///
/// It is only a courtesy: a file that cannot be read or written means the note is shown again,
/// never a failure; two processes at once may both show it. Lines are appended (one `write` with
/// `O_APPEND` each), so processes of other data directories never write over each other's.
public struct ShownNotices: Sendable {
    public let path: String
    private let directoryDigest: String

    public init(environment: [String: String], dataDirectory: String) {
        path = StateDirectory.path(environment: environment) + "/notices"
        directoryDigest = String(ContentDigest.sha256Hex(Array(dataDirectory.utf8)).prefix(16))
    }

    /// True, and recorded, when the note `key` was not shown yet on `day` (`2026-11-24`, the
    /// local date) for this data directory; false when it was.
    public func firstShowing(_ key: String, on day: String) -> Bool {
        let entry = "\(day)\t\(directoryDigest)\t\(key)"
        let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        guard !lines.contains(entry) else { return false }
        let directory = String(path.dropLast("/notices".count))
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Days are local dates, and processes in other zones (TZ) share the file: a day is dropped
        // only once it is two days behind, so no process drops the lines of one a zone away.
        let cutoff = Self.day(before: day, by: 2)
        let kept = lines.filter { line in cutoff.map { String(line.prefix(10)) > $0 } ?? true }
        if kept.count < lines.count {
            // Old days' lines: the file is written afresh without them (about once a day).
            try? OutputFile.write(Array((kept + [entry]).map { $0 + "\n" }.joined().utf8), to: path)
        } else {
            // One line appended in one write: processes showing notes at once (each with its own
            // data directory) add their lines without writing over each other's.
            let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            if fd >= 0 {
                let line = Array((entry + "\n").utf8)
                _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
        }
        return true
    }

    /// The date `days` before `day` (`2026-11-24`), in the same form; `nil` for a malformed day.
    static func day(before day: String, by days: Int) -> String? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
            let earlier = calendar.date(byAdding: .day, value: -days, to: date)
        else { return nil }
        let c = calendar.dateComponents([.year, .month, .day], from: earlier)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// Today's local date as the file keeps it.
    public static func today() -> String {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
