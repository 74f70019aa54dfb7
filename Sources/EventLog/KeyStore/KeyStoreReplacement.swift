import Foundation
import LMDB

#if canImport(Glibc)
import Glibc
#endif

/// A replacement of `keys/` that destroys some streams' keys: a new environment written fresh
/// as `keys.next/` with every record of the key store but those keys, which become destroyed
/// markers; then swapped in for `keys/` in one step, and the old file removed. The key's bytes
/// are never written into the new file, and the old one is gone once `install` returns.
///
/// Holds the key store's exclusive lock from `prepare` until `install` or `abandon`, so no key
/// is made in the old file meanwhile (it would be lost with it) and no process opens the
/// directory mid-swap. Preparing is the part that needs disk space: a deletion prepares before
/// its ledger transaction commits, so a full disk fails it with nothing changed.
final class KeyStoreReplacement {
    private let store: KeyStore
    private var held: FileLock.Held?
    /// The streams whose keys this destroys, with when (the marker's time).
    let destroyed: [(stream: StreamID, atMicroseconds: Int64)]
    /// The replacement's generation: one more than the file it replaces (`meta/generation`). The
    /// ledger records it, so a `keys/` restored from before a replacement is recognised.
    private(set) var generation: UInt64 = 0
    private var next: String { store.directory + ".next" }

    /// Writes `keys.next/` under the exclusive lock (taken here, kept until `install`/`abandon`).
    /// Streams without a record get a marker too, so they can never get a key.
    init(_ store: KeyStore, destroying streams: [(stream: StreamID, atMicroseconds: Int64)]) throws {
        self.store = store
        destroyed = streams
        let held = try store.lock.acquire(.exclusive)
        self.held = held
        do {
            generation = try Self.write(store, destroying: streams, into: store.directory + ".next")
            try Self.reserveLockFile(store, in: store.directory + ".next")
        } catch {
            try? Environment.removeTree(store.directory + ".next")
            held.release()
            self.held = nil
            throw error
        }
    }

    private static func write(_ store: KeyStore, destroying streams: [(stream: StreamID, atMicroseconds: Int64)], into next: String) throws -> UInt64 {
        let current = try store.fresh(locked: true)
        let generation = try KeyStore.generation(of: current) + 1
        try Environment.removeTree(next)
        var markers: [String: [UInt8]] = [:]
        for (stream, time) in streams { markers[stream.rawValue] = KeyStore.marker(atMicroseconds: time) }
        try current.environment.read { read in
            let used = try current.environment.info().usedBytes
            try Environment.writeFresh(
                at: next, fileMode: store.configuration.fileMode, estimatedBytes: used, databases: KeyStore.databaseNames
            ) { fresh in
                var unseen = markers
                try read.withCursor(current.keys) { cursor in
                    var entry = try cursor.first()
                    while let e = entry {
                        let stream = try e.decodeKey(as: String.self)
                        let value = Array(e.value)
                        // A marker stays as it is (the first destruction's time is kept).
                        if let marker = unseen.removeValue(forKey: stream), value.first != 0 {
                            try fresh.put("stream-keys", key: Array(stream.utf8), value: marker)
                        } else {
                            try fresh.put("stream-keys", key: Array(stream.utf8), value: value)
                        }
                        entry = try cursor.next()
                    }
                }
                for (stream, marker) in unseen { try fresh.put("stream-keys", key: Array(stream.utf8), value: marker) }
                if let meta = current.meta {
                    try read.withCursor(meta) { cursor in
                        var entry = try cursor.first()
                        while let e = entry {
                            let name = try e.decodeKey(as: String.self)
                            if name != "generation" { try fresh.put("meta", key: Array(name.utf8), value: Array(e.value)) }
                            entry = try cursor.next()
                        }
                    }
                }
                try fresh.put("meta", key: Array("generation".utf8), value: KeyStore.bytes(generation))
            }
        }
        return generation
    }

    /// Makes the replacement's `lock.mdb` now, its blocks allocated, as large as the lock file in
    /// use. LMDB writes a lock file through its memory map: made only when the replacement is
    /// opened after the swap, on a full disk, that write would fault (SIGBUS) after the deletion
    /// committed. Allocated here, before the commit, a full disk fails with nothing changed.
    private static func reserveLockFile(_ store: KeyStore, in next: String) throws {
        var info = stat()
        let size = stat(store.directory + "/lock.mdb", &info) == 0 ? Int(info.st_size) : 0
        let path = next + "/lock.mdb"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, store.configuration.fileMode)
        guard fd >= 0 else { throw Environment.systemError("open", path) }
        defer { close(fd) }
        let wanted = max(size, Int(store.configuration.maxReaders) * 64 + 192)
        let rc = posix_fallocate(fd, 0, off_t(wanted))
        guard rc == 0 else {
            errno = rc
            throw Environment.classifyWriteFailure(Environment.systemError("posix_fallocate", path), at: next)
        }
        guard fsync(fd) == 0 else { throw Environment.systemError("fsync", path) }
    }

    /// Swaps the replacement in and removes the old file (with the destroyed keys' bytes), then
    /// releases the lock. `reached` names each point passed (for crash tests and progress).
    func install(reached: (ShreddingStep) -> Void = { _ in }) throws {
        defer { release() }
        let directory = store.directory
        let parent = (directory as NSString).deletingLastPathComponent
        do {
            try Environment.exchange(next, directory)
        } catch let error as LMDBError where [EINVAL, ENOSYS, EOPNOTSUPP].contains(error.code.rawValue) {
            // No atomic exchange on this file system: the old one aside, then the new one in
            // (`KeyStore.clearLeftovers` finishes this should the process die in between).
            let old = directory + ".old"
            try Environment.removeTree(old)
            guard rename(directory, old) == 0 else { throw Environment.systemError("rename", directory) }
            guard rename(next, directory) == 0 else { throw Environment.systemError("rename", next) }
            try Environment.syncFile(parent)
            reached(.keyStoreSwapped)
            try Environment.removeTree(old)
            try adopt()
            reached(.keyStoreRewritten)
            return
        }
        try Environment.syncFile(parent)
        reached(.keyStoreSwapped)
        try Environment.removeTree(next)  // now the old files
        try adopt()
        reached(.keyStoreRewritten)
    }

    private func adopt() throws {
        let reopened = try KeyStore.Opened(Environment.reopen(at: store.directory, configuration: store.configuration))
        for (stream, time) in destroyed { store.adopt(reopened, destroyed: [stream], atMicroseconds: time) }
    }

    /// Removes the replacement unused and releases the lock (the key store is as it was).
    func abandon() {
        guard held != nil else { return }
        try? Environment.removeTree(next)
        release()
    }

    private func release() {
        held?.release()
        held = nil
    }

    deinit { abandon() }
}
