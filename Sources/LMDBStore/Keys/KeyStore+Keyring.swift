@_spi(Stores) import EventLog
import Crypto
import Failures
import Foundation
import LMDB
import Synchronization

/// The key store's keys wrapped under the data directory's keyring (`Schemas/ledger-layout.md`,
/// "Keys wrapped under a keyring"): `keys/` holds each account key only as `KeyWrapping` made it,
/// under the KEK of the generation `meta/kek` names; the KEK lives only in the keyring file
/// (`KeyringFile`, `REEL_KEYRING`), outside the data directory. Every replacement of `keys/` (a
/// deletion) wraps the live keys under a new generation and removes the old one from the keyring,
/// so a backup or copy of the data directory made before a deletion holds the deleted account's
/// key only under a KEK that exists nowhere.
extension KeyStore {
    /// The store id a pair id names (the keyring file's name and the wrapping's binding).
    static func storeID(_ pair: [UInt8]) -> UUID? {
        guard pair.count == 16 else { return nil }
        return UUID(uuid: (pair[0], pair[1], pair[2], pair[3], pair[4], pair[5], pair[6], pair[7],
                           pair[8], pair[9], pair[10], pair[11], pair[12], pair[13], pair[14], pair[15]))
    }

    /// The keyring file in the configured directory (where a new keyring is made).
    func keyring(_ store: UUID) -> KeyringFile { KeyringFile(directory: keyringDirectory, store: store) }

