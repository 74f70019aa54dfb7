@_spi(Stores) import EventLog
import Failures
import Foundation
import Ledger

/// Moves one account from the shard it is on to another, with its history, in four steps that
/// each stand on their own (`Schemas/postgres-shards.md`, "Moving one account"), so a move cut
/// short anywhere is finished by running it again:
///
/// 1. On the source, in one transaction: `account-moved-out` (naming the target and the digest of
///    the stream's events, `MovedEnvelopes.digest`) ends the stream. The account then refuses
///    commands there, and keeps its handle and its key until the target holds both.
/// 2. On the target, in one transaction: the stream's envelopes laid on its chain (format 2,
///    keeping when each event was first recorded), its key, `account-moved-in` (naming the
///    source, where its chain closed the account, and the same digest), its photos and
///    projections.
/// 3. Both sides read back and checked: every envelope hashes, the target's link, the digests
///    agree with each other and with the events, the payloads open to the same bytes.
/// 4. On the source, in one transaction: the stream closed and its key destroyed (as a deletion
///    destroys it, with the purge that follows), its projections and photos removed.
@_spi(Stores) public struct AccountMover {
    /// A shard the account moves from or to: its name, its ledger and that ledger's store.
    public struct Side {
        let name: String
        let service: AccountService
        let log: any DeferredPurging

        public init(name: String, service: AccountService, log: any DeferredPurging) {
            self.name = name
            self.service = service
            self.log = log
        }
    }

    let from: Side
    let to: Side

    public init(from: Side, to: Side) {
        self.from = from
        self.to = to
    }

    /// What step 1 left: the stream's events before `account-moved-out`, and that event.
    struct Closing {
        let stream: StreamID
        let events: [RecordedEvent]
        let movedOut: RecordedEvent
        let move: ShardMove
        let resumed: Bool
    }

    public func move(_ handle: AccountHandle, step: (AccountMoveStep) -> Void) throws -> AccountMoveReport {
        let closing: Closing
        do {
            closing = try closeOnSource(handle)
        } catch ReelError.noAccount {
            // Found on the source a moment ago: another run of this move finished it meanwhile.
            throw Failure(.temporary, "another run moved '\(handle)' from shard \(from.name) meanwhile; run the command again to see where it is")
        }
        step(.closedOnSource)
        let (arrival, laidNow) = try layOnTarget(handle, closing)
        step(.laidOnTarget)
        try verify(closing, arrival: arrival)
        step(.verified)
        let finishedNow = try finishOnSource(handle, closing)
        step(.keyDestroyed)
        let purgeProblem = from.log.purgeProblem
        return AccountMoveReport(
            handle: handle, stream: closing.stream, from: from.name, to: to.name, events: closing.move.events, digest: closing.move.digest,
            movedOutPosition: closing.movedOut.position, movedInPosition: arrival.position, resumed: closing.resumed || !laidNow || !finishedNow,
            keyPurged: purgeProblem == nil, purgeProblem: purgeProblem)
    }

    // MARK: - 1. Closing on the source

    private func closeOnSource(_ handle: AccountHandle) throws -> Closing {
        let service = from.service
        let store = service.store
        return try from.log.write { w in
            try service.catchUp(w)
            let slot = try store.liveSlot(w)
            guard let stream = try store.stream(for: handle, slot, w), let state = try store.state(of: stream, slot, w) else {
                throw ReelError.noAccount(handle.value)
            }
            let stored = try w.read(stream: stream)
            guard UInt64(stored.count) == state.version, !stored.isEmpty else {
                throw ReelError.corruptProjection(stream: stream.rawValue, reason: "it is at version \(state.version), the log at \(stored.count)")
            }
            if let shredded = stored.first(where: \.isShredded) {
                throw Failure(.tampered, "the account '\(handle)' on shard \(from.name) has an event it cannot open (position \(shredded.position)): it cannot be moved")
            }
            switch state.status {
            case .deleted:
                throw DomainError.accountDeleted(handle.value)
            case .moved:
                // Step 1 was done by an earlier run: the move goes on where it was going.
                guard let last = stored.last, case .accountMovedOut(let move?)? = try service.projector.domainEvent(last) else {
                    throw Failure(.tampered, "the account '\(handle)' on shard \(from.name) is marked moved, but its last event is not account-moved-out")
                }
                // (It names the target as the map named it then: a shard renamed since, or a map
                // grown again, sends it to its home under this map, which the digest binds alike.)
                return Closing(stream: stream, events: Array(stored.dropLast()), movedOut: last, move: move, resumed: true)
            case .open:
                let digest = MovedEnvelopes.digest(stored.map(\.envelope)).hex
                let move = ShardMove(shard: to.name, events: UInt64(stored.count), digest: digest)
                let event = DomainEvent.accountMovedOut(move)
                let proposed = try ProposedEvent(
                    id: .newEventID(), type: event.type, schemaVersion: event.schemaVersion, payload: CanonicalPayload.bytes(of: event))
                let recorded = try w.append([proposed], to: stream, expected: .exact(state.version))
                var set = ProjectionSet(position: try store.checkpoint(slot, w), projector: service.projector) {
                    $0 == stream ? state : try store.state(of: $0, slot, w)
                }
                try set.apply(recorded[0])
                try store.save(set, into: slot, w)
                return Closing(stream: stream, events: stored, movedOut: recorded[0], move: move, resumed: false)
            }
        }
    }

