import EventLog
import Foundation
import LMDB
import Ledger

/// Reel's application service: commands become events through the domain's decisions, appended
/// with the projections updated in the same write transaction; views read the projections, or
/// replay the log for a point in the past.
public final class AccountService: Sendable {
    public let log: EventLog
    let store: ProjectionStore
    let projector: Projector

    /// Opens the ledger in `directory` (made when missing) and brings the projections up to date.
    public static func open(at directory: String) throws -> AccountService {
        try AccountService(log: EventLog.open(at: directory))
    }

    /// Whether `directory` holds a ledger, or a key store (which is refused when its ledger is
    /// missing), or cannot be looked into (so that opening it reports the permission problem
    /// instead of "no ledger").
    public static func ledgerExists(at directory: String) -> Bool {
        for file in ["/ledger/data.mdb", "/keys/data.mdb"] {
            var info = stat()
            if stat(directory + file, &info) == 0 || errno == EACCES { return true }
        }
        return false
    }

    /// Opens the ledger in `directory` only if there is one.
    public static func openExisting(at directory: String) throws -> AccountService {
        guard ledgerExists(at: directory) else { throw ReelError.noLedger(directory) }
        return try open(at: directory)
    }

    /// `decoder` reads stored events (tests pass one with extra upcasters).
    public init(log: EventLog, decoder: EventDecoder = .standard) throws {
        self.log = log
        store = try ProjectionStore(log: log)
        projector = Projector(decoder: decoder)
        try upgradeProjectionsIfNeeded()
        try catchUpIfNeeded()
    }

    /// Projections of an older format (handles in the clear) are rebuilt in the current one.
    private func upgradeProjectionsIfNeeded() throws {
        let format = try log.environment.read { txn in try txn.get(store.control, "format") }
        guard format != Array(ProjectionStore.format.utf8) else { return }
        if try log.head() == nil {
            try log.write { w in try w.transaction.put(store.control, "format", Array(ProjectionStore.format.utf8)) }
        } else {
            _ = try rebuild(checkOnly: false, compare: false, progress: nil)
        }
    }

    /// Applies events the projections have not seen (appended by another program, or before the
    /// projections existed). Returns how many.
    @discardableResult
    public func catchUpIfNeeded() throws -> Int {
        let behind = try log.environment.read { txn in
            try store.checkpoint(try store.liveSlot(txn), txn)
        } < (try log.head()?.position ?? 0)
        guard behind else { return 0 }
        return try log.write { try store.catchUp($0, projector: projector) }
    }

    // MARK: - Commands

    /// Decides `command` for `handle` and appends its events durably (fsync'd on return), with the
    /// projections updated in the same transaction. `photo` carries the bytes of `.changePhoto`.
    ///
    /// `.deleteAccount` deletes for good: the account's stream is closed in the same transaction,
    /// the key store's replacement without its key is prepared before the commit and swapped in
    /// after it (`LedgerWrite.destroyKeysOnCommit`); `step` names each step as it is reached.
    public func execute(
        _ command: Command, for handle: AccountHandle, photo: [UInt8]? = nil, step: (DeletionStep) -> Void = { _ in }
    ) throws -> CommandReport {
        let report = try record(command, for: handle, photo: photo, step: step)
        if report.appended.contains(where: { $0.event == .accountDeleted }) {
            // The response cache would tell which titles the account looked up, in its language,
            // in live and in freed pages alike: it goes whole (it is only a cache).
            try? Environment.removeTree(Self.catalogCacheDirectory(in: log.directory))
        }
        return report
    }

    /// Where the TMDb response cache of the data directory `directory` lives.
    public static func catalogCacheDirectory(in directory: String) -> String { directory + "/cache" }

