@_spi(Stores) import EventLog
import Crypto
import Failures
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
/// The live keys are wrapped anew under a new generation of the keyring (`KeyStore+Keyring`):
/// the keyring gets the next generation beside the current one, the replacement is written under
/// it, swapped in, and then the keyring keeps the next generation alone, so every copy of the old
/// file (a backup, a snapshot) holds the destroyed keys only under a KEK that exists nowhere.
///
/// Holds the key store's exclusive lock, and the keyring's, from `prepare` until `install` or
/// `abandon`, so no key is made in the old file meanwhile (it would be lost with it), no process
/// opens the directory mid-swap, and no other replacement sharing the keyring is between steps. Preparing is the part that needs disk space: a deletion prepares before
/// its ledger transaction commits, so a full disk fails it with nothing changed.
final class KeyStoreReplacement {
    private let store: KeyStore
    private var held: FileLock.Held?
    private var keyringHeld: FileLock.Held?
    /// The keyring, what it held before this replacement wrote to it, and the KEK of the
    /// generation the replacement wraps under.
    private var keyring: (file: KeyringFile, before: KeyringFile.Contents?, next: UInt64, kek: SymmetricKey)?
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
            let current = try store.fresh(locked: true)
            let wrapping = try nextKeyring(current)
            generation = try Self.write(store, current, destroying: streams, wrapping: wrapping, kek: keyring!.kek, into: store.directory + ".next")
            try Self.reserveLockFile(store, in: store.directory + ".next")
        } catch {
            abandon()
            throw error
        }
    }

    /// Takes the keyring's lock and writes the next generation's KEK beside the current one;
    /// returns the replacement's record of it.
    private func nextKeyring(_ current: KeyStore.Opened) throws -> KeyStore.Wrapping {
        guard let meta = current.meta, let pair = try current.environment.read({ txn in try txn.get(meta, "pair") }), let id = KeyStore.storeID(pair) else {
            throw LMDBError(code: .invalid, function: "replace", message: "\(store.directory) has no pair id to name its keyring by")
        }
        // The keyring that holds the file's generation, wherever it was found: the next one goes
        // beside it (a keyring an operator moved is recorded in its new place from now on).
        let file = try current.wrapping.map { try store.locateKeyring($0).file } ?? store.keyring(id)
        keyringHeld = try file.acquireLock()
        let before = try file.read()
        var keys: [UInt64: SymmetricKey] = [:]
        if let wrapping = current.wrapping { keys[wrapping.generation] = try store.kek(wrapping) }
        // After the file's generation: a generation beyond it is one a replacement that stopped
        // before its swap left, which wraps nothing in use.
        let next = (current.wrapping?.generation ?? before?.generations.last ?? 0) + 1
        let kek = SymmetricKey(size: .bits256)
        keys[next] = kek
        keyring = (file, before, next, kek)
        // Both files the rotation passes through are written now, before the ledger commits: the
        // one it leaves (the next generation alone), put in place after the swap by a rename that
        // needs no space; then the keyring with both generations (in place before the swap).
        // The first to fail for space leaves the keyring as it was.
        do {
            try file.prepare(KeyringFile.Contents(store: id, keys: [next: kek]))
            try file.write(KeyringFile.Contents(store: id, keys: keys))
        } catch let failure as Failure where failure.kind == .noSpace {
            throw Failure(.noSpace, failure.summary + "; nothing was changed")
        }
        return KeyStore.Wrapping(store: id, generation: next, check: KeyWrapping.check(of: kek, generation: next, store: id), madeIn: file.directory)
    }

    private static func write(
        _ store: KeyStore, _ current: KeyStore.Opened, destroying streams: [(stream: StreamID, atMicroseconds: Int64)],
        wrapping: KeyStore.Wrapping, kek: SymmetricKey, into next: String
    ) throws -> UInt64 {
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
                        } else if value.first != 0, case .live(let key)? = try store.decode(value, stream: StreamID(unchecked: stream), in: current) {
                            let bytes = key.withUnsafeBytes { Array($0) }
                            let wrapped = try KeyWrapping.wrap(bytes, stream: stream, generation: wrapping.generation, store: wrapping.store, under: kek)
                            try fresh.put("stream-keys", key: Array(stream.utf8), value: [2] + wrapped)
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
                            if !["generation", "kek", "keyring-path"].contains(name) { try fresh.put("meta", key: Array(name.utf8), value: Array(e.value)) }
                            entry = try cursor.next()
                        }
                    }
                }
                try fresh.put("meta", key: Array("generation".utf8), value: KeyStore.bytes(generation))
                try fresh.put("meta", key: Array("kek".utf8), value: wrapping.record)
                if let place = wrapping.madeIn { try fresh.put("meta", key: Array("keyring-path".utf8), value: Array(place.utf8)) }
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
            try retireKeyring()
            reached(.keyStoreRewritten)
            return
        }
        try Environment.syncFile(parent)
        reached(.keyStoreSwapped)
        try Environment.removeTree(next)  // now the old files
        try adopt()
        try retireKeyring()
        reached(.keyStoreRewritten)
    }

    /// The keyring keeps the new generation alone: the old KEK, the only one that opened the
    /// destroyed keys anywhere, is gone.
    private func retireKeyring() throws {
        guard let keyring else { return }
        try keyring.file.installPrepared()
        self.keyring = nil
    }

    private func adopt() throws {
        let reopened = try KeyStore.Opened(Environment.reopen(at: store.directory, configuration: store.configuration))
        for (stream, time) in destroyed { store.adopt(reopened, destroyed: [stream], atMicroseconds: time) }
    }

    /// Removes the replacement unused, takes the next generation out of the keyring again, and
    /// releases the locks (the key store and its keyring are as they were).
    func abandon() {
        guard held != nil else { return }
        try? Environment.removeTree(next)
        if let keyring {
            keyring.file.removePrepared()
            if let before = keyring.before { try? keyring.file.write(before) } else { try? keyring.file.remove() }
            self.keyring = nil
        }
        release()
    }

    private func release() {
        keyringHeld?.release()
        keyringHeld = nil
        held?.release()
        held = nil
    }

    deinit { abandon() }
}
