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
    private var held: KeyStoreLock.Held?
    /// The streams whose keys this destroys, with when (the marker's time).
    let destroyed: [(stream: StreamID, atMicroseconds: Int64)]
    private var next: String { store.directory + ".next" }

    /// Writes `keys.next/` under the exclusive lock (taken here, kept until `install`/`abandon`).
    /// Streams without a record get a marker too, so they can never get a key.
    init(_ store: KeyStore, destroying streams: [(stream: StreamID, atMicroseconds: Int64)]) throws {
        self.store = store
        destroyed = streams
        let held = try store.lock.acquire(.exclusive)
        self.held = held
        do {
            try Self.write(store, destroying: streams, into: store.directory + ".next")
        } catch {
            try? Environment.removeTree(store.directory + ".next")
            held.release()
            self.held = nil
            throw error
        }
    }

    private static func write(_ store: KeyStore, destroying streams: [(stream: StreamID, atMicroseconds: Int64)], into next: String) throws {
        let current = try store.fresh(locked: true)
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
                            try fresh.put("meta", key: Array(try e.decodeKey(as: String.self).utf8), value: Array(e.value))
                            entry = try cursor.next()
                        }
                    }
                }
            }
        }
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