    private func record(_ command: Command, for handle: AccountHandle, photo: [UInt8]?, step: (DeletionStep) -> Void) throws -> CommandReport {
        let store = self.store
        return try log.write(shredding: { step(.init($0)) }) { w in
            let txn = w.transaction
            try store.catchUp(w, projector: projector)
            let slot = try store.liveSlot(txn)
            let existing = try store.stream(for: handle, slot, txn)
            let state = try existing.flatMap { try store.state(of: $0, slot, txn) }
            let decision = try Decider.decide(command, for: handle, state: state)
            guard !decision.events.isEmpty else {
                return CommandReport(handle: handle, stream: existing, outcomes: decision.outcomes, appended: [], state: state)
            }
            let stream = try existing ?? StreamID("account-" + UUID.newEventID().uuidString.lowercased())
            let proposed = try decision.events.map { event in
                try ProposedEvent(type: event.type, schemaVersion: event.schemaVersion, payload: CanonicalPayload.bytes(of: event))
            }
            let expected: ExpectedVersion = existing == nil ? .noStream : .exact(state?.version ?? 0)
            let recorded = try w.append(proposed, to: stream, expected: expected)
            if case .changePhoto(let reference) = command, let photo {
                let sealed = try log.sealBlob(photo, for: stream, context: ProjectionStore.photoContext)
                try txn.put(store.photos, try ProjectionStore.photoKey(stream, reference.sha256, log: log), sealed)
            }
            var set = ProjectionSet(position: try store.checkpoint(slot, txn), projector: projector) {
                try store.state(of: $0, slot, txn)
            }
            for event in recorded { try set.apply(event) }
            if let deleted = recorded.last, decision.events.last == .accountDeleted, let state {
                // Deletion: the stream closes with the event; what stays is ciphertext or a digest.
                let time = deleted.envelope.recordedAtMicroseconds
                try w.close(stream, atMicroseconds: time)
                let record = DeletedAccount(stream: stream, handle: handle, openedAt: state.openedAt ?? time, deletedAt: time)
                try txn.put(store.deletedAccounts, stream.rawValue, record.bytes)
                try store.removePhotos(of: stream, txn)
                step(.appending)
                // The key store's replacement is written now, before the commit: a disk too full
                // for it fails the deletion with nothing changed.
                try w.destroyKeysOnCommit([stream], atMicroseconds: time)
                step(.keyStorePrepared)
            }
            try store.save(set, into: slot, txn)
            return CommandReport(
                handle: handle, stream: stream, outcomes: decision.outcomes,
                appended: zip(recorded, decision.events).map { HistoryEntry($0, event: $1) },
                state: set.states[stream])
        }
    }

    /// Checks a photo file's content and size, and makes its reference (SHA-256 of the bytes).
    public static func photoReference(for bytes: [UInt8]) throws -> PhotoReference {
        let format = try PhotoFormat.inspect(bytes)
        return PhotoReference(sha256: ContentDigest.sha256Hex(bytes), format: format, bytes: bytes.count)
    }

    /// The stored bytes of the account's current photo, if it has one.
    public func photo(of handle: AccountHandle) throws -> (PhotoReference, [UInt8])? {
        let view = try view(of: handle)
        guard let reference = view.state.settings.photo else { return nil }
        return (reference, try log.environment.read { txn in try storedPhoto(reference, of: view.stream, txn) })
    }

    /// The photo's bytes, opened from the photo store.
    private func storedPhoto(_ reference: PhotoReference, of stream: StreamID, _ txn: Transaction) throws -> [UInt8] {
        var bytes: [UInt8]? = nil
        for key in [try ProjectionStore.photoKey(stream, reference.sha256, log: log), ProjectionStore.legacyPhotoKey(stream, reference.sha256)] where bytes == nil {
            bytes = try txn.withValue(store.photos, key) { sealed in
                guard let sealed else { return nil }
                return try log.openBlob(sealed, for: stream, context: ProjectionStore.photoContext)
            }
        }
        guard let bytes else { throw ReelError.missingPhoto(reference.sha256) }
        return bytes
    }

    // MARK: - Views

