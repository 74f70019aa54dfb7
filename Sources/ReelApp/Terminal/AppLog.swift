import Foundation
import Glibc
import Reel
import Synchronization

/// The terminal app's log, `$XDG_STATE_HOME/reel/ui.log` (else `~/.local/state/reel/ui.log`):
/// each failure whole, with the endpoint and detail the status line leaves out (it says what
/// failed in words, `ErrorWords.short`). Mode 0600; past 1 MiB it is moved to `ui.log.1` and begun
/// again. Never a token or key: the failures' words carry none. A log that cannot be written is
/// not an error of the app: the line is dropped.
final class AppLog: Sendable {
    static let limit = 1 << 20
    /// The log of this run, set when the app starts (none in the tests of the pure model).
    static let current = Mutex<AppLog?>(nil)

    let path: String
    private let lock = Mutex(())

    init(environment: [String: String]) {
        path = StateDirectory.path(environment: environment) + "/ui.log"
    }

    /// Appends `text` (one line: control characters become spaces) after the time.
    func record(_ text: String) {
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : $0 }))
        let line = Array((Date().ISO8601Format() + " " + clean + "\n").utf8)
        lock.withLock { _ in
            let directory = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            var status = stat()
            if lstat(path, &status) == 0, Int(status.st_size) + line.count > Self.limit { rename(path, path + ".1") }
            let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return }
            defer { close(fd) }
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
    }

    /// This run's log, in the state directory `environment` names.
    static func start(environment: [String: String]) {
        current.withLock { $0 = AppLog(environment: environment) }
    }

    /// Notes `error` whole in this run's log, and answers it in words for the screen.
    static func described(_ error: any Error) -> String {
        current.withLock { $0 }?.record(ErrorWords.full(error))
        return ErrorWords.short(error)
    }
}
