import Crypto
import Dispatch
import Foundation
import LMDB
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

        public init(
            ledger: Environment.Configuration = .init(),
            keys: Environment.Configuration = .init(initialMapSize: 1 << 20),
            maximumBatchEvents: Int = 10_000,
            pollInterval: Duration = .milliseconds(100),
            closingEventType: String = "account-deleted"
        ) {
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
    private let writer: LedgerWriter
    private let committer: GroupCommitter
    let signal = CommitSignal()
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
            return try EventLog(directory: directory, configuration: configuration)
        } catch {
            throw EventLogError.wrap(error)
        }
    }

    private init(directory: String, configuration: Configuration) throws {
        self.directory = directory
        let readOnly = configuration.ledger.readOnly
        let ledgerPath = directory + "/ledger"
        var ledgerFile = stat()
        let ledgerSize: Int? = stat(ledgerPath + "/data.mdb", &ledgerFile) == 0 ? Int(ledgerFile.st_size) : nil
        try KeyStore.clearLeftovers(directory + "/keys", lock: KeyStoreLock(dataDirectory: directory, readOnly: configuration.keys.readOnly))
        if (ledgerSize ?? 0) == 0 && KeyStore.exists(in: directory) {
            // No ledger (or an empty file) beside a key store: only a key store with no keys may
            // be the rest of a first open that a crash interrupted.
            let keys = try KeyStore(dataDirectory: directory, configuration: configuration.keys, create: false, events: 0)
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
            dataDirectory: directory, configuration: configuration.keys, create: events == 0 && ledgerPair == nil, events: events)
        writer = LedgerWriter(databases: databases)
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
        try destroyResurrectedKeys(readOnly: readOnly)
        // A deletion that a crash interrupted is finished by the next change of the ledger; try
        // now, so the key's bytes do not wait for one. A failure here (no space, a record without
        // authority) leaves reading possible; the next change meets it and reports it.
        if !readOnly, try hasPendingShredding() { _ = try? completeShredding() }
    }

    /// Checks that `keys/` belongs to this ledger, and stamps both with one pair id when the
    /// ledger has none yet (a new data directory, or one written before pair ids).
    private func pair(_ ledgerPair: [UInt8]?, readOnly: Bool) throws {
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

    // MARK: - Appending

    /// The batch for an append; a small one is sealed here, a large one by whoever writes it
    /// (`SealedBatch.whileSealing`) or by `SealedBatch.sealAll`.
    private func batch(_ events: [ProposedEvent], for stream: StreamID) throws -> SealedBatch {
        try SealedBatch(events, stream: stream, key: try sealingKey(for: stream))
    }

    /// The stream's sealing key, made on first use; refused for a stream that has events but no
    /// key (`missingKey`): a key made now would leave its history unreadable.
    func sealingKey(for stream: StreamID, in txn: Transaction? = nil) throws -> SymmetricKey {
        try keyStore.sealingKey(for: stream) {
            if let txn { return try databases.version(of: stream, txn) > 0 }
            return try environment.read { try databases.version(of: stream, $0) } > 0
        }
    }

    /// Appends `events` to `stream` atomically, in one transaction of its own on this thread. A
    /// large batch is sealed by the other cores while this thread writes it.
    @discardableResult
    public func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion = .any) throws -> AppendResult {
        do {
            let request = AppendRequest(batch: try batch(events, for: stream), expected: expected)
            let result = try request.batch.whileSealing {
                try environment.write { txn in
                    var head = try databases.head(txn)
                    let result = try writer.append(request, txn, head: &head)
                    try writer.writeHead(head, txn)
                    return result
                }
            }
            if !result.deduplicated { signal.notify() }
            return result
        } catch {
            throw EventLogError.wrap(error)
        }
    }

    /// Appends `events` to `stream` atomically, committed together with other concurrent appends
    /// (group commit: one transaction and one fsync for all callers waiting at that moment).
    /// Sealing happens before the request joins the queue, outside any transaction.
    @discardableResult
    public func append(_ events: [ProposedEvent], to stream: StreamID, expected: ExpectedVersion = .any) async throws -> AppendResult {
        let request: AppendRequest
        do {
            request = AppendRequest(batch: try batch(events, for: stream), expected: expected)
            try request.batch.sealAll()
        } catch {
            throw EventLogError.wrap(error)
        }
        return try await committer.submit(request)
    }

    /// What seals and opens payloads in bulk (batches of 64 or more) in this process: "libcrypto"
    /// (OpenSSL 3, loaded on first use) or "swift-crypto" (when libcrypto cannot be loaded, or
    /// `REEL_LIBCRYPTO=off`). Small batches always use swift-crypto. See `GCMContext`.
    public static var bulkCipher: String { GCMContext.usesLibcrypto ? "libcrypto" : "swift-crypto" }

    /// Grows the map ahead of appending `events` to `stream` in one transaction, so a large write
    /// (an import) does not fill the map, roll back and run twice. An estimate from the envelope
    /// layout: each envelope, its two index entries at half-full pages, and a tenth more.
    public func reserveRoom(forAppending events: [ProposedEvent], to stream: StreamID) throws {
        let s = stream.rawValue.utf8.count
        var bytes = 0
        for event in events {
            let envelope = EnvelopeView.fixedSize + s + event.type.utf8.count + event.payload.count + EnvelopeView.tagSize
            // Past about half a page an envelope goes to overflow pages of its own, whole pages.
            let stored = envelope + 16 > 2_000 ? (envelope + 16 + 4_095) / 4_096 * 4_096 : envelope + 16
            bytes += stored + 2 * ((16 + 8 + 8) + (s + 9 + 8 + 8))
        }
        try wrapped { try environment.reserve(bytes + bytes / 10) }
    }

    /// Runs `body` in one write transaction of the ledger and commits it durably: appends made
    /// through it and the caller's own writes (projections) land together or not at all.
    ///
    /// Every such transaction first finishes the key destruction of streams closed earlier whose
    /// keys are not destroyed yet (a deletion a crash interrupted), on the chain's authority
    /// only. Keys whose destruction `body` prepared (`LedgerWrite.destroyKeysOnCommit`) are
    /// destroyed once the transaction is committed; `step` names the points passed.
    public func write<T>(shredding step: (ShreddingStep) -> Void = { _ in }, _ body: (LedgerWrite) throws -> T) throws -> T {
        var appended = false
        var replacement: KeyStoreReplacement?
        // A replacement prepared by a transaction that did not commit is removed unused.
        defer { replacement?.abandon() }
        let value: T
        do {
            // Errors of the caller's own pass through as they are; the log's become EventLogError.
            value = try environment.write { txn in
                replacement?.abandon()  // a body run again (the map grew) prepares again
                replacement = nil
                let write = try LedgerWrite(log: self, transaction: txn)
                try finishPendingShredding(write, step: step)
                let value = try body(write)
                // An append that failed midway left part of its batch: never commit that.
                if let broken = write.brokenBy { throw broken }
                try writer.writeHead(write.head, txn)
                appended = write.appended
                replacement = write.replacement
                return value
            }
        } catch let error as LMDBError {
            throw EventLogError.storage(error)
        }
        if appended { signal.notify() }
        if let prepared = replacement {
            replacement = nil
            step(.committed)
            try wrapped { try prepared.install(reached: step) }
            // The ledger records the keys as destroyed. Should this fail (no space), the next
            // change of the ledger records it: the keys are destroyed either way.
            let done = try? environment.write { txn in
                for (stream, time) in prepared.destroyed {
                    try txn.put(databases.closedStreams, stream.rawValue, ClosedStream(stream: stream, keyDestroyed: true, closedAtMicroseconds: time).bytes)
                }
                try recordKeyGeneration(prepared.generation, txn)
            }
            if done != nil { step(.recorded) }
        }
        return value
    }

    /// Closed streams whose key destruction is not recorded as done.
    private func pendingShredding(_ txn: Transaction) throws -> [ClosedStream] {
        try txn.withCursor(databases.closedStreams) { cursor in
            var out: [ClosedStream] = []
            var entry = try cursor.first()
            while let e = entry {
                if e.value.first != 1 {
                    let stream = StreamID(unchecked: try e.decodeKey(as: String.self))
                    guard let closed = ClosedStream(stream: stream, bytes: Array(e.value)) else {
                        throw EventLogError.unauthorizedShredding(stream: stream, reason: "its closed-streams record is malformed")
                    }
                    out.append(closed)
                }
                entry = try cursor.next()
            }
            return out
        }
    }

    /// Records the key store's generation in the ledger (`meta/keys-generation`), never lowering it.
    private func recordKeyGeneration(_ generation: UInt64, _ txn: Transaction) throws {
        guard generation > (try recordedKeyGeneration(txn)) else { return }
        try txn.put(databases.meta, "keys-generation", KeyStore.bytes(generation))
    }

    private func recordedKeyGeneration(_ txn: Transaction) throws -> UInt64 {
        let bytes = try txn.get(databases.meta, "keys-generation") ?? []
        return bytes.count == 8 ? bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } : 0
    }

    /// A `keys/` older than the ledger's last replacement of it (restored alone from a backup)
    /// holds keys destroyed since: they are destroyed again, on the chain's authority, before
    /// anything reads them (a read-only data directory cannot, and is refused).
    private func destroyResurrectedKeys(readOnly: Bool) throws {
        let recorded = try environment.read { txn in try recordedKeyGeneration(txn) }
        let generation = try keyStore.generation()
        guard generation < recorded else { return }
        let closed = try environment.read { txn in try closedStreams(txn) }
        let resurrected = try closed.filter { if case .live = try keyStore.state(of: $0.stream) { return true } else { return false } }
        if resurrected.isEmpty { return }
        if readOnly {
            throw EventLogError.foreignKeyStore(
                path: keyStore.directory,
                reason: "it is older than the ledger (generation \(generation), the ledger's \(recorded)) and holds the keys of \(resurrected.count) deleted accounts")
        }
        try environment.write { txn in
            for closed in resurrected {
                let pending = ClosedStream(stream: closed.stream, keyDestroyed: false, closedAtMicroseconds: closed.closedAtMicroseconds)
                try txn.put(databases.closedStreams, closed.stream.rawValue, pending.bytes)
            }
        }
        try completeShredding()
    }

    private func hasPendingShredding() throws -> Bool {
        try environment.read { txn in try !pendingShredding(txn).isEmpty }
    }

    /// Finishes, inside `write`, what `pendingShredding` lists: each on the chain's authority
    /// (else nothing is destroyed and the transaction fails), the keys destroyed by a
    /// replacement of the key store, and the ledger's records set to done.
    private func finishPendingShredding(_ write: LedgerWrite, step: (ShreddingStep) -> Void) throws {
        let txn = write.transaction
        let pending = try pendingShredding(txn)
        guard !pending.isEmpty else { return }
        var live: [(stream: StreamID, atMicroseconds: Int64)] = []
        for closed in pending {
            let key = try keyStore.key(for: closed.stream)
            try authority.check(closed.stream, key: key, txn)
            if key != nil { live.append((closed.stream, closed.closedAtMicroseconds)) }
        }
        if !live.isEmpty {
            let replacement = try KeyStoreReplacement(keyStore, destroying: live)
            step(.keyStorePrepared)
            try replacement.install(reached: step)
            try recordKeyGeneration(replacement.generation, txn)
        }
        for closed in pending {
            let done = ClosedStream(stream: closed.stream, keyDestroyed: true, closedAtMicroseconds: closed.closedAtMicroseconds)
            try txn.put(databases.closedStreams, closed.stream.rawValue, done.bytes)
        }
    }

    /// Makes the stream's key now (durably, in `keys/`), so a later write transaction need not.
    public func prepareKey(for stream: StreamID) throws {
        _ = try wrapped { try sealingKey(for: stream) }
    }

    /// Every stream whose key is destroyed.
    public func shreddedStreams() throws -> Set<StreamID> {
        try wrapped { try keyStore.destroyedStreams() }
    }

    /// Every closed stream, in stream id order.
    private func closedStreams(_ txn: Transaction) throws -> [ClosedStream] {
        try txn.withCursor(databases.closedStreams) { cursor in
            var out: [ClosedStream] = []
            var entry = try cursor.first()
            while let e = entry {
                let stream = StreamID(unchecked: try e.decodeKey(as: String.self))
                guard let closed = ClosedStream(stream: stream, bytes: Array(e.value)) else {
                    throw EventLogError.corruptEnvelope(position: 0, reason: "closed-streams/\(stream) is malformed")
                }
                out.append(closed)
                entry = try cursor.next()
            }
            return out
        }
    }

    /// Destroys the keys of closed streams whose destruction a crash interrupted (see `write`):
    /// on the chain's authority, by a replacement of the key store, recorded as done. Returns the
    /// streams it found pending; `step` names each step as it is reached.
    @discardableResult
    public func completeShredding(step: (ShreddingStep) -> Void = { _ in }) throws -> [StreamID] {
        try wrapped {
            let pending = try environment.read { txn in try pendingShredding(txn) }
            guard !pending.isEmpty else { return [] }
            try write(shredding: step) { _ in }
            step(.recorded)
            return pending.map(\.stream)
        }
    }

    /// How many keys the key store holds, live and destroyed.
    public func keyCounts() throws -> (live: Int, destroyed: Int) {
        try wrapped { try keyStore.counts() }
    }

    /// Seals data kept beside the log under the stream's key (see `BlobSealer`); `context` names
    /// its purpose and must be given again to open it.
    public func sealBlob(_ plaintext: [UInt8], for stream: StreamID, context: String) throws -> [UInt8] {
        try wrapped { try BlobSealer.seal(plaintext, stream: stream, context: context, key: try sealingKey(for: stream)) }
    }

    /// A name for data kept beside the log that says nothing once the stream's key is destroyed:
    /// HMAC-SHA256 under the stream's key of `"reel-blob-name/1" ‖ 0x00 ‖ context ‖ 0x00 ‖ bytes`,
    /// as lowercase hex. (A photo's SHA-256 in a database key would outlive the deletion in
    /// LMDB's freed pages, where anyone holding the photo could recognise it.)
    public func blobName(_ bytes: [UInt8], for stream: StreamID, context: String) throws -> String {
        try wrapped {
            let key = try sealingKey(for: stream)
            var message = Array("reel-blob-name/1".utf8) + [0] + Array(context.utf8) + [0]
            message.append(contentsOf: bytes)
            return HMAC<SHA256>.authenticationCode(for: message, using: key).map { String(format: "%02x", $0) }.joined()
        }
    }

    /// Opens a sealed blob; `nil` when the stream's key is destroyed. Throws `corruptBlob` when the
    /// bytes do not authenticate.
    public func openBlob(_ sealed: UnsafeRawBufferPointer, for stream: StreamID, context: String) throws -> [UInt8]? {
        guard let key = try wrapped({ try keyStore.key(for: stream) }) else { return nil }
        do {
            return try BlobSealer.open(sealed, stream: stream, context: context, key: key)
        } catch {
            throw EventLogError.corruptBlob(stream: stream, context: context)
        }
    }

    // MARK: - Reading

    /// The last event's position, time and hash; `nil` for an empty log.
    public func head() throws -> LogHead? {
        try wrapped { try environment.read { try databases.head($0) } }
    }

    /// The head as `txn` sees it (to read it in one snapshot with other things).
    public func head(in txn: Transaction) throws -> LogHead? {
        try wrapped { try databases.head(txn) }
    }

    /// The stream's version: how many events it holds.
    public func version(of stream: StreamID) throws -> UInt64 {
        try wrapped { try environment.read { try databases.version(of: stream, $0) } }
    }

    /// Every stream with its version, in stream id order.
    public func streams() throws -> [StreamSummary] {
        try wrapped {
            try environment.read { txn in
                try txn.withCursor(databases.streams) { cursor in
                    var out: [StreamSummary] = []
                    var entry = try cursor.first()
                    while let e = entry {
                        out.append(StreamSummary(stream: StreamID(unchecked: try e.decodeKey(as: String.self)), version: try e.decodeValue(as: UInt64.self)))
                        entry = try cursor.next()
                    }
                    return out
                }
            }
        }
    }

    /// The global position of an event id, if stored.
    public func position(of eventID: UUID) throws -> UInt64? {
        try wrapped { try environment.read { try $0.get(databases.eventIDs, eventID.bytes) } }
    }

    /// Up to `maxCount` events of `stream` from stream version `version` on, in one read transaction.
    public func read(stream: StreamID, from version: UInt64 = 1, maxCount: Int = Int.max) throws -> [RecordedEvent] {
        try wrapped { try environment.read { txn in try read(stream: stream, from: version, maxCount: maxCount, in: txn) } }
    }

    /// The same, as `txn` sees the log (to read it in one snapshot with other things).
    ///
    /// The stream index is checked as it is read, so that an edited index cannot make a stream
    /// look shorter, longer or reordered: its keys must run through versions `version`, +1, +2…
    /// with no gap, up to the stream's last version in `streams` (when read to the end), and the
    /// envelope each names must be that version of that stream at that position. Otherwise
    /// `EventLogError.brokenChain` (rule 9).
    public func read(stream: StreamID, from version: UInt64 = 1, maxCount: Int = Int.max, in txn: Transaction) throws -> [RecordedEvent] {
        try wrapped {
            let prefix = Array(stream.rawValue.utf8) + [0]
            let first = max(version, 1)
            var positions: [UInt64] = []
            try txn.withCursor(databases.streamIndex) { cursor in
                var entry = try cursor.seek(atLeast: LedgerDatabases.streamIndexKey(stream, first))
                while let e = entry, positions.count < maxCount, e.key.starts(with: prefix) {
                    let wanted = first + UInt64(positions.count)
                    let found = e.key.count == prefix.count + 8 ? UInt64(bigEndian: e.key.loadUnaligned(fromByteOffset: prefix.count, as: UInt64.self)) : nil
                    guard found == wanted else {
                        throw Self.indexProblem(0, "stream-index has no entry for version \(wanted) of stream \(stream)" + (found.map { " (the next is \($0))" } ?? ""))
                    }
                    guard e.value.count == 8 else { throw Self.indexProblem(0, "the stream-index entry for version \(wanted) of stream \(stream) is not a position") }
                    positions.append(UInt64(bigEndian: e.value.loadUnaligned(as: UInt64.self)))
                    entry = try cursor.next()
                }
            }
            if positions.count < maxCount {
                let last = try databases.version(of: stream, txn)
                let end = first - 1 + UInt64(positions.count)
                guard end == max(last, first - 1) else {
                    throw Self.indexProblem(0, "stream-index holds stream \(stream) up to version \(end) but streams says \(last)")
                }
            }
            let stored = try positions.map { position in
                try txn.withValue(databases.events, position) { bytes in
                    guard let bytes else {
                        throw Self.indexProblem(position, "the stream index points to a missing event")
                    }
                    return StoredEnvelope(position: position, bytes: bytes)
                }
            }
            let events = try PayloadOpener.openAll(stored, keyStore: keyStore)
            for (i, event) in events.enumerated() where event.streamID != stream || event.streamVersion != first + UInt64(i) {
                throw Self.indexProblem(
                    event.position,
                    "stream-index names this position for version \(first + UInt64(i)) of stream \(stream), but the event is version \(event.streamVersion) of stream \(event.streamID)")
            }
            return events
        }
    }

    static func indexProblem(_ position: UInt64, _ detail: String) -> EventLogError {
        .brokenChain(VerificationProblem(position: position, rule: .indexMismatch, detail: detail))
    }

    /// Up to `maxCount` events of the whole log from global position `position` on.
    public func read(from position: UInt64 = 1, maxCount: Int = 1_000) throws -> [RecordedEvent] {
        try wrapped { try environment.read { try recordedEvents(from: position, maxCount: maxCount, $0) } }
    }

    /// The same, as `txn` sees the log (to read it in one snapshot with other things).
    public func read(from position: UInt64, maxCount: Int, in txn: Transaction) throws -> [RecordedEvent] {
        try wrapped { try recordedEvents(from: position, maxCount: maxCount, txn) }
    }

    /// Replays the events at `positions` over `partitions` lanes split by stream: each event goes
    /// to its stream's lane, as `body(partition, view)`, so one lane sees all of a stream's events
    /// in order and lanes share nothing (each can keep its own projections). Each lane reads in a
    /// snapshot of its own; stored events never change, so all see the same bytes. What is read is
    /// checked as it is read (see `ReplayCheck`; the envelope before `positions` is taken as given):
    /// a broken chain is `EventLogError.brokenChain`. When lanes fail, the error at the earliest
    /// position is thrown; `body`'s errors as it threw them.
    public func replay(
        _ positions: Range<UInt64>, partitions: Int, _ body: @Sendable (_ partition: Int, EventView) throws -> Void
    ) throws {
        try replay(positions, verifying: ReplayCheck(partitions: partitions), body)
    }

    /// The same as one call of a replay in several (a rebuild's batches, in position order), whose
    /// `check` carries what the chain checks need from one call to the next; it sets the number of
    /// partitions. After the last call, `check.finish(head:)` compares the end with the head.
    public func replay(
        _ positions: Range<UInt64>, verifying check: ReplayCheck, _ body: @Sendable (_ partition: Int, EventView) throws -> Void
    ) throws {
        guard !positions.isEmpty else { return }
        let lanes = check.partitions
        let start = try wrapped { try check.start(positions) { try anchor(before: positions.lowerBound) } }
        let failures = Mutex<[(position: UInt64, error: any Error)]>([])
        let ended = Mutex<(position: UInt64, hash: [UInt8], time: Int64)?>(nil)
        LanePool.shared.run(lanes: lanes) { lane in
            var reader = ReplayLane(keyStore: keyStore, count: Int(clamping: positions.count))
            var walk = ReplayCheck.Walk(start, check: check, lane: lane)
            defer { walk.release() }
            // Where a failure is: the event being read, or (when the cursor fails moving on) the
            // one after the last read, as a walk in order would meet it.
            var at = positions.lowerBound
            do {
                try environment.read { txn in
                    try txn.withCursor(databases.events) { cursor in
                        var entry = try cursor.seek(atLeast: positions.lowerBound)
                        while let e = entry {
                            guard e.key.count == 8 else {
                                throw ReplayCheck.problem(walk.expected, .undecodable, "a key of \(e.key.count) bytes is not a position")
                            }
                            at = UInt64(bigEndian: e.key.loadUnaligned(as: UInt64.self))
                            try walk.checkOrder(key: at)
                            guard at < positions.upperBound else { break }
                            let view: EnvelopeView
                            do throws(EnvelopeDecodingError) { view = try EnvelopeView(e.value) } catch { throw ReplayCheck.problem(at, .undecodable, error.reason) }
                            try walk.checkPosition(view, key: at)
                            let (partition, streamHash) = reader.partition(of: view, count: lanes)
                            if partition == lane {
                                try walk.checkOwned(view, streamHash: streamHash)
                                try reader.view(view, position: at) { event in
                                    do { try body(lane, event) } catch { throw Passed(error: error) }
                                }
                            }
                            walk.advance(view)
                            at += 1
                            entry = try cursor.next()
                        }
                        if lane == 0 { ended.withLock { $0 = (walk.expected, walk.previousHashBytes, walk.lastTime) } }
                    }
                }
            } catch {
                if case EventLogError.brokenChain(let problem) = error { at = problem.position }
                failures.withLock { $0.append((at, error)) }
            }
        }
        if let first = failures.withLock({ $0.min { $0.position < $1.position } }) {
            if let passed = first.error as? Passed { throw passed.error }
            throw EventLogError.wrap(first.error)
        }
        guard let ended = ended.withLock({ $0 }) else { return }
        check.end(at: ended.position, previousHash: ended.hash, lastTime: ended.time)
    }

    /// The hash and time of the envelope at `position` - 1, where a replay from `position` starts.
    private func anchor(before position: UInt64) throws -> (hash: [UInt8], time: Int64)? {
        guard position > 1 else { return nil }
        return try environment.read { txn in
            try txn.withValue(databases.events, position - 1) { bytes in
                guard let bytes, let view = try? EnvelopeView(bytes) else { return nil }
                return (Array(view.hash), view.recordedAtMicroseconds)
            }
        }
    }

    func recordedEvents(from position: UInt64, maxCount: Int, _ txn: Transaction) throws -> [RecordedEvent] {
        try PayloadOpener.openAll(try storedEnvelopes(from: position, maxCount: maxCount, txn), keyStore: keyStore)
    }

    /// Up to `maxCount` envelopes from `position` on, as bytes in the map (valid in `txn`).
    private func storedEnvelopes(from position: UInt64, maxCount: Int, _ txn: Transaction) throws -> [StoredEnvelope] {
        var stored: [StoredEnvelope] = []
        stored.reserveCapacity(min(maxCount, 16_384))
        try txn.withCursor(databases.events) { cursor in
            var expected = max(position, 1)
            var entry = try cursor.seek(atLeast: expected)
            while let e = entry, stored.count < maxCount {
                // Positions run on without a gap: a reader that goes on from the last position it
                // read (catch-up, a subscription) would otherwise read the same events forever.
                let key = try Self.position(e, expected: expected)
                stored.append(StoredEnvelope(position: key, bytes: e.value))
                expected += 1
                entry = try cursor.next()
            }
        }
        return stored
    }

    /// The key of an `events` entry, which must be `expected` (rule 1).
    static func position(_ entry: Cursor.Entry, expected: UInt64) throws -> UInt64 {
        guard entry.key.count == 8 else {
            throw EventLogError.brokenChain(VerificationProblem(position: expected, rule: .undecodable, detail: "a key of \(entry.key.count) bytes is not a position"))
        }
        let key = UInt64(bigEndian: entry.key.loadUnaligned(as: UInt64.self))
        guard key == expected else {
            throw EventLogError.brokenChain(VerificationProblem(position: expected, rule: .gap, detail: "the next stored position is \(key)"))
        }
        return key
    }

    /// Up to `maxCount` envelopes as stored (payloads sealed) from global position `position` on.
    public func envelopes(from position: UInt64 = 1, maxCount: Int = 1_000) throws -> [Envelope] {
        try wrapped {
            try environment.read { txn in
                var out: [Envelope] = []
                try txn.withCursor(databases.events) { cursor in
                    var expected = max(position, 1)
                    var entry = try cursor.seek(atLeast: expected)
                    while let e = entry, out.count < maxCount {
                        let key = try Self.position(e, expected: expected)
                        let envelope: Envelope
                        do { envelope = try Envelope(bytes: e.value) } catch let error as EnvelopeDecodingError {
                            throw EventLogError.corruptEnvelope(position: key, reason: error.reason)
                        }
                        guard envelope.position == key else { throw PayloadOpener.positionMismatch(key, envelope.position) }
                        out.append(envelope)
                        expected += 1
                        entry = try cursor.next()
                    }
                }
                return out
            }
        }
    }

    /// Every event from `position` to the end of the log as it is when each batch is read, read in
    /// batches of `batchSize`: no read transaction is held while the consumer awaits.
    public func events(from position: UInt64 = 1, batchSize: Int = 1_024) -> EventBatches {
        EventBatches(log: self, start: position, batchSize: batchSize)
    }

    /// A catch-up subscription: history from `position`, then `.caughtUp`, then new events as they
    /// are committed, by this process or any other.
    public func subscribe(from position: UInt64 = 1, batchSize: Int = 1_024) -> Subscription {
        Subscription(log: self, start: position, batchSize: batchSize)
    }

    // MARK: - Audit and maintenance

    /// Walks the whole chain in one snapshot; see `LedgerVerifier`.
    public func verify(expectedHead: ChainHash? = nil, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> VerificationReport {
        try wrapped {
            try LedgerVerifier(databases: databases).verify(environment, expectedHead: expectedHead, progress: progress)
        }
    }

    /// Writes a compacted, consistent copy of the ledger and its keys into `directory` (new or
    /// empty) as `ledger/` and `keys/`. The copy holds the keys: keep it as safe as the original.
    public func backup(to directory: String) throws {
        try wrapped {
            // Both under the shared lock: no key is destroyed between the ledger's snapshot and
            // the key store's (an account open in the copy always has its key), and the keys are
            // copied from the file `keys/` holds now.
            try keyStore.lock.withLock(.shared) {
                try environment.copy(to: directory + "/ledger", compact: true)
                try keyStore.fresh(locked: true).environment.copy(to: directory + "/keys", compact: true)
            }
        }
    }

    private func wrapped<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw EventLogError.wrap(error) }
    }
}