    // MARK: - 2. Laying on the target

    /// The `account-moved-in` event on the target, and whether this run laid it.
    private func layOnTarget(_ handle: AccountHandle, _ closing: Closing) throws -> (RecordedEvent, Bool) {
        let stream = closing.stream
        let service = to.service
        let store = service.store
        if let arrived = try to.log.read({ try arrival(of: closing, in: $0) }) { return (arrived, false) }
        guard case .live(let key)? = try from.log.copiedKey(of: stream) else {
            // Another run of this move may have laid it, and finished, meanwhile.
            if let arrived = try to.log.read({ try arrival(of: closing, in: $0) }) { return (arrived, false) }
            throw Failure(.tampered, "the key of account '\(handle)' on shard \(from.name) is gone, but the account is not on shard \(to.name): it cannot be moved")
        }
        let photos: [(key: [UInt8], value: [UInt8])] = try from.log.read { txn in
            var out: [(key: [UInt8], value: [UInt8])] = []
            try txn.table(from.service.store.photos).forEach(prefix: Array(stream.rawValue.utf8) + [0]) { out.append((Array($0), Array($1))) }
            return out
        }
        let event = DomainEvent.accountMovedIn(
            ShardMove(
                shard: from.name, events: closing.move.events, digest: closing.move.digest,
                closedAt: .init(position: closing.movedOut.position, hash: closing.movedOut.envelope.hash.hex)))
        let proposed = try ProposedEvent(id: .newEventID(), type: event.type, schemaVersion: event.schemaVersion, payload: CanonicalPayload.bytes(of: event))
        let arrived: RecordedEvent = try to.log.write { w in
            try service.catchUp(w)
            let slot = try store.liveSlot(w)
            // Another run of this move laid it meanwhile.
            if try w.version(of: stream) > 0, let arrived = try arrival(of: closing, in: w) { return arrived }
            if let other = try store.stream(for: handle, slot, w) {
                throw Failure(
                    .usage,
                    "shard \(to.name) has another account for '\(handle)' (\(other)), opened around the routing: delete one of them first ('reel accounts --store MAP' lists both)")
            }
            let (laid, arrived) = try Self.adopting(w, to.name).adopt(closing.events.map(\.envelope), key: key, arrival: proposed)
            var set = ProjectionSet(position: try store.checkpoint(slot, w), projector: service.projector) {
                $0 == stream ? nil : try store.state(of: $0, slot, w)
            }
            for (envelope, source) in zip(laid, closing.events) { try set.apply(RecordedEvent(stored: envelope, payload: source.payload)) }
            try set.apply(arrived)
            try w.table(store.photos).put(contentsOf: photos)
            try store.save(set, into: slot, w)
            return arrived
        }
        return (arrived, true)
    }

    /// The target's `account-moved-in` for this move, when an earlier run laid it: the stream's
    /// first n + 1 events there (the account may have changed on its home since, or been
    /// deleted there: its key destroyed, the moved events are known by their digest).
    private func arrival(of closing: Closing, in txn: any EventStoreSnapshot) throws -> RecordedEvent? {
        let count = closing.events.count
        let stored = try txn.read(stream: closing.stream, from: 1, maxCount: count + 1)
        guard !stored.isEmpty else { return nil }
        func refuse() -> Failure {
            Failure(.tampered, "shard \(to.name) holds the stream \(closing.stream) already, but not as a move from shard \(from.name) lays it")
        }
        guard stored.count == count + 1, stored[count].type == DomainEvent.accountMovedInType,
            MovedEnvelopes.digest(stored.prefix(count).map(\.envelope)).hex == closing.move.digest
        else { throw refuse() }
        if stored[count].payload != nil {
            guard case .accountMovedIn(let move)? = try to.service.projector.domainEvent(stored[count]), move.digest == closing.move.digest,
                move.closedAt?.position == closing.movedOut.position
            else { throw refuse() }
        }
        return stored[count]
    }

    // MARK: - 3. Both sides checked

