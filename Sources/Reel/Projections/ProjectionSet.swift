import EventLog
import Ledger

/// Account states and the handle directory being brought up to date in memory: a whole replay
/// (rebuild), or the few accounts a command or a catch-up touches, loaded from the store on demand.
struct ProjectionSet {
    private(set) var states: [StreamID: AccountState] = [:]
    /// Open accounts by handle. With `load`, only the handles changed here.
    private(set) var handles: [AccountHandle: StreamID?] = [:]
    private(set) var touched: Set<StreamID> = []
    /// For a set that loads states from the store: where each touched state's saved list begins
    /// to differ from the stored one, so a save rewrites the pages from there only. A set built
    /// from nothing (`isFresh`) tracks nothing: it is stored whole, into an empty slot.
    private(set) var savedChanges: [StreamID: SavedChanges] = [:]
    private(set) var position: UInt64
    /// Every open and delete applied here, in order: what `merging` needs to rebuild the handle
    /// directory from sets that each replayed some of the streams.
    private var handleChanges: [HandleChange] = []
    private let projector: Projector
    private let load: ((StreamID) throws -> AccountState?)?

    /// `load` fetches a state this set does not hold yet; without it, a missing state is new.
    init(position: UInt64, projector: Projector = Projector(), load: ((StreamID) throws -> AccountState?)? = nil) {
        self.position = position
        self.projector = projector
        self.load = load
    }

    /// Whether this set was built from nothing (a rebuild's replay), not on stored states.
    var isFresh: Bool { load == nil }

    mutating func state(of stream: StreamID) throws -> AccountState? {
        if let state = states[stream] { return state }
        guard let state = try load?(stream) else { return nil }
        states[stream] = state
        return state
    }

    mutating func apply(_ event: RecordedEvent) throws {
        try apply(Replayed(event, projector: projector))
    }

    /// Applies a batch in order. A run of one stream's events (an account's burst of actions)
    /// takes the state out of the dictionary once, not once per event.
    mutating func apply(contentsOf batch: [Replayed]) throws {
        var start = batch.startIndex
        while start < batch.endIndex {
            let stream = batch[start].stream
            var end = start + 1
            while end < batch.endIndex, batch[end].stream == stream { end += 1 }
            var state = try takeState(of: stream)
            for event in batch[start..<end] { apply(event, to: &state) }
            states[stream] = state
            touched.insert(stream)
            position = max(position, batch[end - 1].position)
            start = end
        }
    }

    /// Applies an event decoded already (a replay decodes on the lanes that open payloads).
    mutating func apply(_ event: Replayed) throws {
        var state = try takeState(of: event.stream)
        apply(event, to: &state)
        states[event.stream] = state
        touched.insert(event.stream)
        position = max(position, event.position)
    }

    /// The state of `stream` taken out of the dictionary while it changes: mutating a copy the
    /// dictionary still references would copy its saved list on every event.
    private mutating func takeState(of stream: StreamID) throws -> AccountState {
        if let held = states.removeValue(forKey: stream) { return held }
        return try load?(stream) ?? AccountState()
    }

    private mutating func apply(_ event: Replayed, to state: inout AccountState) {
        if let domain = event.event {
            // Where a removed title was: read before the removal applies (O(n) once the list has
            // holes), unless the list is rewritten from its first title anyway.
            let removedAt: Int? =
                if !isFresh, savedChanges[event.stream]?.from != 0, case .favoriteRemoved(let key) = domain { state.saved.index(of: key) } else { nil }
            state.apply(
                RecordedDomainEvent(event: domain, position: event.position, streamVersion: event.streamVersion, recordedAt: event.recordedAt))
            if !isFresh { trackSaved(domain, removedAt: removedAt, event: event, state: state) }
            switch domain {
            case .accountOpened(let handle):
                let change = HandleChange(position: event.position, handle: handle, stream: event.stream, opened: true)
                change.apply(to: &handles)
                handleChanges.append(change)
            case .accountDeleted:
                if let handle = state.handle {
                    let change = HandleChange(position: event.position, handle: handle, stream: event.stream, opened: false)
                    change.apply(to: &handles)
                    handleChanges.append(change)
                }
            default: break
            }
        } else {
            state.skip(position: event.position, streamVersion: event.streamVersion)
        }
    }