/// An error of a replay's `transform`, which reaches the caller as it was thrown.
private struct Passed: Error { let error: any Error }

/// Envelope bytes in the memory map, valid while their read transaction lasts.
struct StoredEnvelope: @unchecked Sendable {
    let position: UInt64
    let bytes: UnsafeRawBufferPointer
}

/// Opens envelopes into recorded events, keeping the last stream's key schedule.
///
/// Unchecked `Sendable`: each lane starts from a copy made before any key is looked up, and the
/// `GCMContext` a lane makes stays on that lane.
struct PayloadOpener: @unchecked Sendable {
    /// Opens a batch read in one transaction (call it inside that transaction). Opening is CPU work
    /// (AES-GCM), so large batches are spread across the cores.
    static func openAll(_ stored: [StoredEnvelope], keyStore: KeyStore) throws -> [RecordedEvent] {
        // Contiguous slices keep each lane on runs of the same stream: one key lookup per run.
        try Parallel.map(stored, state: PayloadOpener(keyStore: keyStore, count: stored.count)) { opener, envelope in
            try opener.recordedEvent(envelope.bytes, position: envelope.position)
        }
    }

    let keyStore: KeyStore
    private var lastKey: KeyLookup = .none
    private enum KeyLookup { case none, live(GCMContext), destroyed }
    /// This lane's contexts by stream, so interleaved streams do not set their keys up again
    /// for every event; emptied when it reaches `cacheLimit`.
    private var contexts: [StreamID: KeyLookup] = [:]
    private static let cacheLimit = 1_024
    /// The envelope opened last, whose stream id and type the next one may share.
    private var previous: Envelope?

