import EventLog
import Catalog
import Foundation
import Ledger

/// Commands: decided by the domain, appended with the projections in one transaction.
extension AccountService {
    /// Decides `command` for `handle` and appends its events durably (fsync'd on return), with the
    /// projections updated in the same transaction. `photo` carries the bytes of `.changePhoto`.
    ///
    /// `.deleteAccount` deletes for good: the account's stream is closed in the same transaction,
    /// the key store's replacement without its key is prepared before the commit and swapped in
    /// after it (`EventStoreWrite.destroyKeysOnCommit`); `step` names each step as it is reached.
    public func execute(
        _ command: Command, for handle: AccountHandle, photo: [UInt8]? = nil, step: (DeletionStep) -> Void = { _ in }
    ) throws -> CommandReport {
        try execute(CommandRequest(command: command, handle: handle, key: nil, photo: photo), step: step)
    }

    /// The same for a request that may carry an idempotency key (see `RequestKey`): a batch of one
    /// through the committer, as every command is (`CommandCommitter.commitAlone`).
    func execute(_ request: CommandRequest, step: (DeletionStep) -> Void = { _ in }) throws -> CommandReport {
        try CommandCommitter.commitAlone(request, on: self, step: step)
    }

    /// After a deletion: the response cache would tell which titles the account looked up, in its
    /// language, in live and in freed pages alike: it goes whole (it is only a cache). So would
    /// the posters it looked at.
    func forgetCachesIfDeleted(_ report: CommandReport) {
        guard !report.replayed, report.appended.contains(where: { $0.event == .accountDeleted }) else { return }
        try? ResponseCache.remove(at: Self.catalogCacheDirectory(in: log.directory))
        try? ResponseCache.remove(at: Self.imageCacheDirectory(in: log.directory))
    }

    /// Applies, in `w`, the events the projections have not seen (appended by another process):
    /// a write transaction's first step, before anything in it is decided.
    func catchUp(_ w: some EventStoreWrite) throws {
        try store.catchUp(w, projector: projector)
    }

    /// Where the TMDb response cache of the data directory `directory` lives.
    public static func catalogCacheDirectory(in directory: String) -> String { directory + "/cache" }

    /// Where the image cache of the data directory `directory` lives.
    public static func imageCacheDirectory(in directory: String) -> String { directory + "/images" }

    /// Reads ahead what deciding `requests` (a group commit's batch) will read of each account —
    /// its handle's stream, that stream's version — two statements for the batch where the
    /// store's reads are round trips (`ProjectionTable.prefetch`), nothing elsewhere.
    func prefetch(_ requests: [CommandRequest], _ w: some EventStoreWrite) throws {
        let slot = try store.liveSlot(w)
        let handles = Set(requests.map(\.handle))
        try w.table(slot.handles).prefetch(handles.map(HandleDigest.directoryKey))
        try w.prefetchVersions(of: try handles.compactMap { try store.stream(for: $0, slot, w) })
    }

    /// Decides `request` on the account as `w` holds it (the changes of the commands before it in
    /// the transaction included). Only reads: a failure here leaves `w` as it was. A request whose
    /// key the log holds already is a retry, answered from the log (`retried`). `decided` holds
    /// states this transaction's earlier commands left (a group commit's batch): one of them at
    /// its stream's version is used as it is, not read back from the store.
    ///
    /// This is where every write path checks the caller's binding (`checkBinding`), before
    /// anything else is decided, a retry included.
    func plan(_ request: CommandRequest, _ w: some EventStoreWrite, decided: [StreamID: AccountState] = [:]) throws -> CommandPlan {
        let slot = try store.liveSlot(w)
        let handle = request.handle
        let existing = try store.stream(for: handle, slot, w)
        let state = try existing.flatMap { stream in
            let version = try w.version(of: stream)
            if let state = decided[stream], state.version == version { return state }
            return try states.state(of: stream, atVersion: version) ?? store.state(of: stream, slot, w)
        }
        try Self.checkBinding(request, existing: existing, state: state)
        if let key = request.key, let report = try retried(request, key: key, slot: slot, w) { return .settled(report) }
        let decision = try Decider.decide(request.command, for: handle, state: state)
        guard !decision.events.isEmpty else {
            return .settled(CommandReport(handle: handle, stream: existing, outcomes: decision.outcomes, appended: [], state: state))
        }
        if existing == nil { try placement.checkHome(of: handle.value) }
        let stream = try existing ?? placement.newStream()
        let proposed = try decision.events.enumerated().map { index, event in
            try ProposedEvent(
                id: request.key?.eventID(for: handle, index: index) ?? .newEventID(), type: event.type, schemaVersion: event.schemaVersion,
                payload: CanonicalPayload.bytes(of: event))
        }
        return .append(.init(request: request, stream: stream, isNew: existing == nil, state: state, decision: decision, proposed: proposed))
    }

