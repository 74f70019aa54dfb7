import EventLog
import JSONKit
import Ledger

/// Applies stored events to account states: decodes each (through the upcasters) and runs the
/// pure reducers; an event it cannot interpret (a type this Reel does not know, or a payload whose
/// key is destroyed) only advances the state's position.
struct Projector: Sendable {
    var decoder = EventDecoder.standard

    func domainEvent(_ event: RecordedEvent) throws -> DomainEvent? {
        if event.payload == nil, event.type == Self.deletionType { return .accountDeleted }
        if event.payload == nil, event.type == DomainEvent.accountMovedOutType { return .accountMovedOut(nil) }
        return try decoded(event)?.event
    }

    /// The same for an event seen in place by a replay.
    func domainEvent(_ view: EventView) throws -> DomainEvent? {
        guard let payload = view.payload else {
            if view.typeBytes.elementsEqual(Self.deletionType.utf8) { return .accountDeleted }
            return view.typeBytes.elementsEqual(DomainEvent.accountMovedOutType.utf8) ? .accountMovedOut(nil) : nil
        }
        do {
            return try decoder.decode(typeBytes: view.typeBytes, schemaVersion: view.schemaVersion, payload: payload)
        } catch {
            throw ReelError.undecodableEvent(position: view.position, reason: error.description)
        }
    }

    /// `account-deleted` carries nothing in its payload, and its type is in the clear: a replay
    /// that meets it after the key is destroyed (a rebuild racing a deletion) still applies it.
    static let deletionType = DomainEvent.accountDeleted.type

    /// The domain event and its payload upcast to the current version; `nil` when not readable.
    func decoded(_ event: RecordedEvent) throws -> (event: DomainEvent, payload: JSONValue)? {
        guard let payload = event.payload else { return nil }
        do {
            return try decoder.decodeUpcasting(type: event.type, schemaVersion: event.schemaVersion, payload: payload)
        } catch {
            throw ReelError.undecodableEvent(position: event.position, reason: error.description)
        }
    }

    /// Applies `event` and returns its domain form, or `nil` when it was only counted.
    @discardableResult
    func apply(_ event: RecordedEvent, to state: inout AccountState) throws -> DomainEvent? {
        guard let domain = try domainEvent(event) else {
            state.skip(position: event.position, streamVersion: event.streamVersion)
            return nil
        }
        state.apply(
            RecordedDomainEvent(
                event: domain, position: event.position, streamVersion: event.streamVersion,
                recordedAt: event.envelope.firstRecordedAtMicroseconds))
        return domain
    }
}
