import Foundation
package import Processes

/// Where the test run's processor time goes, command by command: with `REEL_TEST_CHILDREN` set to
/// a file, each command `Harness.complete` ran adds a line to it, its processor seconds, its
/// seconds and its words (tab-separated). Off unless asked for.
///
///     REEL_TEST_CHILDREN=/tmp/children.tsv swift test --skip-build --filter EndToEndTests
///     sort -rn /tmp/children.tsv | head
package enum ChildProfile {
    package static let path = ProcessInfo.processInfo.environment["REEL_TEST_CHILDREN"]

    package static func record(_ command: [String], _ exit: ChildProcess.Exit) {
        guard let path else { return }
        let words = command.map { $0.count > 60 ? String($0.prefix(60)) + "…" : $0 }.joined(separator: " ")
        let line = String(format: "%.3f\t%.3f\t", exit.processorSeconds, exit.seconds) + words.replacingOccurrences(of: "\n", with: " ") + "\n"
        let file = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard file >= 0 else { return }
        defer { close(file) }
        // One write of a line shorter than a pipe's buffer: lines of commands ending together
        // do not interleave.
        _ = line.utf8CString.withUnsafeBufferPointer { write(file, $0.baseAddress, $0.count - 1) }
    }
}
