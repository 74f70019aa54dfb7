import Foundation
import Reel
import Synchronization

/// How much `reel` says on stderr besides errors: notes and progress normally, with routine notes
/// (the sample catalog is in use) once a day per data directory; everything with `--verbose`;
/// nothing but errors with `--quiet` or `REEL_QUIET=1`.
enum Notes {
    enum Level: Sendable { case quiet, normal, verbose }

    private static let chosen = Mutex<Level?>(nil)

    /// The level for this run: the flags, else `REEL_QUIET`.
    static func choose(quiet: Bool, verbose: Bool) {
        let level: Level
        if verbose {
            level = .verbose
        } else if quiet || ["1", "true", "yes"].contains((ProcessInfo.processInfo.environment["REEL_QUIET"] ?? "").lowercased()) {
            level = .quiet
        } else {
            level = .normal
        }
        chosen.withLock { $0 = level }
    }

    static var level: Level { chosen.withLock { $0 } ?? .normal }

    static var isQuiet: Bool { level == .quiet }

    /// Shows a note from the application: a routine one only the first time today for
    /// `dataDirectory` (always with `--verbose`), none with `--quiet`.
    static func show(_ notice: Notice, dataDirectory: String) {
        switch level {
        case .quiet: return
        case .verbose: break
        case .normal:
            if let key = notice.routine {
                let shown = ShownNotices(environment: ProcessInfo.processInfo.environment, dataDirectory: dataDirectory)
                guard shown.firstShowing(key, on: ShownNotices.today()) else { return }
            }
        }
        Terminal.notice(notice.text)
    }
}