    /// Notes where the title `domain` added to or removed from a stored state's list was
    /// (`removedAt`: the removed title's place, read before the removal applied).
    private mutating func trackSaved(_ domain: DomainEvent, removedAt: Int?, event: Replayed, state: AccountState) {
        let count = state.saved.count
        switch domain {
        case .favoriteAdded(let key), .favoriteImported(let key, _, _):
            // A title saved already stays where it was; a new one goes last.
            guard state.saved.item(key)?.position == event.position else { return }
            savedChanges[event.stream, default: SavedChanges(from: count - 1, storedCount: count - 1)].changed(at: count - 1)
        case .favoriteRemoved:
            // (`nil` also when the list is rewritten from its first title anyway.)
            guard let removedAt else { return }
            savedChanges[event.stream, default: SavedChanges(from: removedAt, storedCount: count + 1)].changed(at: removedAt)
        case .accountDeleted:
            // The whole state goes (`ProjectionStore.save` removes every title of a deleted one).
            savedChanges[event.stream] = nil
        default:
            break
        }
    }

    /// The open accounts by handle, for a set built from nothing (a rebuild).
    var directory: [AccountHandle: StreamID] {
        handles.compactMapValues { $0 }
    }
}

extension ProjectionSet {
    /// An account taking or giving up its handle, at a log position.
    private struct HandleChange {
        let position: UInt64
        let handle: AccountHandle
        let stream: StreamID
        let opened: Bool

        /// An open takes the handle; a delete frees it unless another account holds it by now.
        func apply(to handles: inout [AccountHandle: StreamID?]) {
            if opened {
                handles[handle] = .some(stream)
            } else if (handles[handle] ?? nil) == stream || handles[handle] == nil {
                handles[handle] = .some(nil)
            }
        }
    }

    /// One set from sets built from nothing that each replayed a disjoint share of the streams
    /// (a rebuild's lanes): their states side by side, and the handle directory as the opens and
    /// deletes of all of them, taken in log order, leave it.
    static func merging(_ parts: [ProjectionSet], projector: Projector) -> ProjectionSet {
        var merged = ProjectionSet(position: parts.map(\.position).max() ?? 0, projector: projector)
        merged.states.reserveCapacity(parts.reduce(0) { $0 + $1.states.count })
        for part in parts {
            merged.states.merge(part.states) { first, _ in first }
            merged.touched.formUnion(part.touched)
        }
        merged.handleChanges = parts.flatMap(\.handleChanges).sorted { $0.position < $1.position }
        for change in merged.handleChanges { change.apply(to: &merged.handles) }
        return merged
    }

    /// Forgets a stream (its key is destroyed, so its state cannot be stored).
    mutating func remove(_ stream: StreamID) {
        states[stream] = nil
        touched.remove(stream)
        savedChanges[stream] = nil
        // A handle must not point at an account that is not stored.
        for (handle, owner) in handles where owner == stream { handles[handle] = .some(nil) }
    }
}

/// How a stored state's saved list changed in a `ProjectionSet`: the titles before `from` are
/// as stored; the stored list had `storedCount`.
struct SavedChanges: Sendable {
    private(set) var from: Int
    let storedCount: Int

    init(from: Int, storedCount: Int) {
        self.from = from
        self.storedCount = storedCount
    }

    mutating func changed(at index: Int) { from = min(from, index) }
}

/// A stored event reduced to what the projections need, its payload decoded.
struct Replayed: Sendable {
    let stream: StreamID
    let position: UInt64
    let streamVersion: UInt64
    let recordedAt: Int64
    /// `nil` when the type is unknown to this Reel or the payload is shredded.
    let event: DomainEvent?

    init(stream: StreamID, position: UInt64, streamVersion: UInt64, recordedAt: Int64, event: DomainEvent?) {
        self.stream = stream
        self.position = position
        self.streamVersion = streamVersion
        self.recordedAt = recordedAt
        self.event = event
    }

    /// An event just appended, whose domain event is known already.
    init(_ recorded: RecordedEvent, event: DomainEvent) {
        stream = recorded.streamID
        position = recorded.position
        streamVersion = recorded.streamVersion
        recordedAt = recorded.envelope.firstRecordedAtMicroseconds
        self.event = event
    }

    /// An event seen in place by a replay, decoded on the lane that opened it.
    init(_ view: EventView, projector: Projector) throws {
        stream = view.streamID
        position = view.position
        streamVersion = view.streamVersion
        recordedAt = view.firstRecordedAtMicroseconds
        event = try projector.domainEvent(view)
    }

    init(_ recorded: RecordedEvent, projector: Projector) throws {
        stream = recorded.streamID
        position = recorded.position
        streamVersion = recorded.streamVersion
        recordedAt = recorded.envelope.firstRecordedAtMicroseconds
        event = try projector.domainEvent(recorded)
    }
}
