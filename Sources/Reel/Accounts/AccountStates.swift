import EventLog
import Ledger
import Synchronization

/// The one cache of account state, per ledger, keyed and checked by stream version: the states
/// of the accounts committed or read lately, and which stream each handle named then. A command
/// is decided on one without unsealing and decoding its stored state again (a list of thousands
/// of titles costs that on every append), and a read of an account — by a command, the terminal
/// app or the service — is answered from one (`view(of:version:)`).
///
/// A state is used only while its stream is at the state's version (read in the deciding
/// transaction, or from the log for a read): a change by another process, a deletion, a move
/// away or a state rebuilt is read from the store. So nothing needs forgetting when another
/// process changes an account; a handle that names another stream now has moved its old one on.
/// Only committed states are kept (an aborted transaction's state at a version could differ from
/// the one later committed at that version): those a commit leaves, and those read from a
/// committed snapshot; and only of open accounts. A state is never replaced by an older one (a
/// read that raced a commit keeps nothing), and a state read before the projections were rebuilt
/// (`forgetAll`, which counts a new `generation`) is not kept after it. At most `capacity`
/// states; when full, an arbitrary one goes.
final class AccountStates: Sendable {
    private struct Held {
        var states: [StreamID: AccountState] = [:]
        var streams: [AccountHandle: StreamID] = [:]
        /// Counts the `forgetAll`s: taken before a read, which keeps its state only if none came since.
        var generation: UInt64 = 0
        /// Streams of deleted accounts: never kept again, whatever report or read about them comes
        /// late (a batch committed before the deletion and told after it, as a pipelined group
        /// commit may). A deleted account's stream never opens again.
        var closed: Set<StreamID> = []
    }

    private let held = Mutex(Held())
    let capacity: Int

    init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    /// The state kept for `stream`, if it is the one at `version`.
    func state(of stream: StreamID, atVersion version: UInt64) -> AccountState? {
        held.withLock { held in
            guard let state = held.states[stream], state.version == version else { return nil }
            return state
        }
    }

    /// The view of `handle`'s open account kept, if its stream is still at the kept state's
    /// version (`version` reads the stream's version now); else `nil`.
    func view(of handle: AccountHandle, version: (StreamID) throws -> UInt64) throws -> AccountView? {
        let kept: (StreamID, AccountState)? = held.withLock { held in
            guard let stream = held.streams[handle], let state = held.states[stream] else { return nil }
            return (stream, state)
        }
        guard let (stream, state) = kept, state.status == .open, try version(stream) == state.version else { return nil }
        return AccountView(handle: handle, stream: stream, state: state, asOf: nil)
    }

    /// The state kept for `handle`'s open account, whatever its stream's version now (it may be
    /// behind): for what an older state gets as right (the language titles are looked up in).
    func lastKnown(_ handle: AccountHandle) -> AccountState? {
        held.withLock { held in
            guard let stream = held.streams[handle], let state = held.states[stream], state.status == .open else { return nil }
            return state
        }
    }

    /// The stream `handle` named when its state was last kept, if it is known.
    func stream(of handle: AccountHandle) -> StreamID? {
        held.withLock { $0.streams[handle] }
    }

    /// Keeps the states of committed reports (forgets a deleted account's).
    func remember(_ reports: some Sequence<CommandReport>) {
        held.withLock { held in
            for report in reports where !report.replayed {
                guard let stream = report.stream else { continue }
                guard let state = report.state, state.status == .open else {
                    Self.forget(stream, of: report.handle, &held)
                    if report.state?.status == .deleted { held.closed.insert(stream) }
                    continue
                }
                guard !held.closed.contains(stream) else { continue }
                Self.keep(state, of: stream, for: report.handle, &held, capacity: capacity)
            }
        }
    }

    /// The generation now: taken before a read whose state is kept (`keep(_:readIn:)`).
    var generation: UInt64 { held.withLock { $0.generation } }

    /// Keeps the state of `view`, read from a committed snapshot in `generation`, unless a newer
    /// one is kept or the projections were rebuilt since.
    func keep(_ view: AccountView, readIn generation: UInt64) {
        guard view.asOf == nil, let stream = view.stream, view.state.status == .open else { return }
        held.withLock { held in
            guard held.generation == generation, !held.closed.contains(stream) else { return }
            if let newer = held.states[stream], newer.version > view.state.version { return }
            Self.keep(view.state, of: stream, for: view.handle, &held, capacity: capacity)
        }
    }

    /// Forgets everything (the projections were rebuilt or replaced): a new generation.
    func forgetAll() {
        held.withLock { held in
            held.states = [:]
            held.streams = [:]
            held.generation &+= 1
        }
    }

    private static func keep(_ state: AccountState, of stream: StreamID, for handle: AccountHandle, _ held: inout Held, capacity: Int) {
        if held.states[stream] == nil, held.states.count >= capacity, let any = held.states.keys.first { held.states.removeValue(forKey: any) }
        // Handles of states gone: dropped all at once when they outgrow the states.
        if held.streams[handle] == nil, held.streams.count >= 2 * capacity { held.streams.removeAll(keepingCapacity: true) }
        held.states[stream] = state
        held.streams[handle] = stream
    }

    private static func forget(_ stream: StreamID, of handle: AccountHandle, _ held: inout Held) {
        held.states.removeValue(forKey: stream)
        if held.streams[handle] == stream { held.streams.removeValue(forKey: handle) }
    }
}
