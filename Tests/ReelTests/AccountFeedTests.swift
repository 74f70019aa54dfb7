import Foundation
import Ledger
import ReelTestSupport
import Testing

@testable import Reel
@testable import Stores

/// The fan-out of the log to each account's listeners (`AccountFeed`, behind `GET /v1/events`).
@Suite struct AccountFeedTests {
    /// A listener that falls more events behind than the feed holds for it is ended with
    /// `Overrun` (it resumes from its last version) and its place is freed: the ending runs its
    /// termination handler, which must not wait for the lock the delivery holds.
    @Test func aListenerTooFarBehindIsEndedAndItsPlaceFreed() async throws {
        let app = Application(.init(dataDirectory: temporaryDirectory(), environment: ["HOME": temporaryDirectory("feed-home")]) { _ in })
        let ann = try AccountHandle("ann")
        let ledger = try app.ledger()
        _ = try ledger.execute(.addFavorites([try MediaKey(.movie, 1)]), for: ann)
        let events = try app.accountEvents(of: ann, after: 0)
        #expect(app.eventListeners == 1)
        // One command of more titles than the listener may fall behind by, none of them read.
        let titles = try (2...Int64(AccountFeed.bufferLimit + 100)).map { try MediaKey(.movie, $0) }
        _ = try ledger.execute(.addFavorites(titles), for: ann)
        #expect(await eventually { app.eventListeners == 0 }, "the listener was not ended")
        var got = 0
        var ending: (any Error)?
        do {
            for try await _ in events { got += 1 }
        } catch {
            ending = error
        }
        #expect(ending is AccountFeed.Overrun, "\(String(describing: ending))")
        #expect(got == AccountFeed.bufferLimit, "\(got)")
        await app.close()
    }
}
