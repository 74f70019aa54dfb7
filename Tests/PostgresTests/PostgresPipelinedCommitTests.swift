import EventLog
import Foundation
import PostgresStore
import ReelTestSupport
import Synchronization
import Testing

/// A pipelined write (`writeAhead`, the service's group commit on PostgreSQL) commits without
/// waiting for its durability, releasing the lock at once, and is answered only once a
/// synchronous commit behind it is durable; begun from what this process's last write left,
/// it is checked on the server, once it holds the head, against what another process wrote.
/// Against a real server of its own, one test at a time (a test changes its settings).
@Suite(.serialized) struct PostgresPipelinedCommitTests {
    static let started = Task { try await PostgresServer.started("PostgresPipelinedCommitTests") }

    static func event() throws -> ProposedEvent { try ProposedEvent(id: .newEventID(), type: "noted", payload: Array(#"{"n":1}"#.utf8)) }

    static func store(_ name: String) async throws -> (PostgresServer, PostgresLocation, String) {
        let server = try await started.value
        let location = try PostgresLocation(server.url(database: try await server.createDatabase(name)))
        _ = try await PostgresMigrator.migrate(location)
        return (server, location, temporaryDirectory(name + "-keyring"))
    }

    /// With a synchronous standby named that never comes, a synchronous commit never returns:
    /// the pipelined write's own commit does (its lock passes on), but its answer waits, with
    /// the server waiting for the standby (`SyncRep`), until the standby is no longer asked for.
    @Test func aPipelinedWriteIsAnsweredOnlyOnceItIsDurable() async throws {
        let (server, location, keyring) = try await Self.store("durable")
        let store = try await offThread { try PostgresEventStore.open(location, directory: temporaryDirectory("durable-store"), keyring: keyring) }
        let stream = try StreamID("durable-ann")
        // A first one, so the second begins from what it left (one statement, no lock waited for).
        try await offThread {
            let (_, wait) = try store.writeAhead { w in try w.append([try Self.event()], to: stream, expected: .noStream) }
            try wait?()
        }
        try await server.psql("ALTER SYSTEM SET synchronous_standby_names = 'nobody'")
        try await server.psql("SELECT pg_reload_conf()")
        try await waitFor("the server to ask for a standby") {
            (try? await server.psql("SHOW synchronous_standby_names")) == "nobody"
        }
        final class Flag: Sendable {
            let raised = Mutex(false)
        }
        let answered = Flag()
        let writer = Task {
            try await offThread {
                let (_, wait) = try store.writeAhead { w in try w.append([try Self.event()], to: stream, expected: .exact(1)) }
                try wait?()
                answered.raised.withLock { $0 = true }
            }
        }
        try await waitFor("the durability of the write to wait for the standby") {
            (try? await server.psql("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")) == "1"
        }
        #expect(!answered.raised.withLock { $0 }, "answered before the standby acknowledged it")
        try await server.psql("ALTER SYSTEM RESET synchronous_standby_names")
        try await server.psql("SELECT pg_reload_conf()")
        try await writer.value
        #expect(answered.raised.withLock { $0 })
        #expect(try await offThread { try store.read(stream: stream, from: 1, maxCount: 10).count } == 2)
    }

    /// Another process writes between two of this process's pipelined writes: the second, begun
    /// from what the first left, is refused by the server's check of the generation, stores
    /// nothing, and says so (`StaleStart`); the next one begins from what the server holds and
    /// sees the other's write. A key read absent and then written by the other is seen too.
    @Test func aPipelinedWriteBegunBeforeAnotherProcessWroteStoresNothing() async throws {
        let (_, location, keyring) = try await Self.store("stale")
        try await offThread {
            let one = try PostgresEventStore.open(location, directory: temporaryDirectory("stale-one"), keyring: keyring)
            let other = try PostgresEventStore.open(location, directory: temporaryDirectory("stale-other"), keyring: keyring)
            let table = try one.projectionTable(named: "stale")
            let stream = try StreamID("stale-ann")
            let key = Array("k".utf8)
            let (absent, first) = try one.writeAhead { w in
                try w.append([try Self.event()], to: stream, expected: .noStream)
                return try w.table(table).get(key)
            }
            try first?()
            #expect(absent == nil)
            try other.write(shredding: { _ in }) { w in
                try w.append([try Self.event()], to: stream, expected: .exact(1))
                try w.table(table).put(key, Array("other".utf8))
            }
            let head = try one.head()
            // Decided on what the first left: the stream at 1, the key absent.
            let (decided, second) = try one.writeAhead { w in
                let seen = (try w.version(of: stream), try w.table(table).get(key))
                try w.table(table).put(Array("second".utf8), Array("yes".utf8))
                return seen
            }
            #expect(decided.0 == 1 && decided.1 == nil)
            #expect(throws: StaleStart.self) { try second?() }
            #expect(try one.head() == head, "nothing of the refused write is stored")
            let (seen, third) = try one.writeAhead { w in
                (try w.version(of: stream), try w.table(table).get(key), try w.table(table).get(Array("second".utf8)))
            }
            try third?()
            #expect(seen.0 == 2 && seen.1 == Array("other".utf8) && seen.2 == nil)
        }
    }
}