    /// The check of a caller's binding (`BoundAccount`), made in the write transaction that
    /// would append, on what it reads: a request bound to a stream goes on only while its handle
    /// still names that stream (`existing`) and the account is not deleted; else it fails
    /// (`ReelError.accountGone`, not found) with nothing written. A token's request that passed
    /// its check before a deletion committed thus never opens, or changes, the account opened
    /// again under the freed handle. An unbound request (`stream` nil) acts on what the handle
    /// names now.
    static func checkBinding(_ request: CommandRequest, existing: StreamID?, state: AccountState?) throws {
        guard let bound = request.stream else { return }
        guard existing == bound, let state, state.status != .deleted else { throw ReelError.accountGone(request.handle.value) }
    }

    /// Appends what `plan` decided, with the projections (and a photo's bytes) in the same
    /// transaction. A failure here may leave part of it written: the transaction must not commit.
    func carryOut(_ planned: CommandPlan, _ w: some EventStoreWrite, step: (DeletionStep) -> Void) throws -> CommandReport {
        let plan: CommandPlan.Appending
        switch planned {
        case .settled(let report): return report
        case .append(let appending): plan = appending
        }
        let recorded = try w.append(plan.proposed, to: plan.stream, expected: plan.expected)
        return try project(plan, recorded: recorded, w, step: step)
    }

    /// What follows a plan's append (made alone by `carryOut`, or with others by
    /// `append(batch:)`): a photo's bytes, the projections, a deletion's closing of the stream
    /// and destruction of its key, all in `w`. A failure here may leave part of it written: the
    /// transaction must not commit.
    func project(_ plan: CommandPlan.Appending, recorded: [RecordedEvent], _ w: some EventStoreWrite, step: (DeletionStep) -> Void) throws
        -> CommandReport
    {
        let txn = w
        let store = self.store
        let slot = try store.liveSlot(txn)
        let (stream, handle, state) = (plan.stream, plan.request.handle, plan.state)
        if case .changePhoto(let reference) = plan.request.command, let photo = plan.request.photo {
            let sealed = try log.sealBlob(photo, for: stream, context: ProjectionStore.photoContext)
            try txn.table(store.photos).put(try ProjectionStore.photoKey(stream, reference.sha256, log: log), sealed)
        }
        // The account's state is the one just decided on (nothing wrote it since, in `w`).
        var set = ProjectionSet(position: try store.checkpoint(slot, txn), projector: projector) {
            $0 == stream ? state : try store.state(of: $0, slot, txn)
        }
        for event in recorded { try set.apply(event) }
        if let deleted = recorded.last, plan.decision.events.last == .accountDeleted, let state {
            // Deletion: the stream closes with the event; what stays is ciphertext or a digest.
            let time = deleted.envelope.recordedAtMicroseconds
            try w.close(stream, atMicroseconds: time)
            let record = DeletedAccount(stream: stream, handle: handle, openedAt: state.openedAt ?? time, deletedAt: time)
            try txn.table(store.deletedAccounts).put(Array(stream.rawValue.utf8), record.bytes)
            try store.removePhotos(of: stream, txn)
            step(.appending)
            // The key store's replacement is written now, before the commit: a disk too full
            // for it fails the deletion with nothing changed.
            try w.destroyKeysOnCommit([stream], atMicroseconds: time)
            step(.keyStorePrepared)
        }
        try store.save(set, into: slot, txn)
        return CommandReport(
            handle: handle, stream: stream, outcomes: plan.decision.outcomes,
            appended: zip(recorded, plan.decision.events).map { HistoryEntry($0, event: $1) },
            state: set.states[stream])
    }

    /// Checks a photo file's content and size, and makes its reference (SHA-256 of the bytes).
    public static func photoReference(for bytes: [UInt8]) throws -> PhotoReference {
        let format = try PhotoFormat.inspect(bytes)
        return PhotoReference(sha256: ContentDigest.sha256Hex(bytes), format: format, bytes: bytes.count)
    }

    /// The stored bytes of the account's current photo, if it has one.
    public func photo(of handle: AccountHandle) throws -> (PhotoReference, [UInt8])? {
        let view = try view(of: handle)
        guard let reference = view.state.settings.photo, let stream = view.stream else { return nil }
        return (reference, try log.read { txn in try storedPhoto(reference, of: stream, txn) })
    }

    /// The bytes of `reference`, a photo of `stream` (the current one or one an as-of view shows).
    public func photoBytes(_ reference: PhotoReference, of stream: StreamID) throws -> [UInt8] {
        try log.read { txn in try storedPhoto(reference, of: stream, txn) }
    }

    /// The photo's bytes, opened from the photo store.
    func storedPhoto(_ reference: PhotoReference, of stream: StreamID, _ txn: any EventStoreSnapshot) throws -> [UInt8] {
        var bytes: [UInt8]? = nil
        for key in [try ProjectionStore.photoKey(stream, reference.sha256, log: log), ProjectionStore.legacyPhotoKey(stream, reference.sha256)] where bytes == nil {
            bytes = try txn.table(store.photos).withValue(key) { sealed in
                guard let sealed else { return nil }
                return try log.openBlob(sealed, for: stream, context: ProjectionStore.photoContext)
            }
        }
        guard let bytes else { throw ReelError.missingPhoto(reference.sha256) }
        return bytes
    }
}
