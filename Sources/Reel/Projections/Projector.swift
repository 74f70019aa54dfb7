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
        try view.withBytes { (type, payload) throws(ReelError) -> DomainEvent? in
            guard let payload else {
                if type.equals(Self.deletionTypeBytes) { return .accountDeleted }
                return type.equals(Self.movedOutTypeBytes) ? .accountMovedOut(nil) : nil
            }
            do throws(DomainError) {
                return try decoder.decode(type: type, schemaVersion: view.schemaVersion, payload: payload)
            } catch {
                throw ReelError.undecodableEvent(position: view.position, reason: error.description)
            }
        }
    }

    /// `account-deleted` carries nothing in its payload, and its type is in the clear: a replay
    /// that meets it after the key is destroyed (a rebuild racing a deletion) still applies it.
    static let deletionType = DomainEvent.accountDeleted.type
    static let deletionTypeBytes = Array(deletionType.utf8)
    static let movedOutTypeBytes = Array(DomainEvent.accountMovedOutType.utf8)

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
