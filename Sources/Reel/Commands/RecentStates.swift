import EventLog
import Ledger
import Synchronization

/// The states of the accounts changed lately, as their transactions committed them: a command
/// on one of them is decided without unsealing and decoding its stored state again (a list of
/// thousands of titles costs that on every append). A state is used only while its stream is at
/// its version (read in the deciding transaction): a change by another process, or a state
/// rebuilt, is read from the store. Only committed states are kept (an aborted transaction's
/// state at a version could differ from the one later committed at that version), and only of
/// open accounts. At most `capacity` of them; when full, an arbitrary one goes.
final class RecentStates: Sendable {
    private let states = Mutex<[StreamID: AccountState]>([:])
    let capacity: Int

    init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    /// The state kept for `stream`, if it is the one at `version`.
    func state(of stream: StreamID, atVersion version: UInt64) -> AccountState? {
        states.withLock { states in
            guard let state = states[stream], state.version == version else { return nil }
            return state
        }
    }

    /// Keeps the states of committed reports (forgets a deleted account's).
    func remember(_ reports: some Sequence<CommandReport>) {
        states.withLock { states in
            for report in reports where !report.replayed {
                guard let stream = report.stream else { continue }
                guard let state = report.state, state.status == .open else {
                    states.removeValue(forKey: stream)
                    continue
                }
                if states[stream] == nil, states.count >= capacity, let any = states.keys.first { states.removeValue(forKey: any) }
                states[stream] = state
            }
        }
    }

    /// Forgets everything (the projections were rebuilt or replaced).
    func forgetAll() {
        states.withLock { $0.removeAll() }
    }
}
