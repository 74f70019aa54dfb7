import Reel
import ReelTestSupport
import Synchronization
import Testing

@testable import ReelService

/// An event stream's token is found revoked however the token store's reads are timed against its
/// commits. LMDB marks a commit (the meta page `tokenStoreMark` reads) a moment before it hands
/// it to new readers: a read begun in that moment answers as of the commit before. CI once kept a
/// revoked token's stream open that way (`ServiceAttackTests`, one run in many): the read found
/// the token live and was kept with the new mark, which then never moved again.
@Suite struct TokenWatchTests {
    /// The token store, but its next read of a token (once `lag` is set) answers what `lag` holds:
    /// the store as it was before a commit, as a read begun in that moment sees it.
    final class LaggingStore: TokenStoreReading {
        let application: Reel.Application
        let lag = Mutex<(live: Bool, seen: TokenStoreMark)?>(nil)

        init(_ application: Reel.Application) { self.application = application }

        func tokenStoreMark() -> TokenStoreMark { application.tokenStoreMark() }

        func liveness(of token: AccessToken) throws -> (live: Bool, seen: TokenStoreMark) {
            if let answer = lag.withLock({ lag in defer { lag = nil }; return lag }) { return answer }
            return try application.liveness(of: token)
        }
    }

    @Test func aReadOfTheStoreBeforeARevocationDoesNotKeepTheTokenLive() async throws {
        let harness = ServiceHarness()
        let issued = try harness.application.createToken(for: AccountHandle("ann"))
        let store = LaggingStore(harness.application)
        let token = LiveToken(issued.token, store: store)
        #expect(token.check())
        // Not read while the mark stays: the lagging answer is the first read after the revocation.
        store.lag.withLock { $0 = (true, harness.application.tokenStoreMark()) }
        #expect(token.check())
        _ = try harness.application.revokeToken(issued.token.id)
        #expect(token.check(), "the read of the store before the revocation answers live")
        #expect(!token.check(), "the next check reads again: what the read saw is behind the mark")
        await harness.application.close()
    }

    @Test func theWatchEndsAStreamWhoseTokenARevocationsFirstReadMissed() async throws {
        let harness = ServiceHarness()
        let issued = try harness.application.createToken(for: AccountHandle("ann"))
        let store = LaggingStore(harness.application)
        let watch = TokenWatch(store: store, interval: .milliseconds(5))
        let ended = Mutex(false)
        _ = watch.watch(LiveToken(issued.token, store: store)) { ended.withLock { $0 = true } }
        store.lag.withLock { $0 = (true, harness.application.tokenStoreMark()) }
        _ = try harness.application.revokeToken(issued.token.id)
        try await waitFor("the lagging read is made") { store.lag.withLock { $0 == nil } }
        try await waitFor("the stream is ended") { ended.withLock { $0 } }
        #expect(watch.count == 0)
        await harness.application.close()
    }
}
