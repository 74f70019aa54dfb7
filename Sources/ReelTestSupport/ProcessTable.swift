import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The machine's processes as `/proc` lists them, for tests that stop what they started (a
/// pair's keepers and servers) or what a crashed run left behind. This process is never listed.
enum ProcessTable {
    /// Each process with its command line, arguments separated by spaces (and one after the last).
    static func commandLines() -> [(pid: pid_t, line: String)] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry), pid != getpid(), let bytes = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            return (pid, String(decoding: bytes.map { $0 == 0 ? 32 : $0 }, as: UTF8.self))
        }
    }

    /// The processes whose command line names `path` as an argument (a keeper's `--pgdata`, a
    /// postmaster's `-D`).
    static func naming(_ path: String) -> [pid_t] {
        commandLines().filter { $0.line.contains(path + " ") }.map(\.pid)
    }

    /// The processes whose command line names a path under `directory`.
    static func under(_ directory: String) -> [pid_t] {
        commandLines().filter { $0.line.contains(directory + "/") }.map(\.pid)
    }

    /// The processes whose parent is `pid`.
    static func children(of pid: pid_t) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> pid_t? in
            guard let child = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }
}
