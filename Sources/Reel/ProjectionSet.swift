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
        var state = try state(of: event.streamID) ?? AccountState()
        let domain = try projector.apply(event, to: &state)
        switch domain {
        case .accountOpened(let handle)?: handles[handle] = .some(event.streamID)
        case .accountDeleted? where state.handle != nil:
            let handle = state.handle!
            if let current = handles[handle], current != event.streamID { break }
            handles[handle] = .some(nil)
        default: break
        }
        states[event.streamID] = state
        touched.insert(event.streamID)
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
