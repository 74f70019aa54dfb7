import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory for one test's files (LMDB environments, exports, traces), inside this test
/// process's own directory `reel-tests/run-<pid>` under the system temp dir. The process removes
/// its directory when it exits; directories of runs whose process is gone (killed, crashed) are
/// removed by the next run, so test files never pile up.
public func temporaryDirectory(_ name: String = #function) -> String {
    let template = TestRun.directory + "/" + name.filter { $0.isLetter || $0.isNumber } + "-XXXXXX"
    var bytes = Array(template.utf8CString)
    return bytes.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}

enum TestRun {
    static let base = FileManager.default.temporaryDirectory.appendingPathComponent("reel-tests").path

    /// `reel-tests/run-<pid>`, made on first use, removed at exit.
    static let directory: String = {
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        removeAbandonedRuns()
        let directory = base + "/run-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestRun.directory) }
        return directory
    }()

    /// Removes `run-<pid>` directories whose process no longer runs, after stopping what that
    /// process left running in them (a test process that crashed never reached its exit handlers:
    /// a pair's keepers, which run in sessions of their own, and servers would run on).
    private static func removeAbandonedRuns() {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where entry.hasPrefix("run-") {
            guard let pid = Int32(entry.dropFirst(4)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let directory = base + "/" + entry
            for left in ProcessTable.under(directory) {
                let group = getpgid(left)
                if group > 0, group != getpgrp() { kill(-group, SIGKILL) }
                kill(left, SIGKILL)
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
