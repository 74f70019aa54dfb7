import Reel
import Synchronization

/// The account the app works on, which the Settings tab's switcher changes: effects read it
/// when they run.
///
/// The app holds its handle across time, so it binds it (`BoundAccount`) when it first resolves
/// it (the first screen that shows the account) and keeps that binding: its changes then reach
/// that account only. Should another program delete the account and a new one be opened under
/// the handle, the app's changes fail (the account is gone) rather than land in the new one;
/// switching to the handle again in Settings binds it afresh.
final class CurrentAccount: Sendable {
    private struct State {
        var handle: AccountHandle
        /// `nil` until the handle is first resolved.
        var bound: BoundAccount?
    }

    private let state: Mutex<State>

    init(_ handle: AccountHandle) {
        state = Mutex(State(handle: handle))
    }

    /// The handle; setting one (switching accounts) drops the binding of the one before.
    var value: AccountHandle {
        get { state.withLock { $0.handle } }
        set { state.withLock { $0 = State(handle: newValue) } }
    }

    /// The account as the app first resolved it, resolved now if it was not yet.
    func bound(_ application: Application) throws -> BoundAccount {
        if let bound = state.withLock({ $0.bound }) { return bound }
        let handle = value
        let resolved = try application.bind(handle)
        return state.withLock { state in
            guard state.handle == handle else { return resolved }
            if let bound = state.bound { return bound }
            state.bound = resolved
            return resolved
        }
    }

    /// After a change of `account` committed: an account it opened (the handle named none when
    /// bound) is the one the app is bound to from now on.
    func changed(_ account: BoundAccount, stream: StreamID?) {
        guard account.stream == nil, let stream else { return }
        state.withLock { state in
            if state.handle == account.handle, state.bound?.stream == nil { state.bound = BoundAccount(account.handle, stream: stream) }
        }
    }

    /// After the app deleted `handle`'s account: the next change may open a new one.
    func deleted(_ handle: AccountHandle) {
        state.withLock { state in
            if state.handle == handle { state.bound = nil }
        }
    }
}