    private func verify(_ closing: Closing, arrival: RecordedEvent) throws {
        let stream = closing.stream
        func refuse(_ side: String, _ why: String) -> Failure {
            Failure(.tampered, "the move of \(stream) does not verify on shard \(side): \(why); the source keeps the account's key")
        }
        // The source: every envelope as stored, the closing event last, the digest it names.
        let source = try from.log.read { try $0.read(stream: stream) }
        guard source.count == closing.events.count + 1, source.last?.type == DomainEvent.accountMovedOutType else {
            throw refuse(from.name, "the stream holds \(source.count) events, not \(closing.events.count) and account-moved-out")
        }
        for (index, event) in source.enumerated() {
            guard event.envelope.bytes.withUnsafeBytes({ Envelope.hashMatches($0) }) else { throw refuse(from.name, "the envelope at \(event.position) does not hash") }
            if index > 0, event.position == source[index - 1].position + 1, event.envelope.previousHash != source[index - 1].envelope.hash {
                throw refuse(from.name, "the chain breaks at \(event.position)")
            }
        }
        let history = Array(source.dropLast())
        guard MovedEnvelopes.digest(history.map(\.envelope)).hex == closing.move.digest else {
            throw refuse(from.name, "its events do not make the digest account-moved-out names")
        }
        // The target: the same events laid anew and linked, then account-moved-in naming the source.
        // (Only its first n + 1 events: the account may have changed on its home since.)
        let target = try to.log.read { try $0.read(stream: stream, from: 1, maxCount: history.count + 1) }
        guard target.count == history.count + 1, let last = target.last, last.position == arrival.position,
            last.type == DomainEvent.accountMovedInType
        else { throw refuse(to.name, "the stream does not hold this move's account-moved-in after the moved events") }
        // Readable unless the account was deleted on its home since (its key destroyed there).
        if last.payload != nil {
            guard case .accountMovedIn(let move)? = try to.service.projector.domainEvent(last), move.digest == closing.move.digest,
                move.closedAt?.position == closing.movedOut.position, move.closedAt?.hash == source.last!.envelope.hash.hex
            else { throw refuse(to.name, "account-moved-in names another digest or closing event") }
        }
        for (index, (laid, original)) in zip(target, history).enumerated() {
            guard laid.envelope.format == 2, laid.envelope.bytes.withUnsafeBytes({ Envelope.hashMatches($0) }) else {
                throw refuse(to.name, "the envelope at \(laid.position) is not a moved envelope that hashes")
            }
            if index > 0, laid.envelope.previousHash != target[index - 1].envelope.hash || laid.position != target[index - 1].position + 1 {
                throw refuse(to.name, "the moved envelopes do not link at \(laid.position)")
            }
            guard laid.payload == nil || laid.payload == original.payload, laid.eventID == original.eventID, laid.type == original.type else {
                throw refuse(to.name, "the event at \(laid.position) opens to another payload than on \(from.name)")
            }
        }
        guard MovedEnvelopes.digest(target.dropLast().map(\.envelope)).hex == closing.move.digest else {
            throw refuse(to.name, "its moved events do not make the digest")
        }
        guard last.envelope.previousHash == target[target.count - 2].envelope.hash, last.position == target[target.count - 2].position + 1 else {
            throw refuse(to.name, "account-moved-in does not link to the moved events")
        }
    }

    // MARK: - 4. The source's key destroyed

    /// Whether this run did it (not an earlier one).
    private func finishOnSource(_ handle: AccountHandle, _ closing: Closing) throws -> Bool {
        let stream = closing.stream
        if case .destroyed? = try from.log.copiedKey(of: stream) { return false }
        let service = from.service
        let store = service.store
        let time = closing.movedOut.envelope.recordedAtMicroseconds
        return try from.log.write { w in
            try service.catchUp(w)
            // Another run of this move finished it meanwhile.
            if try Self.adopting(w, from.name).isClosed(stream) { return false }
            let slot = try store.liveSlot(w)
            guard try w.version(of: stream) == closing.movedOut.streamVersion else {
                throw Failure(.tampered, "the stream \(stream) on shard \(from.name) changed after account-moved-out")
            }
            try w.close(stream, atMicroseconds: time)
            try store.removePhotos(of: stream, w)
            try store.forget(stream, handle: handle, slot, w)
            try w.destroyKeysOnCommit([stream], atMicroseconds: time)
            return true
        }
    }

    /// `w` as a write that takes moved accounts: a shard of a shard map's store (PostgreSQL).
    private static func adopting(_ w: any EventStoreWrite, _ shard: String) throws -> any AccountAdopting {
        guard let adopting = w as? any AccountAdopting else { throw Failure(.usage, "shard \(shard)'s store cannot take moved accounts") }
        return adopting
    }
}
