@_spi(Stores) import EventLog
import Crypto
import Failures
import Foundation
import LMDB
import Synchronization

/// The per-stream sealing keys, in their own small LMDB environment (`keys/`), each stored
/// wrapped under the key-encryption key (KEK) of the file's generation of the data directory's
/// keyring (`KeyringFile`, kept outside the data directory: `KeyStore+Keyring.swift`).
///
/// A stream's key is made with its first event. Destroying it (crypto-shredding) replaces the key
/// by a marker, so the stream can never get a new key and its sealed payloads stay unreadable for
/// good. The marker is never written over the key in place (LMDB would keep the key's bytes in a
/// freed page): a replacement environment is written fresh without it (`KeyStoreReplacement`) and
/// swapped in for the whole directory.
///
/// Every process follows one protocol (`Schemas/ledger-layout.md`, "The key store's life
/// cycle"), built on `FileLock.keyStore`: opens of `keys/` under the shared lock, every change under
/// the exclusive one. A handle on a replaced file still reads every key that existed then, so it
/// is reopened only before a change (under the exclusive lock) and when a stream has no record in
/// it (the key may have been made in the new file since).
final class KeyStore: Sendable {
    enum State: Sendable {
        case live(SymmetricKey)
        case destroyed(atMicroseconds: Int64)
    }

    struct Opened: Sendable {
        let environment: Environment
        let keys: Database<String, [UInt8]>
        /// `nil` in a read-only key store written before the pair id existed.
        let meta: Database<String, [UInt8]>?
        /// The keyring generation this file's keys are wrapped under (`meta/kek`); `nil` in a
        /// file from before the keyring, whose keys are bare.
        let wrapping: Wrapping?

        init(_ environment: Environment) throws {
            self.environment = environment
            keys = try environment.database(named: "stream-keys")
            do {
                meta = try environment.database(named: "meta")
            } catch LMDBError.Code.notFound {
                meta = nil
            }
            let meta = self.meta
            wrapping = try environment.read { txn -> Wrapping? in
                guard let meta, let pair = try txn.get(meta, "pair"), let record = try txn.get(meta, "kek") else { return nil }
                let place = try txn.get(meta, "keyring-path").flatMap { String(validating: $0, as: UTF8.self) }
                return Wrapping(pair: pair, record: record, madeIn: place)
            }
        }
    }

    /// What `meta/kek` records: the generation of the keyring whose KEK wraps the file's keys,
    /// and that KEK's check value (`KeyWrapping.check`), under the store id the pair id makes;
    /// and what `meta/keyring-path` records: the directory the keyring was in when that
    /// generation was written (absolute), where every process looks for it first.
    struct Wrapping: Sendable, Equatable {
        let store: UUID
        let generation: UInt64
        let check: [UInt8]
        /// The keyring's directory when the generation was written; `nil` in a file that did not
        /// record it.
        let madeIn: String?

        init(store: UUID, generation: UInt64, check: [UInt8], madeIn: String?) {
            self.store = store
            self.generation = generation
            self.check = check
            self.madeIn = madeIn
        }

        init?(pair: [UInt8], record: [UInt8], madeIn: String?) {
            guard let store = KeyStore.storeID(pair), record.count == 40 else { return nil }
            self.init(
                store: store, generation: record[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }, check: Array(record[8...]),
                madeIn: madeIn.flatMap { $0.hasPrefix("/") ? $0 : nil })
        }

        var record: [UInt8] { KeyStore.bytes(generation) + check }
    }

    static let databaseNames = ["stream-keys", "meta"]

    let directory: String
    let lock: FileLock
    /// Where the configuration says the keyring lives (`DIRECTORY/PAIRID.keyring`), absolute:
    /// looked in after the directory the key store records (`KeyStore+Keyring.swift`).
    let keyringDirectory: String
    /// The KEKs read from the keyring, by generation (a generation's KEK never changes).
    let keks = Mutex<[UInt64: SymmetricKey]>([:])
    let configuration: Environment.Configuration
    private let opened: Mutex<Opened>
    private let cache = Mutex<[StreamID: State]>([:])
    private let reopening = Mutex<Void>(())

