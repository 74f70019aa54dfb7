@_spi(Stores) import EventLog
import Dispatch
import Foundation
public import LMDB
import Synchronization

/// Reel's append-only event log: global positions, one stream per account, sealed payloads and a
/// SHA-256 hash chain, in LMDB. `Schemas/ledger-layout.md` documents every byte on disk.
///
/// ```swift
/// let log = try EventLog.open(at: dataDirectory)
/// let event = try ProposedEvent(type: "favorite-added", payload: Array(json.utf8))
/// let result = try await log.append([event], to: try StreamID("account-1"), expected: .noStream)
/// for try await message in log.subscribe(from: 1) { ... }
/// ```
public final class EventLog: Sendable {
    public struct Configuration: Sendable {
        public var ledger: Environment.Configuration
        public var keys: Environment.Configuration
        /// The most events one group commit writes in a transaction.
        public var maximumBatchEvents: Int
        /// How often a caught-up subscription looks for appends made by other processes.
        public var pollInterval: Duration
        /// The event type that closes a stream for good: a stream's key is destroyed only when its
        /// last event on the verified chain is of this type (`ShreddingAuthority`).
        public var closingEventType: String
        /// Where the data directory's keyring lives (the key-encryption keys the stream keys are
        /// wrapped under, kept apart from the data directory): `nil` is `keyrings/` in it.
        public var keyringDirectory: String?
        /// Whether writes grow the Merkle tree (`Schemas/ledger-layout.md`). Only a benchmark's
        /// baseline turns it off: a ledger written so has no tree (or a tree that stops short,
        /// which `verify` refuses) until a write with it builds the rest.
        public var keepsTree = true

        public init(
            ledger: Environment.Configuration = .init(),
            keys: Environment.Configuration = .init(initialMapSize: 1 << 20),
            maximumBatchEvents: Int = 10_000,
            pollInterval: Duration = .milliseconds(100),
            closingEventType: String = "account-deleted",
            keyringDirectory: String? = nil
        ) {
            self.keyringDirectory = keyringDirectory
            self.ledger = ledger
            self.keys = keys
            self.maximumBatchEvents = maximumBatchEvents
            self.pollInterval = pollInterval
            self.closingEventType = closingEventType
        }
    }

    /// The data directory: the log is in `ledger/`, the stream keys in `keys/`.
    public let directory: String
    /// The LMDB environment of `ledger/`.
    public let environment: Environment
    let keyStore: KeyStore
    let databases: LedgerDatabases
    let authority: ShreddingAuthority
    let writer: LedgerWriter
    let committer: GroupCommitter
    let signal = CommitSignal()
    /// The projection tables opened (`projectionTable(named:)`), by their store handle.
    let projectionTables = Mutex<[Database<[UInt8], [UInt8]>]>([])
    let pollInterval: Duration

    /// Opens the log in `directory`, making a new one where there is none. On a read-only file
    /// system it is opened for reading only (changes fail with `.readOnly`).
    ///
    /// `ledger/` and `keys/` belong together: each carries the same pair id (`meta/pair`), and
    /// the log refuses to open one without the other (`missingKeyStore`, `missingLedger`) or
    /// beside another's (`foreignKeyStore`), so nothing is ever started afresh beside history
    /// whose keys, or keys whose history, are gone.
    public static func open(at directory: String, configuration: Configuration = Configuration()) throws -> EventLog {
        var configuration = configuration
        if Environment.isOnReadOnlyFileSystem(directory) {
            configuration.ledger.readOnly = true
            configuration.keys.readOnly = true
        }
        do {
            // Opens take their decisions on what they find (an empty file, a key store beside no
            // ledger, a first pair id) one at a time, never on what another open is making.
            var held: FileLock.Held?
            if !configuration.ledger.readOnly {
                try Environment.createDirectory(directory)
                held = try FileLock.opening(dataDirectory: directory, readOnly: false).acquire(.exclusive)
            }
            defer { held?.release() }
            return try EventLog(directory: directory, configuration: configuration)
        } catch {
            throw EventLogError.wrap(error)
        }
    }