    /// `path` made absolute (against the working directory) and tidied, as `meta/keyring-path`
    /// records it: processes started elsewhere must find the same place.
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: full).standardizedFileURL.path
    }

    /// Where `wrapping`'s keyring is looked for, in order: the directory the key store recorded
    /// (where the keyring was when its generation was written: every process sharing the data
    /// directory finds it there, whatever its own HOME or XDG_CONFIG_HOME), then the configured one
    /// (`REEL_KEYRING`: a keyring an operator moved, or restored elsewhere).
    func keyringPlaces(_ wrapping: Wrapping) -> [String] {
        guard let recorded = wrapping.madeIn, recorded != keyringDirectory else { return [keyringDirectory] }
        return [recorded, keyringDirectory]
    }

    /// The keyring that holds `wrapping`'s generation, and what it holds: the first of
    /// `keyringPlaces` whose file has that generation. A file found without it is a copy of the
    /// data directory from before a deletion (or a keyring older than it); none found names every
    /// place looked in.
    func locateKeyring(_ wrapping: Wrapping) throws -> (file: KeyringFile, contents: KeyringFile.Contents) {
        let places = keyringPlaces(wrapping)
        var stale: (KeyringFile, KeyringFile.Contents)?
        var unreadable: (any Error)?
        for place in places {
            let file = KeyringFile(directory: place, store: wrapping.store)
            let contents: KeyringFile.Contents?
            do {
                contents = try file.read()
            } catch {
                // A place this process may not read (another user's home): the next may serve.
                if unreadable == nil { unreadable = error }
                continue
            }
            guard let contents else { continue }
            if contents.keys[wrapping.generation] != nil { return (file, contents) }
            if stale == nil { stale = (file, contents) }
        }
        if let stale { throw Self.stale(stale.0, has: stale.1.generations, needs: wrapping.generation, directory) }
        if let unreadable { throw unreadable }
        let name = keyring(wrapping.store).path.split(separator: "/").last.map(String.init) ?? ""
        let looked = places.count == 2
            ? "neither in \(places[0]) (where it was made) nor in \(places[1]) (REEL_KEYRING, else the configuration directory)"
            : "not in \(places[0]) (REEL_KEYRING, else the configuration directory)"
        throw Failure(
            .tampered,
            "the keys in \(directory) are wrapped under the keyring \(name), which is missing: it is \(looked); restore it from its backup there, or point REEL_KEYRING at the directory that holds it")
    }

    /// The KEK of `wrapping`'s generation, from the keyring (read once per generation), checked
    /// against what the key store recorded of it.
    func kek(_ wrapping: Wrapping) throws -> SymmetricKey {
        if let kek = keks.withLock({ $0[wrapping.generation] }) { return kek }
        let (file, contents) = try locateKeyring(wrapping)
        guard contents.store == wrapping.store, let kek = contents.keys[wrapping.generation] else { throw file.damaged("it names another store") }
        guard KeyWrapping.check(of: kek, generation: wrapping.generation, store: wrapping.store) == wrapping.check else {
            throw Failure(
                .tampered,
                "the keyring \(file.path) does not match the key store \(directory) (its generation \(wrapping.generation) key is another): restore the keyring this data directory was made with")
        }
        keks.withLock { $0[wrapping.generation] = kek }
        return kek
    }

    static func stale(_ file: KeyringFile, has: [UInt64], needs: UInt64, _ directory: String) -> Failure {
        file.stale(
            has: has, needs: needs, store: "the key store \(directory)",
            copied: "this data directory is a copy from before a deletion (a backup, a snapshot, a file copy)",
            behind: ": the keyring is older than the data directory; restore its newest copy")
    }

    /// `key` as a record of `store`: wrapped under its generation's KEK, or bare in a file from
    /// before the keyring.
    func record(of key: [UInt8], stream: StreamID, in store: Opened) throws -> [UInt8] {
        guard let wrapping = store.wrapping else { return [1] + key }
        return [2] + (try KeyWrapping.wrap(key, stream: stream.rawValue, generation: wrapping.generation, store: wrapping.store, under: kek(wrapping)))
    }

    /// Whether the file holds its keys bare (written before the keyring; a writable open wraps them).
    func needsWrapping() throws -> Bool { try fresh(locked: false).wrapping == nil }

    /// Checks that the keyring opens the file's keys (its generation is there, the one recorded),
    /// and, where it can write, removes the generations older than the file's that a deletion
    /// stopped after its swap left (best effort: `dropRetiredGenerations` is the throwing form).
    /// The file is read without its lock, then the keyring: a deletion in another process may
    /// wrap the keys under a new generation and retire the one read in between, and the keyring
    /// then looks newer than the file. That is told from a copy from before a deletion by reading
    /// the file again: when its generation moved, the check is made again on the new one.
    func checkKeyring(readOnly: Bool) throws {
        var attempts = 0
        while true {
            guard let wrapping = try fresh(locked: false).wrapping else { return }
            do {
                _ = try kek(wrapping)
                break
            } catch {
                attempts += 1
                guard attempts < 5, let now = try fresh(locked: false).wrapping, now.generation != wrapping.generation else { throw error }
            }
        }
        if !readOnly { try? dropRetiredGenerations() }
    }

    /// Removes from the keyring every generation older than the file's, under the key store's
    /// exclusive lock and the keyring's (no replacement of this data directory, nor of a copy
    /// sharing its keyring, is between its steps meanwhile). A deletion is complete only once this
    /// has run.
    func dropRetiredGenerations() throws {
        try lock.withLock(.exclusive) {
            guard let wrapping = try fresh(locked: true).wrapping else { return }
            let file = try locateKeyring(wrapping).file
            let held = try file.acquireLock()
            defer { held.release() }
            // Under both locks no rotation is under way: a prepared file is a stopped one's.
            file.removePrepared()
            guard var contents = try file.read() else { return }
            let retired = contents.generations.filter { $0 < wrapping.generation }
            guard !retired.isEmpty, contents.keys[wrapping.generation] != nil else { return }
            for generation in retired { contents.keys[generation] = nil }
            try file.write(contents)
        }
    }

    /// Wraps the keys of a file from before the keyring: a file with no keys yet (a new data
    /// directory) gets a keyring of generation 1 and its record in place; one holding bare keys is
    /// replaced by a fresh file holding them wrapped (the old file, with the bare keys, removed).
    func wrapKeys() throws {
        let empty = try lock.withLock(.exclusive) { () -> Bool in
            let store = try fresh(locked: true)
            guard store.wrapping == nil else { return false }
            let hasKeys = try store.environment.read { txn in try txn.withCursor(store.keys) { try $0.first() != nil } }
            guard !hasKeys else { return false }
            guard let meta = store.meta, let pair = try store.environment.read({ txn in try txn.get(meta, "pair") }), let id = Self.storeID(pair) else {
                throw LMDBError(code: .invalid, function: "wrapKeys", message: "\(directory) has no pair id to name its keyring by")
            }
            let file = keyring(id)
            let held = try file.acquireLock()
            defer { held.release() }
            let generation = (try file.read()?.generations.last ?? 0) + 1
            let kek = SymmetricKey(size: .bits256)
            try file.write(KeyringFile.Contents(store: id, keys: [generation: kek]))
            let wrapping = Wrapping(
                store: id, generation: generation, check: KeyWrapping.check(of: kek, generation: generation, store: id), madeIn: keyringDirectory)
            try store.environment.write { txn in
                try txn.put(meta, "kek", wrapping.record)
                try txn.put(meta, "keyring-path", Array(keyringDirectory.utf8))
            }
            // The same file (LMDB must not open it twice in a process), its record read again.
            adopt(try Opened(store.environment), destroyed: [], atMicroseconds: 0)
            return true
        }
        if try empty || !needsWrapping() { return }
        let replacement = try KeyStoreReplacement(self, destroying: [])
        try replacement.install()
    }
}
