import Reel
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress display on stderr, shown only when stderr is a terminal and the work is
/// long enough (at least `threshold` steps) to be worth watching.
final class ProgressLine: @unchecked Sendable {
    private let label: String
    private let enabled = isatty(2) == 1 && !Notes.isQuiet
    private let threshold: UInt64
    private var shown = false

    init(label: String, threshold: UInt64 = 0) {
        self.label = label
        self.threshold = threshold
    }

    /// The progress of fetching pages of a TMDb list (shown from two pages on).
    static func pages() -> ProgressLine { ProgressLine(label: "fetching pages", threshold: 2) }

    func update(_ done: UInt64, of total: UInt64) {
        guard enabled, total > 0, total >= threshold else { return }
        let percent = min(100, done * 100 / total)
        Console.writeError("\r\(label) \(done)/\(total) (\(percent)%)")
        shown = true
    }

    func finish() {
        guard shown else { return }
        Console.writeError("\r\u{1B}[K")
        shown = false
    }
}