    /// Whether `dataDirectory` holds a key store (after leftovers of a replacement are cleared).
    static func exists(in dataDirectory: String) -> Bool {
        Environment.fileIdentity(ofDirectory: dataDirectory + "/keys") != nil
    }

    /// Opens `keys/` in `dataDirectory`; a missing one is made only when `create` is set (the
    /// caller decided it is a new data directory), else refused.
    init(dataDirectory: String, keyring: String, configuration: Environment.Configuration, create: Bool, events: UInt64) throws {
        directory = dataDirectory + "/keys"
        keyringDirectory = Self.absolute(keyring)
        lock = FileLock.keyStore(dataDirectory: dataDirectory, readOnly: configuration.readOnly)
        self.configuration = configuration
        try Self.clearLeftovers(directory, lock: lock)
        let directory = self.directory
        opened = Mutex(
            try lock.withLock(.shared) {
                guard create || Environment.fileIdentity(ofDirectory: directory) != nil else {
                    throw EventLogError.missingKeyStore(path: directory, events: events)
                }
                return try Opened(Environment.open(at: directory, configuration: configuration))
            })
    }

    private var current: Opened { opened.withLock { $0 } }

    /// The handle on the file the directory holds now, reopened if it was replaced. `locked`: the
    /// caller holds the exclusive lock (else the shared one is taken for the reopen).
    func fresh(locked: Bool) throws -> Opened {
        let held = current
        guard try held.environment.isSuperseded else { return held }
        // One reopen at a time in this process, checked again once it is our turn: LMDB must not
        // have one file open twice in a process (closing one handle drops the other's locks).
        // The file lock first, then the mutex, in every path: a thread holding the exclusive lock
        // never waits for a mutex held by a thread waiting for that lock.
        let reopen = {
            try self.reopening.withLock { _ in
                let now = self.current
                guard try now.environment.isSuperseded else { return now }
                let reopened = try Opened(Environment.reopen(at: self.directory, configuration: self.configuration))
                self.opened.withLock { $0 = reopened }
                return reopened
            }
        }
        return locked ? try reopen() : try lock.withLock(.shared, reopen)
    }

    /// Adopts the handle a replacement made (its caller holds the exclusive lock).
    func adopt(_ replaced: Opened, destroyed streams: [StreamID], atMicroseconds time: Int64) {
        opened.withLock { $0 = replaced }
        cache.withLock { cache in
            for stream in streams { cache[stream] = .destroyed(atMicroseconds: time) }
        }
    }

    /// A record as the file `store` holds it: a wrapped key opened under its keyring's KEK.
    func decode(_ bytes: [UInt8], stream: StreamID, in store: Opened) throws -> State? {
        guard bytes.first == 2 else { return Self.decode(bytes) }
        guard bytes.count == 1 + KeyWrapping.wrappedSize, let wrapping = store.wrapping else { return nil }
        let kek = try kek(wrapping)
        guard let key = KeyWrapping.unwrap(Array(bytes[1...]), stream: stream.rawValue, generation: wrapping.generation, store: wrapping.store, under: kek) else {
            throw Failure(
                .tampered,
                "the key of \(stream) in \(directory) does not open under generation \(wrapping.generation) of its keyring: the key store was changed")
        }
        return .live(SymmetricKey(data: key))
    }

