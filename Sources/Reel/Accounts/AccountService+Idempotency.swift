import EventLog
import Failures
import Ledger

/// Retries: a request whose idempotency key the log holds already is answered from the log.
extension AccountService {
    /// The report of `request` when its key is recorded already for its account (a retry): the
    /// events the first request appended, read back through `w` (so a retry in the same
    /// transaction as its first request finds it too), with the outcomes the first answer had;
    /// `nil` when the key is new.
    ///
    /// Refused (usage) when the key's events do not fit the request, or belong to an account of
    /// the handle that is deleted since: the key was used for another request.
    func retried(_ request: CommandRequest, key: RequestKey, slot: ProjectionStore.Slot, _ w: some EventStoreWrite) throws
        -> CommandReport?
    {
        let handle = request.handle
        guard let first = try w.position(of: key.eventID(for: handle, index: 0)) else { return nil }
        // An append is atomic: the first request's ids are all stored, and no more.
        var positions = [first]
        while let next = try w.position(of: key.eventID(for: handle, index: positions.count)) { positions.append(next) }
        let recorded = try positions.map { position in
            guard let event = try w.read(from: position, maxCount: 1).first, event.position == position else {
                throw EventLogError.corruptEnvelope(position: position, reason: "the event-id index names it, but the log has no event there")
            }
            return event
        }
        let stream = recorded[0].streamID
        guard try store.stream(for: handle, slot, w) == stream, recorded.allSatisfy({ $0.streamID == stream }) else {
            throw Failure(.usage, "this idempotency key was used by an account of '\(handle)' that is deleted since; a new request needs a new key")
        }
        let events = try recorded.map { event in
            guard let domain = try projector.domainEvent(event) else {
                throw ReelError.undecodableEvent(position: event.position, reason: "a \(event.type) event this Reel does not know")
            }
            return domain
        }
        guard let decision = Decider.decision(of: request.command, for: handle, appended: events) else {
            throw Failure(.usage, "this idempotency key was used for a different request of '\(handle)'; a new request needs a new key")
        }
        return CommandReport(
            handle: handle, stream: stream, outcomes: decision.outcomes,
            appended: zip(recorded, events).map { HistoryEntry($0, event: $1) },
            state: try store.state(of: stream, slot, w), replayed: true)
    }
}
