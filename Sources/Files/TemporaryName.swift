#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The name a file being written has beside its target while it has one:
/// `.NAME.reel-PID-XXXXXXXX.tmp` (PID the writer's process id, X random hex). Its writer holds
/// an exclusive `flock` on it for as long as it lives, so a file of this name whose lock is free
/// and whose writer's process is gone was left by a killed writer and may be removed.
public enum TemporaryName {
    /// How long a file whose writer's PID is alive (perhaps reused by another process) is given
    /// before its free lock alone marks it abandoned.
    static let grace: Int = 3_600

    /// A fresh name for a file written to `name`, for this process.
    static func make(for name: String) -> String {
        var random: UInt32 = 0
        withUnsafeMutableBytes(of: &random) { _ = getentropy($0.baseAddress!, $0.count) }
        let hex = String(random, radix: 16)
        return ".\(name).reel-\(getpid())-\(String(repeating: "0", count: 8 - hex.count) + hex).tmp"
    }

    /// The writer's PID when `entry` is a temporary name for `name`.
    static func writer(of entry: String, for name: String) -> pid_t? {
        let prefix = ".\(name).reel-"
        guard entry.hasPrefix(prefix), entry.hasSuffix(".tmp") else { return nil }
        let middle = entry.dropFirst(prefix.count).dropLast(4)
        let parts = middle.split(separator: "-")
        guard parts.count == 2, parts[1].count == 8, parts[1].allSatisfy(\.isHexDigit), let pid = pid_t(parts[0]), pid > 0 else { return nil }
        return pid
    }

    /// Whether the file at `path`, written by `pid`, was left behind by a writer that is gone: a
    /// regular file (never followed through a link) whose lock is free, and whose writer's process
    /// no longer exists (or which has been there longer than `grace`).
    static func isAbandoned(_ path: String, writer pid: pid_t) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else { return false }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        if kill(pid, 0) != 0 && errno == ESRCH { return true }
        return time(nil) - info.st_ctim.tv_sec > grace
    }

    /// Removes what killed writers left beside `name` in `directory`; how many files.
    @discardableResult
    static func sweep(_ directory: String, for name: String) -> Int {
        guard let dir = opendir(directory) else { return 0 }
        var found: [(String, pid_t)] = []
        while let entry = readdir(dir) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let pid = writer(of: entryName, for: name) { found.append((entryName, pid)) }
        }
        closedir(dir)
        var removed = 0
        for (entry, pid) in found where isAbandoned(directory + "/" + entry, writer: pid) {
            if unlink(directory + "/" + entry) == 0 { removed += 1 }
        }
        return removed
    }
}
