import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress display on stderr, shown only when stderr is a terminal.
final class ProgressLine: @unchecked Sendable {
    private let label: String
    private let enabled = isatty(2) == 1
    private var shown = false

    init(label: String) { self.label = label }

    func update(_ done: UInt64, of total: UInt64) {
        guard enabled, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        FileHandle.standardError.write(Data("\r\(label) \(done)/\(total) (\(percent)%)".utf8))
        shown = true
    }

    func finish() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
