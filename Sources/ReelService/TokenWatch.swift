import Foundation
import Reel
import Synchronization

/// Ends the event streams of tokens that stop being live — revoked, or their account deleted
/// (which revokes them before it commits) — by this process or another (`reel token revoke`
/// from a shell), within `interval`.
///
/// Cheap whatever the number of streams: one poller for the service reads the token store's mark
/// (`Application.tokenStoreMark`: a `stat` and LMDB's shared lock file) each `interval`, and
/// reads again only the tokens not last found live at that mark (`LiveToken.check(at:)`): none,
/// while no process commits to the store. Each event is also checked before it is delivered
/// (`LiveToken.check`), so nothing appended after a revocation reaches a stream of the revoked
/// token, however the poller is timed.
final class TokenWatch: Sendable {
    /// How often the token store's mark is read.
    static let defaultInterval: Duration = .milliseconds(200)

    private struct Watched {
        let token: LiveToken
        let end: @Sendable () -> Void
    }

    private struct State {
        var watched: [UUID: Watched] = [:]
        var poller: Task<Void, Never>?
    }

    let store: any TokenStoreReading
    let interval: Duration
    private let state = Mutex(State())

    init(store: any TokenStoreReading, interval: Duration = defaultInterval) {
        self.store = store
        self.interval = interval
    }

    /// Watches `token`: `end` runs once, when it is found no longer live (at once if it is not
    /// live now). Returns the id to `unwatch` with.
    ///
    /// Checked once after it is watched: a revocation committed before that check is seen by
    /// it, one committed after moves the mark the poller reads next, with this token watched.
    func watch(_ token: LiveToken, end: @escaping @Sendable () -> Void) -> UUID {
        let id = UUID()
        let start = state.withLock { state -> Bool in
            state.watched[id] = Watched(token: token, end: end)
            return state.poller == nil
        }
        if start { startPolling() }
        if !token.check(), take(id) != nil { end() }
        return id
    }

    func unwatch(_ id: UUID) {
        _ = take(id)
    }

    /// Removes `id`, returning what was watched if it still was: only one caller ends a stream.
    private func take(_ id: UUID) -> Watched? {
        state.withLock { $0.watched.removeValue(forKey: id) }
    }

    /// How many tokens are watched now.
    var count: Int { state.withLock { $0.watched.count } }

    private func startPolling() {
        let task = Task { [weak self, interval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                // Every watched token, not only when the mark moved since the last tick: a read
                // may see the store as of a commit before the mark (`Application.liveness`), and
                // its token must be read again at the next tick though the mark stayed.
                let mark = store.tokenStoreMark()
                let watched = state.withLock { Array($0.watched) }
                for (id, entry) in watched where !entry.token.check(at: mark) {
                    take(id)?.end()
                }
            }
        }
        state.withLock { state in
            if state.poller == nil { state.poller = task } else { task.cancel() }
        }
    }

    deinit {
        state.withLock { $0.poller?.cancel() }
    }
}

/// One open stream's token, checked against the token store: read again only when the store's
/// mark is not the one it was last found live at.
final class LiveToken: Sendable {
    let token: AccessToken
    let store: any TokenStoreReading
    /// The store as the last read that found the token live saw it.
    private let verified = Mutex<TokenStoreMark?>(nil)

    init(_ token: AccessToken, store: any TokenStoreReading) {
        self.token = token
        self.store = store
    }

    /// Whether the token is live now.
    func check() -> Bool {
        check(at: store.tokenStoreMark())
    }

    /// Whether the token is live, `mark` being the store's mark read just now. The answer is kept
    /// with the store its read saw, which may be older than `mark` (a commit is marked a moment
    /// before new reads see it): then the next check reads it again, so a revocation committed
    /// in that moment is not vouched for by a read of the commit before it.
    func check(at mark: TokenStoreMark) -> Bool {
        if mark.isRead, verified.withLock({ $0 == mark }) { return true }
        guard let (live, seen) = try? store.liveness(of: token) else { return false }
        verified.withLock { $0 = live ? seen : nil }
        return live
    }
}