    private init(directory: String, configuration: Configuration) throws {
        self.directory = directory
        let readOnly = configuration.ledger.readOnly
        let keyring = configuration.keyringDirectory ?? directory + "/keyrings"
        let ledgerPath = directory + "/ledger"
        var ledgerFile = stat()
        let ledgerSize: Int? = stat(ledgerPath + "/data.mdb", &ledgerFile) == 0 ? Int(ledgerFile.st_size) : nil
        try KeyStore.clearLeftovers(directory + "/keys", lock: FileLock.keyStore(dataDirectory: directory, readOnly: configuration.keys.readOnly))
        if (ledgerSize ?? 0) == 0 && KeyStore.exists(in: directory) {
            // No ledger (or an empty file) beside a key store: only a key store with no keys may
            // be the rest of a first open that a crash interrupted.
            let keys = try KeyStore(dataDirectory: directory, keyring: keyring, configuration: configuration.keys, create: false, events: 0)
            let (live, destroyed) = try keys.counts()
            if live + destroyed > 0 { throw EventLogError.missingLedger(path: ledgerPath, keys: live + destroyed) }
        }
        if ledgerSize == 0 && !readOnly {
            // A file a crash left before LMDB wrote its first page holds nothing: start it anew.
            unlink(ledgerPath + "/data.mdb")
        }
        environment = try Environment.open(at: ledgerPath, configuration: configuration.ledger)
        let databases = try LedgerDatabases(environment: environment)
        self.databases = databases
        let (head, ledgerPair) = try environment.read { txn in (try databases.head(txn), try txn.get(databases.meta, "pair")) }
        let events = head?.position ?? 0
        keyStore = try KeyStore(
            dataDirectory: directory, keyring: keyring, configuration: configuration.keys, create: events == 0 && ledgerPair == nil, events: events)
        writer = LedgerWriter(databases: databases, keepsTree: configuration.keepsTree)
        pollInterval = configuration.pollInterval
        authority = ShreddingAuthority(databases: databases, closingType: configuration.closingEventType)
        let signal = self.signal
        committer = GroupCommitter(
            environment: environment, writer: writer, maximumBatchEvents: configuration.maximumBatchEvents,
            committed: { signal.notify() })
        let found: [UInt8] =
            readOnly
            ? try environment.read { txn in try txn.get(databases.meta, "format") } ?? Array(LedgerDatabases.format.utf8)
            : try environment.write { txn -> [UInt8] in
                if let format = try txn.get(databases.meta, "format") { return format }
                let format = Array(LedgerDatabases.format.utf8)
                try txn.put(databases.meta, "format", format)
                return format
            }
        guard found == Array(LedgerDatabases.format.utf8) else {
            throw EventLogError.unsupportedFormat(path: environment.path, found: String(decoding: found, as: UTF8.self))
        }
        try pair(ledgerPair, readOnly: readOnly)
        try keyStore.checkKeyring(readOnly: readOnly)
        try destroyResurrectedKeys(readOnly: readOnly)
        // Keys from before the keyring are wrapped now (a new data directory gets its keyring).
        if !readOnly, try keyStore.needsWrapping() { try keyStore.wrapKeys() }
        // A deletion that a crash interrupted is finished by the next change of the ledger; try
        // now, so the key's bytes do not wait for one. A failure here (no space, a record without
        // authority) leaves reading possible; the next change meets it and reports it.
        if !readOnly, try hasPendingShredding() { _ = try? completeShredding() }
    }

    /// Checks that `keys/` belongs to this ledger, and stamps both with one pair id when the
    /// ledger has none yet (a new data directory, or one written before pair ids).
    func pair(_ ledgerPair: [UInt8]?, readOnly: Bool) throws {
        let keysPair = try keyStore.pairID()
        switch (ledgerPair, keysPair) {
        case (let ledger?, let keys?):
            guard ledger == keys else { throw EventLogError.foreignKeyStore(path: keyStore.directory, reason: "its pair id differs from the ledger's") }
        case (_?, nil):
            throw EventLogError.foreignKeyStore(path: keyStore.directory, reason: "it carries no pair id, while the ledger has one")
        case (nil, let keys):
            // A ledger never stamped beside a key store holding keys: a ledger made afresh (an
            // empty LMDB file, say) where the keys' history was; the keys' own ledger is gone.
            let (live, destroyed) = try keyStore.counts()
            if try head() == nil && live + destroyed > 0 {
                throw EventLogError.missingLedger(path: environment.path, keys: live + destroyed)
            }
            // Before the ledger is stamped, the key store must hold a record for every stream
            // that has events (a copy of another ledger's keys, or an old one, does not).
            let streams = try self.streams().map(\.stream)
            let missing = try keyStore.streamsWithoutRecord(streams)
            if let first = missing.first {
                throw EventLogError.foreignKeyStore(
                    path: keyStore.directory, reason: "it holds no key for \(missing.count) of the ledger's \(streams.count) streams (\(first) among them)")
            }
            guard !readOnly else { return }
            let id = try keyStore.stamp(pairID: keys ?? SecureRandom.withBytes(16) { Array($0) })
            try environment.write { txn in try txn.put(databases.meta, "pair", id) }
        }
    }

    func wrapped<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw EventLogError.wrap(error) }
    }
}
