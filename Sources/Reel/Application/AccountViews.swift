import Ledger
import Synchronization

/// The accounts' views a process read, kept between reads while each account's stream stays at
/// its version: the one cache of account state the commands, the terminal app and the service
/// share (`Application.view(of:)`). A view read while others were forgotten may be older than the
/// change that forgot them, so it is kept only if none was forgotten since it was read (`mark`).
final class AccountViews: Sendable {
    private struct Held {
        var views: [AccountHandle: AccountView] = [:]
        /// Counts the forgettings: a view read across one is not kept (`keep`).
        var forgotten: UInt64 = 0
    }

    private let held = Mutex(Held())

    /// The view of `handle` read before, if any (whether it still holds is the caller's to check).
    func kept(_ handle: AccountHandle) -> AccountView? { held.withLock { $0.views[handle] } }

    /// How many times views were forgotten so far: taken before a view is read (`keep`).
    var mark: UInt64 { held.withLock { $0.forgotten } }

    /// Keeps `view`, read after `mark` was taken, for the reads that follow. A change committed
    /// while it was read may be missing from it, and kept it would hide that change from every
    /// later read: so it is kept only if no view was forgotten since (else the next read reads
    /// afresh).
    func keep(_ view: AccountView, readSince mark: UInt64) {
        held.withLock { if $0.forgotten == mark { $0.views[view.handle] = view } }
    }

    /// Forgets the accounts' views read before: a change made them out of date.
    func forget(_ handles: some Sequence<AccountHandle>) {
        held.withLock { held in
            for handle in handles { held.views.removeValue(forKey: handle) }
            held.forgotten &+= 1
        }
    }

    /// Forgets every view (the routing changed).
    func forgetAll() {
        held.withLock { held in
            held.views = [:]
            held.forgotten &+= 1
        }
    }

    /// Keeps the views of the accounts committed commands left (forgets those of accounts with
    /// no state left, deleted): the next read of each needs no decoding. Views read before are
    /// not kept over them (`keep`).
    func keep(_ reports: [CommandReport]) {
        held.withLock { held in
            for report in reports {
                if let stream = report.stream, let state = report.state, state.status == .open, !report.replayed {
                    held.views[report.handle] = AccountView(handle: report.handle, stream: stream, state: state, asOf: nil)
                } else {
                    held.views.removeValue(forKey: report.handle)
                }
            }
            held.forgotten &+= 1
        }
    }
}