    /// The account's saved list and settings: live, or as of a point in its past.
    public func view(of handle: AccountHandle, asOf: AsOf? = nil) throws -> AccountView {
        guard let asOf else {
            return try log.environment.read { txn in
                let slot = try store.liveSlot(txn)
                guard let stream = try store.stream(for: handle, slot, txn), let state = try store.state(of: stream, slot, txn) else {
                    throw try missing(handle, txn)
                }
                return AccountView(handle: handle, stream: stream, state: state, asOf: nil)
            }
        }
        let stream = try resolve(handle)
        let events = try log.read(stream: stream).filter {
            asOf.admits(position: $0.position, streamVersion: $0.streamVersion, recordedAt: $0.envelope.recordedAtMicroseconds)
        }
        guard !events.isEmpty else {
            throw ReelError.asOfOutOfRange("the account '\(handle)' had no events at \(asOf.description) or before")
        }
        var state = AccountState()
        for event in events { try projector.apply(event, to: &state) }
        return AccountView(handle: handle, stream: stream, state: state, asOf: asOf)
    }

    /// The account's events, oldest first: all, or up to a point; the last `limit` of them.
    public func history(of handle: AccountHandle, asOf: AsOf? = nil, limit: Int? = nil) throws -> (StreamID, [HistoryEntry]) {
        let stream = try resolve(handle)
        var events = try log.read(stream: stream)
        if let asOf {
            events = events.filter {
                asOf.admits(position: $0.position, streamVersion: $0.streamVersion, recordedAt: $0.envelope.recordedAtMicroseconds)
            }
        }
        if let limit, events.count > limit { events.removeFirst(events.count - limit) }
        return (stream, try events.map { HistoryEntry($0, decoded: try projector.decoded($0)) })
    }

    /// The open account of `handle`, else its most recently deleted one.
    private func resolve(_ handle: AccountHandle) throws -> StreamID {
        try log.environment.read { txn in
            let slot = try store.liveSlot(txn)
            if let stream = try store.stream(for: handle, slot, txn) { return stream }
            guard let latest = try latestDeleted(handle, txn) else { throw ReelError.noAccount(handle.value) }
            return latest.stream
        }
    }

    /// Why `handle` has no open account: it never had one, or it was deleted.
    private func missing(_ handle: AccountHandle, _ txn: Transaction) throws -> ReelError {
        guard let deleted = try latestDeleted(handle, txn) else { return .noAccount(handle.value) }
        return .accountDeleted(handle.value, at: deleted.deletedAt)
    }

    private func latestDeleted(_ handle: AccountHandle, _ txn: Transaction) throws -> DeletedAccount? {
        try store.deletedAccounts(txn).values.filter { $0.belongs(to: handle) }.max { $0.deletedAt < $1.deletedAt }
    }

    /// The deleted account `handle` had most recently, if any (its handle is known only as a digest).
    public func deletedAccount(_ handle: AccountHandle) throws -> DeletedAccount? {
        try log.environment.read { txn in try latestDeleted(handle, txn) }
    }

    /// Every account the ledger holds: open ones by handle, then deleted ones (whose handles are
    /// no longer known) by stream.
    public func accounts() throws -> [AccountSummary] {
        let streams = try log.streams()
        let (states, deleted) = try log.environment.read { txn in
            (try store.allStates(try store.liveSlot(txn), txn), try store.deletedAccounts(txn))
        }
        return streams.map { summary in
            let state = states[summary.stream]
            let record = deleted[summary.stream]
            return AccountSummary(
                handle: state?.handle, stream: summary.stream, status: state?.status ?? .deleted, events: summary.version,
                saved: state?.saved.count ?? 0, openedAt: state?.openedAt ?? record?.openedAt, deletedAt: state?.deletedAt ?? record?.deletedAt)
        }.sorted { ($0.handle?.value ?? "~", $0.stream) < ($1.handle?.value ?? "~", $1.stream) }
    }

    // MARK: - Export

    /// The account's state, whole history (decrypted), photo and the log head, read in one
    /// snapshot (appends going on meanwhile are not half in it).
    public func export(of handle: AccountHandle) throws -> AccountExport {
        let store = self.store
        return try log.environment.read { txn in
            let slot = try store.liveSlot(txn)
            guard let stream = try store.stream(for: handle, slot, txn), let state = try store.state(of: stream, slot, txn) else {
                throw try missing(handle, txn)
            }
            let events = try log.read(stream: stream, in: txn)
            guard let head = try log.head(in: txn), UInt64(events.count) == state.version else {
                throw ReelError.corruptProjection(stream: stream.rawValue, reason: "it is at version \(state.version), the log at \(events.count)")
            }
            if let unreadable = events.first(where: \.isShredded) {
                throw ReelError.undecodableEvent(position: unreadable.position, reason: "its payload cannot be opened")
            }
            let photo = try state.settings.photo.map { reference in (reference, try storedPhoto(reference, of: stream, txn)) }
            return AccountExport(
                handle: handle, stream: stream, state: state, events: events, head: head, photo: photo,
                exportedAt: Int64(Date().timeIntervalSince1970 * 1_000_000))
        }
    }

