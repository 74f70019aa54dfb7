@_spi(Stores) import EventLog
import Foundation
import PostgresStore
import ReelTestSupport
import Testing

/// A server that crashes and comes back under an open store: the connections it cut are dropped
/// when the store meets them, and the store goes on with new ones. (The pool now also closes
/// every connection it drops: one dropped broken with its socket still open tripped the driver's
/// check, an assertion in unoptimized builds, and killed an appender of PostgresMultiProcessTests
/// when its server crashed; that case is not made here.)
@Suite struct PostgresRestartTests {
    static let started = Task { try await PostgresServer.started("PostgresRestartTests") }

    @Test func connectionsTheServerCutAreClosedAndTheStoreGoesOn() async throws {
        let server = try await Self.started.value
        let database = "restart_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        try await server.createDatabase(database)
        let location = try PostgresLocation(server.url(database: database))
        _ = try await PostgresMigrator.migrate(location)
        let directory = temporaryDirectory("restart-data")
        let stream = try StreamID("account-restart")
        // A new event each time (one proposed again is the same event: stored once).
        let event: @Sendable () throws -> ProposedEvent = { try ProposedEvent(type: "favorite-added", payload: Array(#"{"id":550}"#.utf8)) }
        let store = try await offThread { try PostgresEventStore.open(location, directory: directory) }
        // Idle connections in the pool, then every one of them cut.
        try await offThread { _ = try store.append([try event()], to: stream, expected: .noStream) }
        try await server.crashAndRestart()
        // An append may meet a cut connection and fail (unavailable); one goes through soon.
        try await waitFor("an append after the restart", seconds: 60) {
            (try? await offThread { try store.append([try event()], to: stream, expected: .any) }) != nil
        }
        let version = try await offThread { try store.version(of: stream) }
        #expect(version == 2, "version \(version)")
    }
}
