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
        let report = try record(command, for: handle, photo: photo, step: step)
        if report.appended.contains(where: { $0.event == .accountDeleted }) {
            // The response cache would tell which titles the account looked up, in its language,
            // in live and in freed pages alike: it goes whole (it is only a cache).
            try? ResponseCache.remove(at: Self.catalogCacheDirectory(in: log.directory))
            // So would the posters it looked at.
            try? ResponseCache.remove(at: Self.imageCacheDirectory(in: log.directory))
        }
        return report
    }

    /// Where the TMDb response cache of the data directory `directory` lives.
    public static func catalogCacheDirectory(in directory: String) -> String { directory + "/cache" }

    /// Where the image cache of the data directory `directory` lives.
    public static func imageCacheDirectory(in directory: String) -> String { directory + "/images" }

    func record(_ command: Command, for handle: AccountHandle, photo: [UInt8]?, step: (DeletionStep) -> Void) throws -> CommandReport {
        let store = self.store
        return try log.write(shredding: { step(.init($0)) }) { w in
            let txn = w
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
                try txn.table(store.photos).put(try ProjectionStore.photoKey(stream, reference.sha256, log: log), sealed)
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
