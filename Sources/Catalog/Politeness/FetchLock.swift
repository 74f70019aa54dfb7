import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Single flight across processes: before fetching, a process locks one byte of a lock file in
/// the cache's directory, chosen by the request's key, and looks in the cache again once it holds
/// it; so two commands asking for one poster, or two `reel saved` filling one list with OMDb's
/// scores, fetch each thing once (and spend OMDb's budget on it once), while different keys are
/// fetched side by side. The byte-range locks are Linux's open file description locks
/// (`F_OFD_SETLK`), which the kernel drops when a process dies (a `kill -9` never leaves a key
/// locked). They exclude other lock instances (other processes) only: within one process the
/// client's single flight keeps one fetch per key (two keys that share a byte are simply not kept
/// apart). Waiting is bounded: after pauses of `maximumWait` in all (on `clock`), or when the
/// task is cancelled, the fetch goes ahead unlocked.
final class FetchLock: Sendable {
    static let ranges: UInt64 = 1 << 16
    static let maximumWait: Duration = .seconds(30)
    private static let setLock: Int32 = 37  // F_OFD_SETLK (Linux ≥ 3.15)
    let path: String
    private let fd: Int32
    /// What the waits between tries are paced by (a test's clock moves only when told).
    private let clock: any Clock<Duration>

    /// Opens (creating) `directory/file`; nil when it cannot be made (a read-only data directory):
    /// fetches then go unlocked, as before the cache existed.
    init?(directory: String, file: String, clock: any Clock<Duration> = ContinuousClock()) {
        path = directory + "/" + file
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.clock = clock
    }

    deinit { close(fd) }

    /// Runs `body` holding the lock of `key`.
    func withLock<T: Sendable>(_ key: String, _ body: () async throws -> T) async rethrows -> T {
        let offset = Self.offset(of: key)
        let locked = await acquire(offset)
        defer { if locked { _ = setLock(offset, type: Int16(F_UNLCK)) } }
        return try await body()
    }

    private func acquire(_ offset: Int64) async -> Bool {
        var waited = Duration.zero
        var pause = Duration.milliseconds(2)
        while true {
            if setLock(offset, type: Int16(F_WRLCK)) { return true }
            guard errno == EAGAIN || errno == EACCES || errno == EINTR, waited < Self.maximumWait else { return false }
            do { try await clock.sleep(for: pause) } catch { return false }
            waited += pause
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    private func setLock(_ offset: Int64, type: Int16) -> Bool {
        var lock = flock()
        lock.l_type = type
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = __off_t(offset)
        lock.l_len = 1
        lock.l_pid = 0
        return fcntl(fd, Self.setLock, &lock) == 0
    }

    /// FNV-1a of the key, into one of 65,536 byte ranges.
    static func offset(of key: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int64(hash % ranges)
    }
}
