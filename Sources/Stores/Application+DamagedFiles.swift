public import Reel
import LMDBStore

extension Application {
    /// Makes LMDB's assertions and faults in a damaged data file one line on stderr, starting
    /// with `prefix`, and exit `exitStatus`, instead of a signal and a backtrace.
    /// Call it first thing in a process, before anything is opened.
    public static func reportDamagedFilesInOneLine(prefix: String, exitStatus: Int32) {
        EventLog.reportDamagedFilesInOneLine(prefix: prefix, exitStatus: exitStatus)
    }
}
