import Files
import Foundation

/// Which routine notes (`Notice.routine`) were shown today, per data directory, so a front end
/// shows each once a day instead of on every command. Kept in `$XDG_STATE_HOME/reel/notices`
/// (else `~/.local/state/reel/notices`), outside the data directory, which reading the catalog
/// must not create: one line per note shown today, `day<TAB>data directory digest<TAB>key`.
///
/// It is only a courtesy: a file that cannot be read or written means the note is shown again,
/// never a failure; two processes at once may both show it.
public struct ShownNotices: Sendable {
    public let path: String
    private let directoryDigest: String

    public init(environment: [String: String], dataDirectory: String) {
        let state: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            state = xdg
        } else {
            state = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        }
        path = state + "/reel/notices"
        directoryDigest = String(ContentDigest.sha256Hex(Array(dataDirectory.utf8)).prefix(16))
    }

    /// True, and recorded, when the note `key` was not shown yet on `day` (`2026-11-24`, the
    /// local date) for this data directory; false when it was.
    public func firstShowing(_ key: String, on day: String) -> Bool {
        let entry = "\(day)\t\(directoryDigest)\t\(key)"
        let today = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init).filter { $0.hasPrefix(day + "\t") }
        guard !today.contains(entry) else { return false }
        let directory = String(path.dropLast("/notices".count))
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try? OutputFile.write(Array((today + [entry]).map { $0 + "\n" }.joined().utf8), to: path)
        return true
    }

    /// Today's local date as the file keeps it.
    public static func today() -> String {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
