import EventLog
import Ledger

/// Account states and the handle directory being brought up to date in memory: a whole replay
/// (rebuild), or the few accounts a command or a catch-up touches, loaded from the store on demand.
struct ProjectionSet {
    private(set) var states: [StreamID: AccountState] = [:]
    /// Open accounts by handle. With `load`, only the handles changed here.
    private(set) var handles: [AccountHandle: StreamID?] = [:]
    private(set) var touched: Set<StreamID> = []
    private(set) var position: UInt64
    private let projector: Projector
    private let load: ((StreamID) throws -> AccountState?)?

    /// `load` fetches a state this set does not hold yet; without it, a missing state is new.
    init(position: UInt64, projector: Projector = Projector(), load: ((StreamID) throws -> AccountState?)? = nil) {
        self.position = position
        self.projector = projector
        self.load = load
    }

    mutating func state(of stream: StreamID) throws -> AccountState? {
        if let state = states[stream] { return state }
        guard let state = try load?(stream) else { return nil }
        states[stream] = state
        return state
    }

    mutating func apply(_ event: RecordedEvent) throws {
        try apply(Replayed(event, projector: projector))
    }

    /// Applies an event decoded already (a replay decodes on the lanes that open payloads).
    mutating func apply(_ event: Replayed) throws {
        // Take the state out of the dictionary while it changes: mutating a copy the dictionary
        // still references would copy its saved list on every event.
        var state: AccountState
        if let held = states.removeValue(forKey: event.stream) {
            state = held
        } else {
            state = try load?(event.stream) ?? AccountState()
        }
        if let domain = event.event {
            state.apply(
                RecordedDomainEvent(event: domain, position: event.position, streamVersion: event.streamVersion, recordedAt: event.recordedAt))
            switch domain {
            case .accountOpened(let handle): handles[handle] = .some(event.stream)
            case .accountDeleted:
                if let handle = state.handle, (handles[handle] ?? nil) == event.stream || handles[handle] == nil {
                    handles[handle] = .some(nil)
                }
            default: break
            }
        } else {
            state.skip(position: event.position, streamVersion: event.streamVersion)
        }
        states[event.stream] = state
        touched.insert(event.stream)
        position = max(position, event.position)
    }

    /// The open accounts by handle, for a set built from nothing (a rebuild).
    var directory: [AccountHandle: StreamID] {
        handles.compactMapValues { $0 }
    }
}

extension ProjectionSet {
    /// Forgets a stream (its key is destroyed, so its state cannot be stored).
    mutating func remove(_ stream: StreamID) {
        states[stream] = nil
        touched.remove(stream)
    }
}

/// A stored event reduced to what the projections need, its payload decoded.
struct Replayed: Sendable {
    let stream: StreamID
    let position: UInt64
    let streamVersion: UInt64
    let recordedAt: Int64
    /// `nil` when the type is unknown to this Reel or the payload is shredded.
    let event: DomainEvent?

    /// An event just appended, whose domain event is known already.
    init(_ recorded: RecordedEvent, event: DomainEvent) {
        stream = recorded.streamID
        position = recorded.position
        streamVersion = recorded.streamVersion
        recordedAt = recorded.envelope.recordedAtMicroseconds
        self.event = event
    }

    init(_ recorded: RecordedEvent, projector: Projector) throws {
        stream = recorded.streamID
        position = recorded.position
        streamVersion = recorded.streamVersion
        recordedAt = recorded.envelope.recordedAtMicroseconds
        event = try projector.domainEvent(recorded)
    }
}