    /// A bare record: a live key (before the keyring) or a destroyed marker.
    static func decode(_ bytes: [UInt8]) -> State? {
        if bytes.count == 33, bytes[0] == 1 { return .live(SymmetricKey(data: bytes[1...])) }
        if bytes.count == 9, bytes[0] == 0 {
            let micros = bytes[1...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return .destroyed(atMicroseconds: Int64(bitPattern: micros))
        }
        return nil
    }

    static func marker(atMicroseconds time: Int64) -> [UInt8] {
        var marker: [UInt8] = [0]
        withUnsafeBytes(of: UInt64(bitPattern: time).bigEndian) { marker.append(contentsOf: $0) }
        return marker
    }

    /// The stream's key state, or `nil` when the stream never had a key.
    func state(of stream: StreamID) throws -> State? {
        if let state = cache.withLock({ $0[stream] }) { return state }
        var store = current
        var stored = try store.environment.read { txn in try txn.get(store.keys, stream.rawValue) }
        if stored == nil {
            store = try fresh(locked: false)
            stored = try store.environment.read { txn in try txn.get(store.keys, stream.rawValue) }
        }
        guard var stored else { return nil }
        // A deletion in another process may replace the file under this handle and retire its
        // generation from the keyring before this process read that generation's KEK: the
        // record then does not open here, but the file that replaced it holds the stream's key
        // (or its marker) under the generation that is current. Read there, as often as
        // deletions keep replacing it.
        var state: State?
        for attempt in 1... {
            do {
                state = try decode(stored, stream: stream, in: store)
                break
            } catch {
                guard attempt < 100, (try? store.environment.isSuperseded) == true else { throw error }
                store = try fresh(locked: false)
                guard let again = try store.environment.read({ txn in try txn.get(store.keys, stream.rawValue) }) else { return nil }
                stored = again
            }
        }
        guard let state else { return nil }
        cache.withLock { $0[stream] = state }
        return state
    }

    /// The key to open the stream's payloads, `nil` when it is destroyed. A stream that has
    /// events must have a record: `nil` state means the key store is not this ledger's.
    func key(for stream: StreamID) throws -> SymmetricKey? {
        try forgetIfReplaced()
        switch try state(of: stream) {
        case .live(let key): return key
        case .destroyed: return nil
        case nil: throw EventLogError.missingKey(stream)
        }
    }

    /// Forgets the keys this process read when another process replaced the key store since (a
    /// deletion destroyed keys): a process open for hours (`reel ui`, a service) must not go on
    /// opening payloads with a key destroyed elsewhere. One `stat` of `keys/data.mdb`.
    private func forgetIfReplaced() throws {
        guard try current.environment.isSuperseded else { return }
        _ = try fresh(locked: false)
        cache.withLock { $0.removeAll() }
    }

    /// Runs `body` in a write transaction on the current file, under the exclusive lock (so no
    /// replacement can happen meanwhile, and every writer shares one LMDB lock file).
    private func write<T>(_ body: (Transaction, Opened) throws -> T) throws -> T {
        try lock.withLock(.exclusive) {
            let store = try fresh(locked: true)
            return try store.environment.write { txn in try body(txn, store) }
        }
    }

    /// The key to seal new events of the stream, made (durably) on first use. `hasEvents` says
    /// whether the ledger holds events of the stream already: then a missing key is not made
    /// afresh (the history would become unreadable) but refused.
    func sealingKey(for stream: StreamID, hasEvents: () throws -> Bool = { false }) throws -> SymmetricKey {
        switch try state(of: stream) {
        case .live(let key): return key
        case .destroyed: throw EventLogError.streamShredded(stream)
        case nil: break
        }
        if try hasEvents() { throw EventLogError.missingKey(stream) }
        let state: State = try write { txn, store in
            // Another process may have made it meanwhile: the lock makes check-then-put atomic.
            if let stored = try txn.get(store.keys, stream.rawValue), let state = try decode(stored, stream: stream, in: store) { return state }
            let key = SymmetricKey(size: .bits256)
            try txn.put(store.keys, stream.rawValue, try record(of: key.withUnsafeBytes { Array($0) }, stream: stream, in: store))
            return .live(key)
        }
        cache.withLock { $0[stream] = state }
        if case .live(let key) = state { return key }
        throw EventLogError.streamShredded(stream)
    }

    // MARK: - The pair id

    /// The id shared with the ledger this key store belongs to; `nil` before it was stamped.
    func pairID() throws -> [UInt8]? {
        let store = try fresh(locked: false)
        guard let meta = store.meta else { return nil }
        return try store.environment.read { txn in try txn.get(meta, "pair") }
    }

    /// Stamps the pair id (once: an id stamped already is kept and returned).
    func stamp(pairID id: [UInt8]) throws -> [UInt8] {
        try write { txn, store in
            guard let meta = store.meta else { throw LMDBError(code: .readOnly, function: "stamp", message: "\(directory) is read-only") }
            if let stamped = try txn.get(meta, "pair") { return stamped }
            try txn.put(meta, "pair", id)
            return id
        }
    }

    // MARK: - The generation

    /// How many replacements made this file (`meta/generation`, u64; 0 before the first).
    static func generation(of store: Opened) throws -> UInt64 {
        guard let meta = store.meta else { return 0 }
        let bytes = try store.environment.read { txn in try txn.get(meta, "generation") } ?? []
        return bytes.count == 8 ? bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } : 0
    }

