import Reel
import Synchronization

/// The account the app works on, which the Settings tab's switcher changes: effects read it
/// when they run.
final class CurrentAccount: Sendable {
    private let handle: Mutex<AccountHandle>

    init(_ handle: AccountHandle) {
        self.handle = Mutex(handle)
    }

    var value: AccountHandle {
        get { handle.withLock { $0 } }
        set { handle.withLock { $0 = newValue } }
    }
}
