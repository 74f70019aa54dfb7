import Foundation
@testable import PostgresStore
import ReelTestSupport
import Testing

/// A connection is never dropped open. The driver checks, as a connection goes, that its channel is
/// closed (an assertion, on in the builds the tests run): a link dropped with its close only
/// started stopped a `reel-bench worker` with `SIGILL` when a server crashed under concurrent
/// appenders. Each way a link goes is taken many times here, each at once after the close starts.
@Suite struct PostgresLinkTests {
    static let started = Task { try await PostgresServer.started("PostgresLinkTests") }

    @Test func aLinkDroppedRightAfterItsCloseStartsStopsNothing() async throws {
        let server = try await Self.started.value
        let database = try await server.createDatabase("links")
        let location = try PostgresLocation(server.url(database: database))
        try await offThread {
            for id in 1...40 {
                let discarded = try PostgresLink.open(location, id: id)
                discarded.discard()
            }
            for id in 41...80 {
                // Dropped on no path that closes it: its deinit closes it.
                _ = try PostgresLink.open(location, id: id)
            }
            for id in 81...90 {
                let closed = try PostgresLink.open(location, id: id)
                closed.close()
                #expect(!closed.isUsable)
            }
        }
        // Every one of them reached the server and is gone from it.
        try await waitFor("the server to see no connection of the test's") {
            (try? await server.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)'")) == "0"
        }
    }
}