    /// Whether the batch is large enough for libcrypto (see `GCMContext`).
    private let bulk: Bool

    init(keyStore: KeyStore, count: Int) {
        self.keyStore = keyStore
        bulk = count >= GCMContext.bulkThreshold
    }

    /// An envelope stored under another position than its own (rule 3).
    static func positionMismatch(_ key: UInt64, _ found: UInt64) -> EventLogError {
        .brokenChain(VerificationProblem(position: key, rule: .positionMismatch, detail: "the envelope says position \(found)"))
    }

    mutating func recordedEvent(_ bytes: UnsafeRawBufferPointer, position: UInt64) throws -> RecordedEvent {
        let view: EnvelopeView
        let envelope: Envelope
        do {
            view = try EnvelopeView(bytes)
            envelope = try Envelope(view: view, previous: previous)
        } catch {
            throw EventLogError.corruptEnvelope(position: position, reason: "\(error)")
        }
        guard envelope.position == position else { throw Self.positionMismatch(position, envelope.position) }
        // The same stream as the last envelope: `Envelope` reused its id, so this is a pointer check.
        let sameStream = previous?.streamID == envelope.streamID
        previous = envelope
        if !sameStream {
            if let cached = contexts[envelope.streamID] {
                lastKey = cached
            } else {
                lastKey = try (try keyStore.key(for: envelope.streamID)).map { .live(try GCMContext(key: $0, bulk: bulk)) } ?? .destroyed
                if contexts.count >= Self.cacheLimit { contexts.removeAll(keepingCapacity: true) }
                contexts[envelope.streamID] = lastKey
            }
        }
        guard case .live(let key) = lastKey else { return RecordedEvent(envelope: envelope, payload: nil) }
        do {
            return RecordedEvent(envelope: envelope, payload: try PayloadSealer.open(view, context: key))
        } catch {
            throw EventLogError.corruptEnvelope(position: position, reason: "the payload does not authenticate under the stream's key")
        }
    }
}