    /// Restores a verified Reel export as a new account of `handle` (new stream, new key), in one
    /// write transaction: `account opened`, then the history's events, favorites keeping when
    /// they were first saved (`favorite-imported`). Refused when `handle` has an open account.
    /// The new account's saved list and settings must equal the export's, or nothing is written.
    public func restore(
        _ document: ExportDocument, as handle: AccountHandle, dryRun: Bool = false, step: (ImportStep) -> Void = { _ in }
    ) throws -> RestoreReport {
        let (events, skipped) = document.restoredEvents(as: handle)
        let store = self.store
        let taken = try log.environment.read { txn in try store.stream(for: handle, try store.liveSlot(txn), txn) }
        if taken != nil { throw ReelError.handleTaken(handle.value) }
        if dryRun {
            return RestoreReport(handle: handle, stream: nil, events: events.count, saved: document.state.saved.count, skipped: skipped, state: document.state)
        }
        let stream = try StreamID("account-" + UUID.newEventID().uuidString.lowercased())
        try log.prepareKey(for: stream)
        step(.keyPrepared)
        // Ids made here in order ascend (see `UUID.newEventID`), so the writer appends them to the
        // id index without a lookup each; the payloads are encoded on all cores.
        let ids = events.map { _ in UUID.newEventID() }
        let proposed = try Parallel.map(Array(zip(ids, events)), threshold: 1_024, state: ()) { _, item in
            try ProposedEvent(id: item.0, type: item.1.type, schemaVersion: item.1.schemaVersion, payload: CanonicalPayload.bytes(of: item.1))
        }
        try log.reserveRoom(forAppending: proposed, to: stream)
        let restored: AccountState = try log.write { w in
            let txn = w.transaction
            try store.catchUp(w, projector: projector)
            let slot = try store.liveSlot(txn)
            if try store.stream(for: handle, slot, txn) != nil { throw ReelError.handleTaken(handle.value) }
            let appended = try w.appendEvents(proposed, to: stream, expected: .noStream)
            if let (reference, bytes) = document.photo {
                let sealed = try log.sealBlob(bytes, for: stream, context: ProjectionStore.photoContext)
                try txn.put(store.photos, try ProjectionStore.photoKey(stream, reference.sha256, log: log), sealed)
            }
            var set = ProjectionSet(position: try store.checkpoint(slot, txn), projector: projector) { try store.state(of: $0, slot, txn) }
            try set.apply(
                contentsOf: zip(appended, events).map { event, domain in
                    Replayed(
                        stream: stream, position: event.position, streamVersion: event.streamVersion, recordedAt: event.recordedAtMicroseconds,
                        event: domain)
                })
            guard let state = set.states[stream], state.saved.items.map(\.key) == document.state.saved.items.map(\.key),
                state.saved.items.map(\.addedAt) == document.state.saved.items.map(\.addedAt), state.settings == document.state.settings
            else {
                throw ReelError.corruptProjection(stream: stream.rawValue, reason: "the restored account does not equal the export")
            }
            try store.save(set, into: slot, txn)
            step(.writing)
            return state
        }
        step(.committed)
        return RestoreReport(handle: handle, stream: stream, events: events.count, saved: restored.saved.count, skipped: skipped, state: restored)
    }

    // MARK: - Rebuild

