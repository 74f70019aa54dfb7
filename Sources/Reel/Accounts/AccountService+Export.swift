import EventLog
import Foundation
import Ledger

/// Export and restore: an account's whole history out, and back in as a new account.
extension AccountService {
    /// The account's state, whole history (decrypted), photo and the log head, read in one
    /// snapshot (appends going on meanwhile are not half in it).
    public func export(of handle: AccountHandle) throws -> AccountExport {
        let store = self.store
        return try log.read { txn in
            let slot = try store.liveSlot(txn)
            guard let stream = try store.stream(for: handle, slot, txn), let state = try store.state(of: stream, slot, txn) else {
                throw try missing(handle, txn)
            }
            let events = try txn.read(stream: stream)
            guard let head = try txn.head(), UInt64(events.count) == state.version else {
                throw ReelError.corruptProjection(stream: stream.rawValue, reason: "it is at version \(state.version), the log at \(events.count)")
            }
            if let unreadable = events.first(where: \.isShredded) {
                throw ReelError.undecodableEvent(position: unreadable.position, reason: "its payload cannot be opened")
            }
            let photo = try state.settings.photo.map { reference in (reference, try storedPhoto(reference, of: stream, txn)) }
            var export = AccountExport(
                handle: handle, stream: stream, state: state, events: events, head: head, photo: photo,
                exportedAt: Int64(Date().timeIntervalSince1970 * 1_000_000))
            export.proofs = try Self.proofs(of: events, txn)
            return export
        }
    }

    /// The checkpoint of the tree `txn` holds and each of `events`' inclusion proofs in it (one
    /// read of stored hashes per event); `nil` when the tree does not reach the head (a ledger
    /// written before the tree, not written since).
    static func proofs(of events: [RecordedEvent], _ txn: some EventStoreSnapshot) throws -> (checkpoint: Checkpoint, paths: [[TreeHash]])? {
        guard let checkpoint = try txn.checkpoint(), checkpoint.size == (try txn.head()?.position ?? 0) else { return nil }
        // Every path's stored hashes in one read (one statement on PostgreSQL, whatever the count).
        let paths = try TreeProofs.inclusions(of: events.map { $0.position - 1 }, in: checkpoint.size) { try txn.treeHashes(at: $0) }
        return (checkpoint, paths)
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
        let taken = try log.read { txn in try store.stream(for: handle, try store.liveSlot(txn), txn) }
        if taken != nil { throw ReelError.handleTaken(handle.value) }
        if dryRun {
            return RestoreReport(handle: handle, stream: nil, events: events.count, saved: document.state.saved.count, skipped: skipped, state: document.state)
        }
        try placement.checkHome(of: handle.value)
        let stream = try placement.newStream()
        try log.prepareKey(for: stream)
        step(.keyPrepared)
        // Ids made here in order ascend (see `UUID.newEventID`), so the writer appends them to the
        // id index without a lookup each; the payloads are encoded on all cores.
        let ids = events.map { _ in UUID.newEventID() }
        let proposed = try Parallel.map(Array(zip(ids, events)), threshold: 1_024, state: ()) { _, item in
            try ProposedEvent(id: item.0, type: item.1.type, schemaVersion: item.1.schemaVersion, payload: CanonicalPayload.bytes(of: item.1))
        }
        try log.reserveRoom(forAppending: proposed, to: stream)
        let restored: AccountState = try log.write(shredding: { _ in }) { w in
            let txn = w
            try store.catchUp(w, projector: projector)
            let slot = try store.liveSlot(txn)
            if try store.stream(for: handle, slot, txn) != nil { throw ReelError.handleTaken(handle.value) }
            let appended = try w.appendEvents(proposed, to: stream, expected: .noStream)
            if let (reference, bytes) = document.photo {
                let sealed = try log.sealBlob(bytes, for: stream, context: ProjectionStore.photoContext)
                try txn.table(store.photos).put(try ProjectionStore.photoKey(stream, reference.sha256, log: log), sealed)
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
}