    func generation() throws -> UInt64 { try Self.generation(of: try fresh(locked: false)) }

    static func bytes(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

    // MARK: - Inspection

    /// How many keys the store holds: live and destroyed.
    func counts() throws -> (live: Int, destroyed: Int) {
        let store = try fresh(locked: false)
        return try store.environment.read { txn in
            try txn.withCursor(store.keys) { cursor in
                var live = 0, destroyed = 0
                var entry = try cursor.first()
                while let e = entry {
                    if e.value.first == 0 { destroyed += 1 } else { live += 1 }
                    entry = try cursor.next()
                }
                return (live, destroyed)
            }
        }
    }

    /// Every stream whose key is destroyed.
    func destroyedStreams() throws -> Set<StreamID> {
        let store = try fresh(locked: false)
        return try store.environment.read { txn in
            try txn.withCursor(store.keys) { cursor in
                var out = Set<StreamID>()
                var entry = try cursor.first()
                while let e = entry {
                    if e.value.first == 0 { out.insert(StreamID(unchecked: try e.decodeKey(as: String.self))) }
                    entry = try cursor.next()
                }
                return out
            }
        }
    }

    /// Of `streams`, those the store holds no record for (live or destroyed).
    func streamsWithoutRecord(_ streams: [StreamID]) throws -> [StreamID] {
        let store = try fresh(locked: false)
        return try store.environment.read { txn in
            try streams.filter { try txn.get(store.keys, $0.rawValue) == nil }
        }
    }

    // MARK: - Leftovers

    /// Clears what an interrupted replacement left beside `keys/`: `keys.next/` (a replacement
    /// not swapped in, or, after the swap, the old file holding destroyed keys) and `keys.old/`
    /// (the file-system fallback's old copy). Between the fallback's two renames `keys/` is
    /// missing while `keys.old/` and a complete `keys.next/` exist: the swap is finished.
    /// Done under the exclusive lock, so a replacement in progress is never mistaken for one.
    static func clearLeftovers(_ directory: String, lock: FileLock) throws {
        let next = directory + ".next", old = directory + ".old"
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
        guard exists(next) || exists(old), !lock.readOnly else { return }
        try lock.withLock(.exclusive) {
            if Environment.fileIdentity(ofDirectory: directory) == nil, exists(old) {
                let complete = Environment.fileIdentity(ofDirectory: next) != nil ? next : old
                try? Environment.removeTree(directory)
                guard rename(complete, directory) == 0 else { throw Environment.systemError("rename", complete) }
                try Environment.syncFile((directory as NSString).deletingLastPathComponent)
            }
            try Environment.removeTree(next)
            if Environment.fileIdentity(ofDirectory: directory) != nil { try Environment.removeTree(old) }
        }
    }
}

extension KeyStore {
    /// Puts the keys of streams that have no record here, as a copy brings them (live bytes, or
    /// destroyed); a record held already is kept.
    func adopt(_ keys: [StreamID: CopiedKey]) throws {
        try write { txn, store in
            for (stream, key) in keys where try txn.get(store.keys, stream.rawValue) == nil {
                switch key {
                case .live(let bytes): try txn.put(store.keys, stream.rawValue, try record(of: bytes, stream: stream, in: store))
                case .destroyed(let time): try txn.put(store.keys, stream.rawValue, Self.marker(atMicroseconds: time))
                }
            }
        }
        cache.withLock { $0.removeAll() }
    }
}

extension KeyStore: StreamKeys {}