    /// Replays the whole log into fresh projections, compares them with the live ones, and (unless
    /// `checkOnly`) swaps them in atomically. A failure leaves the live projections untouched.
    public func rebuildProjections(checkOnly: Bool, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> RebuildReport {
        try rebuild(checkOnly: checkOnly, compare: true, progress: progress)
    }

    private func rebuild(checkOnly: Bool, compare comparing: Bool, progress: ((UInt64, UInt64) -> Void)?) throws -> RebuildReport {
        do {
            return try replayAll(checkOnly: checkOnly, compare: comparing, progress: progress)
        } catch EventLogError.brokenChain(let problem) {
            throw ReelError.rebuildRefused(EventLogError.brokenChain(problem).description)
        }
    }

    /// The rebuild: every event replayed and checked as it is read (`ReplayCheck`: positions,
    /// hashes, links, versions, time, head), so projections are never made from a broken log.
    private func replayAll(checkOnly: Bool, compare comparing: Bool, progress: ((UInt64, UInt64) -> Void)?) throws -> RebuildReport {
        let started = ContinuousClock.now
        let total = try log.head()?.position ?? 0
        // The bulk, up to the head seen now (appends go on): split by stream over the lanes, each
        // of which reads, opens, decodes and applies its own accounts' events, so no one thread
        // applies everything. Batches report progress on this thread.
        let parts = (0..<Parallel.maximumLanes).map { _ in PartitionReplay(projector: projector) }
        let check = ReplayCheck(partitions: parts.count)
        var next: UInt64 = 1
        while next <= total {
            let end = min(total + 1, next + 65_536)
            try log.replay(next..<end, verifying: check) { partition, view in try parts[partition].feed(view) }
            next = end
            progress?(end - 1, total)
        }
        for part in parts { try part.flush() }
        var set = ProjectionSet.merging(parts.map(\.set), projector: projector)
        // The tail, the comparison and the swap, in one write transaction. The new slot takes
        // about what the live one does: room for it is made first, so the transaction does not
        // fill the map, roll back and compare everything again.
        if !checkOnly {
            let store = self.store
            let live = try log.environment.read { txn in try store.bytes(of: try store.liveSlot(txn), txn) }
            try log.environment.reserve(live + live / 4 + (1 << 20))
        }
        // A check only reads: it runs in a read snapshot, so it works on a read-only ledger and
        // beside a change the ledger refuses.
        func finish(_ txn: Transaction, head: LogHead?, read: (UInt64) throws -> [RecordedEvent]) throws -> RebuildReport {
            let headPosition = head?.position ?? 0
            // The tail appended since the head was read, up to the end of the log: checked on from
            // where the replay stopped, and the end must be the head.
            while true {
                let batch = try read(next)
                guard !batch.isEmpty else { break }
                try check.check(batch)
                for event in batch { try set.apply(event) }
                next += UInt64(batch.count)
            }
            try check.finish(head: head)
            let live = try store.liveSlot(txn)
            // Encoded once: compared with the live states' bytes, then stored.
            let rebuilt = try storable(set)
            let encoded = try store.encoded(rebuilt)
            let drift = comparing ? try compare(rebuilt, encoded: encoded, directory: set.directory, with: live, head: headPosition, txn) : []
            if !checkOnly {
                let spare = try store.spareSlot(txn)
                try clear(spare, txn)
                try store.save(rebuilt, encoded: encoded, into: spare, txn)
                try txn.put(store.control, "live", Array(spare.name.utf8))
                try txn.put(store.control, "format", Array(ProjectionStore.format.utf8))
                try clear(live, txn)
            }
            let elapsed = (ContinuousClock.now - started).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            return RebuildReport(
                events: headPosition, accounts: set.states.count, checkpoint: headPosition, drift: drift, swapped: !checkOnly,
                seconds: seconds)
        }
        if checkOnly {
            return try log.environment.read { txn in
                try finish(txn, head: try log.head(in: txn)) { try log.read(from: $0, maxCount: 16_384, in: txn) }
            }
        }
        return try log.write { w in
            try finish(w.transaction, head: try log.head(in: w.transaction)) { try w.read(from: $0, maxCount: 16_384) }
        }
    }

    private func clear(_ slot: ProjectionStore.Slot, _ txn: Transaction) throws {
        try txn.clear(slot.states)
        try txn.clear(slot.handles)
        try txn.clear(slot.meta)
    }

    /// The set without what is not stored: deleted accounts, and streams whose key is destroyed.
    private func storable(_ set: ProjectionSet) throws -> ProjectionSet {
        var copy = set
        // The replay says which accounts are deleted; a `closed-streams` record alone is no proof.
        let shredded = try log.shreddedStreams()
        for (stream, state) in set.states where state.status == .deleted || shredded.contains(stream) { copy.remove(stream) }
        return copy
    }

    /// What differs between the replayed states (`rebuilt`, encoded as `encoded`) and the live
    /// slot. States whose bytes match are not decoded; only what differs is sorted and described.
    private func compare(
        _ rebuilt: ProjectionSet, encoded: [ProjectionStore.EncodedState], directory: [AccountHandle: StreamID],
        with slot: ProjectionStore.Slot, head: UInt64, _ txn: Transaction
    ) throws -> [RebuildReport.Drift] {
        var drift: [RebuildReport.Drift] = []
        let checkpoint = try store.checkpoint(slot, txn)
        if checkpoint != head {
            drift.append(.init(kind: .checkpoint, subject: "checkpoint", detail: "live projections at position \(checkpoint), log head at \(head)"))
        }
        var expected: [StreamID: [UInt8]] = [:]
        expected.reserveCapacity(encoded.count)
        for entry in encoded { if let bytes = entry.bytes { expected[entry.stream] = bytes } }
        let (live, matching, damaged) = try store.readableStates(slot, txn, expected: expected)
        let replayed = rebuilt.states
        for stream in damaged {
            drift.append(.init(kind: .differs, subject: name(stream, replayed[stream]), detail: "the live state does not authenticate or decode"))
        }
        func name(_ stream: StreamID, _ state: AccountState?) -> String {
            state?.handle.map { "\($0) (\(stream))" } ?? stream.rawValue
        }
        let unreadable = Set(damaged)
        var suspects = Set(live.keys)
        for stream in replayed.keys where !matching.contains(stream) && !unreadable.contains(stream) { suspects.insert(stream) }
        for stream in suspects.sorted() {
            switch (live[stream], replayed[stream]) {
            case (nil, let replayed?):
                drift.append(.init(kind: .missing, subject: name(stream, replayed), detail: "the live projections lack this account"))
            case (let stored?, nil):
                drift.append(.init(kind: .unexpected, subject: name(stream, stored), detail: "no events in the log make this account"))
            case (let stored?, let replayed?) where stored != replayed:
                drift.append(.init(kind: .differs, subject: name(stream, replayed), detail: Self.difference(stored, replayed)))
            default: break
            }
        }
        let liveHandles = try store.allHandles(slot, txn)
        var rebuiltHandles: [[UInt8]: StreamID] = [:]
        var names: [[UInt8]: String] = [:]
        for (handle, stream) in directory {
            let key = HandleDigest.directoryKey(handle)
            rebuiltHandles[key] = stream
            names[key] = handle.value
        }
        var differing = Set(liveHandles.keys.filter { liveHandles[$0] != rebuiltHandles[$0] })
        for (digest, stream) in rebuiltHandles where liveHandles[digest] != stream { differing.insert(digest) }
        for digest in differing.sorted(by: { names[$0, default: "~"] < names[$1, default: "~"] }) {
            drift.append(
                .init(
                    kind: .handle, subject: names[digest] ?? "handle digest " + ChainHash(bytes: digest).hex.prefix(16),
                    detail: "live: \(liveHandles[digest]?.rawValue ?? "none"), replay: \(rebuiltHandles[digest]?.rawValue ?? "none")"))
        }
        return drift
    }

    static func difference(_ live: AccountState, _ replay: AccountState) -> String {
        var parts: [String] = []
        if live.version != replay.version { parts.append("version \(live.version) live vs \(replay.version) replayed") }
        if live.saved != replay.saved { parts.append("saved list \(live.saved.count) items live vs \(replay.saved.count) replayed") }
        if live.settings != replay.settings { parts.append("settings differ") }
        if live.status != replay.status { parts.append("status \(live.status.rawValue) live vs \(replay.status.rawValue) replayed") }
        if parts.isEmpty { parts.append("metadata differs") }
        return parts.joined(separator: "; ")
    }
}
