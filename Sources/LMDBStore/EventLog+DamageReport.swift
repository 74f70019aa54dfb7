@_spi(Stores) import EventLog
import LMDB

extension EventLog {
    /// Makes LMDB's assertions and faults in a damaged data file one line on stderr, starting
    /// with `prefix`, and exit `exitStatus`, instead of a signal and a backtrace (`DamageGuard`).
    /// Call it first thing in a process, before any store is opened.
    public static func reportDamagedFilesInOneLine(prefix: String, exitStatus: Int32) {
        DamageGuard.configure(prefix: prefix, exitStatus: exitStatus)
    }
}
