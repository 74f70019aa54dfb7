import CLMDB
import Synchronization

/// Turns the two ways LMDB meets a damaged file that are not errors into one line on stderr and an
/// exit status, instead of a signal and a backtrace.
///
/// LMDB has no page checksums. Damage it notices while walking a page comes back as an error
/// (`MDB_CORRUPTED`, `MDB_PAGE_NOTFOUND`), but some is caught by an assertion, which aborts, and
/// some is not noticed until a read faults: SIGBUS on a page past the end of a file cut short,
/// SIGSEGV after a garbage page number or offset, or on a NULL cursor LMDB follows from a garbage
/// node flag. Every open environment registers its map here: an assertion in it
/// (`mdb_env_set_assert`) or a fault whose address lies inside it (or within 4 GiB past its end,
/// where a garbage value size leads) prints that environment's line and calls `_exit`, so nothing
/// more runs in that process — a write transaction then commits nothing (its lock is released by
/// LMDB's robust mutex). A fault at another address in LMDB's own code prints a line naming every
/// open data file (which one LMDB was reading, the handler cannot tell). A fault anywhere else is
/// a bug: it goes to the action installed before (the default, or Swift's backtracer).
///
/// The lines are made when an environment opens; the signal handler only reads them (see
/// `reel_guard_*` in `Sources/CLMDB/shim.h`).
public enum DamageGuard {
    private struct Settings {
        var prefix = ""
        var status: Int32 = 65
    }

    private static let settings = Mutex(Settings())
    /// Serialises changes to the table the handler reads; the data file of each slot in use.
    private static let table = Mutex<[Int32: String]>([:])

    /// Sets how every line starts (the program's name, `"reel: "`) and the exit status, for the
    /// environments opened from now on. Call it first thing.
    public static func configure(prefix: String, exitStatus: Int32) {
        settings.withLock { $0 = Settings(prefix: prefix, status: exitStatus) }
    }

    /// Registers an open environment's map; returns its slot (-1: not guarded, all slots taken).
    static func register(_ env: OpaquePointer, path: String, advice: String?) -> Int32 {
        let (lines, status) = self.lines(path: path, advice: advice)
        return table.withLock { files in
            let slot = Int32(reel_guard_register(env, lines.fault, lines.head, lines.tail, status))
            if slot >= 0 {
                files[slot] = path + "/data.mdb"
                describeGeneral(files)
            }
            return slot
        }
    }

    /// The line for a fault in LMDB's code outside every map: some open file is damaged.
    private static func describeGeneral(_ files: [Int32: String]) {
        let settings = settings.withLock { $0 }
        let line = "\(settings.prefix)a data file is damaged: LMDB faulted following a broken page (open: \(files.values.sorted().joined(separator: ", ")))\n"
        reel_guard_describe_general(line, settings.status)
    }

    /// Makes the lines again, with `advice` (what to do about it) at the end.
    static func describe(_ slot: Int32, path: String, advice: String?) {
        let (lines, status) = self.lines(path: path, advice: advice)
        table.withLock { _ in reel_guard_describe(slot, lines.fault, lines.head, lines.tail, status) }
    }

    /// Reads the map's address and size again, after it was resized.
    static func refresh(_ slot: Int32) {
        table.withLock { _ in reel_guard_refresh(slot) }
    }

    /// Marks this thread as in a transaction of `env`, so a fault meanwhile names that file;
    /// answers the mark before, for `leave`. Here, beside the handler, and nowhere else: every
    /// compilation unit that calls the shim's inline functions gets its own copy of their statics,
    /// and the handler reads this file's.
    static func enter(_ env: OpaquePointer) -> OpaquePointer? { reel_guard_enter(env) }

    static func leave(_ previous: OpaquePointer?) { reel_guard_leave(previous) }

    /// Forgets the slot, before its environment is closed.
    static func unregister(_ slot: Int32) {
        table.withLock { files in
            reel_guard_unregister(slot)
            files[slot] = nil
            describeGeneral(files)
        }
    }

    private static func lines(path: String, advice: String?) -> (lines: (fault: String, head: String, tail: String), status: Int32) {
        let settings = settings.withLock { $0 }
        // One line whatever the path holds: a control character would split it.
        let file = String(String.UnicodeScalarView((path + "/data.mdb").unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : $0 }))
        let tail = (advice.map { "; " + $0 } ?? "") + "\n"
        return (
            (
                fault: "\(settings.prefix)\(file) is damaged: a read of its pages failed (the file is shorter than they say, or a page holds garbage)" + tail,
                head: "\(settings.prefix)\(file) is damaged: LMDB found a broken page (",
                tail: ")" + tail
            ),
            settings.status
        )
    }
}

extension Environment {
    /// Says what to do about damage to this environment's file, at the end of the line printed
    /// when LMDB's assertion or a fault in its map stops the process (e.g. "run 'reel cache clear'").
    public func adviseOnDamage(_ advice: String) {
        DamageGuard.describe(guardSlot, path: path, advice: advice)
    }
}
