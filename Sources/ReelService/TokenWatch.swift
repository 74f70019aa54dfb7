import Foundation
import Reel
import Synchronization

/// Ends the event streams of tokens that stop being live — revoked, or their account deleted
/// (which revokes them before it commits) — by this process or another (`reel token revoke`
/// from a shell), within `interval`.
///
/// Cheap whatever the number of streams: one poller for the service reads the token store's mark
/// (`Application.tokenStoreMark`: a `stat` and LMDB's shared lock file) each `interval`, and
/// only when it moved (a commit to the store) reads each open stream's token again. Each event
/// is also checked before it is delivered (`LiveToken.check`), so nothing appended after a
/// revocation reaches a stream of the revoked token, however the poller is timed.
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

    let application: Reel.Application
    let interval: Duration
    private let state = Mutex(State())

    init(application: Reel.Application, interval: Duration = defaultInterval) {
        self.application = application
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
            var last: TokenStoreMark?
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                let mark = application.tokenStoreMark()
                guard mark != last else { continue }
                last = mark
                let watched = state.withLock { Array($0.watched) }
                for (id, entry) in watched where !entry.token.check() {
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
/// mark moved since it was last found live.
final class LiveToken: Sendable {
    let token: AccessToken
    let application: Reel.Application
    private let verified = Mutex<TokenStoreMark?>(nil)

    init(_ token: AccessToken, application: Reel.Application) {
        self.token = token
        self.application = application
    }

    /// Whether the token is live now. The mark is read before the token: a revocation that
    /// commits in between leaves a mark that moves again, so the next check reads it.
    func check() -> Bool {
        let mark = application.tokenStoreMark()
        if mark.isRead, verified.withLock({ $0 == mark }) { return true }
        let live = (try? application.isLive(token)) ?? false
        if live { verified.withLock { $0 = mark } }
        return live
    }
}
