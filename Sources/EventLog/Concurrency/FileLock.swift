import Foundation
import LMDB

#if canImport(Glibc)
import Glibc
#endif

/// A lock every process honours: `flock` on a file in the data directory that is made once and
/// never replaced, renamed or removed. There are two (`Schemas/ledger-layout.md`):
///
/// - `keys.lock`, around the key store's life cycle (a lock inside `keys/` would be swapped away
///   with the directory it guards): *shared* while opening `keys/` (so no open sees the directory
///   mid-replacement); *exclusive* around every change of the key store (a new key, a
///   replacement), and around clearing leftovers of an interrupted replacement.
/// - `open.lock`, held *exclusive* by a process while it opens the data directory: every
///   decision an open takes on what it finds (an empty `data.mdb` a crash left, a key store
///   beside no ledger, a first pair id) is taken on what no other open is making at that moment.
///
/// Each acquisition opens the file afresh, so two threads of one process exclude each other as
/// two processes do (`flock` belongs to the open file description). Never take one while holding
/// it: a thread that holds the exclusive lock and asks again waits for itself.
/// Lock order: `open.lock`, then the ledger's write transaction, then `keys.lock`; a holder of a
/// later one never waits for an earlier one, so no process holding `keys.lock` ever waits for the
/// ledger, and none holding the ledger waits for an open.
package struct FileLock: Sendable {
    package enum Mode { case shared, exclusive }

    let path: String
    /// On a read-only file system nobody can change anything: no lock is needed (or possible).
    package let readOnly: Bool

    /// `keys.lock`: the key store's life cycle.
    package static func keyStore(dataDirectory: String, readOnly: Bool) -> FileLock {
        FileLock(path: dataDirectory + "/keys.lock", readOnly: readOnly)
    }

    /// `open.lock`: opening the data directory.
    package static func opening(dataDirectory: String, readOnly: Bool) -> FileLock {
        FileLock(path: dataDirectory + "/open.lock", readOnly: readOnly)
    }

    /// A lock held until `release()` (or until the holder is gone).
    package final class Held: @unchecked Sendable {
        private var fd: Int32
        fileprivate init(fd: Int32) { self.fd = fd }
        package func release() {
            if fd >= 0 { close(fd) }  // closing the descriptor releases the lock
            fd = -1
        }
        deinit { release() }
    }

    /// Takes the lock, waiting for it; the caller releases it.
    package func acquire(_ mode: Mode) throws -> Held {
        if readOnly {
            guard mode == .shared else {
                throw LMDBError(code: .readOnly, function: "flock", message: "\(path) is on a read-only file system: nothing here can be changed")
            }
            return Held(fd: -1)
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Environment.systemError("open", path) }
        while flock(fd, mode == .shared ? LOCK_SH : LOCK_EX) != 0 {
            guard errno == EINTR else {
                let error = Environment.systemError("flock", path)
                close(fd)
                throw error
            }
        }
        return Held(fd: fd)
    }

    package func withLock<T>(_ mode: Mode, _ body: () throws -> T) throws -> T {
        let held = try acquire(mode)
        defer { held.release() }
        return try body()
    }
}
