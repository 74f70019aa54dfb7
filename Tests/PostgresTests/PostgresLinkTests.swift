import EventLog
import Failures
import Foundation
@testable import PostgresStore
import PostgresNIO
import ReelTestSupport
import Testing

/// A connection is never dropped open. The driver checks, as a connection goes, that its channel is
/// closed (an assertion, on in the builds the tests run): a link dropped with its close only
/// started stopped a `reel-bench worker` with `SIGILL` when a server crashed under concurrent
/// appenders. Each way a link goes is taken many times here, each at once after the close starts.
///
/// And a statement a connection prepared (`PreparedText`) runs by name, and fails as the same
/// statement sent as text does: the server's SQLSTATE read, the link kept or dropped alike.
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

    /// A server that stops answering (its backend stopped with `SIGSTOP`) is given up on at the
    /// link's limit: the statement waited for, and one sent before it, fail in words as not
    /// answered, the link is dropped, and a new connection is served once the server answers
    /// again.
    @Test(.timeLimit(.minutes(1))) func aServerThatStopsAnsweringIsGivenUpOnAtTheLimit() async throws {
        let server = try await Self.started.value
        let location = try PostgresLocation(server.url(database: try await server.createDatabase("silent")))
        try await offThread {
            let link = try PostgresLink.open(location, id: 1)
            defer { link.discard() }
            let backend = try #require(try link.run("SELECT pg_backend_pid()").first?.decode(Int32.self))
            #expect(kill(backend, SIGSTOP) == 0)
            defer { kill(backend, SIGCONT) }
            link.answerLimit = .seconds(1)
            let started = ContinuousClock.now
            let sentBefore = try link.send("SELECT 1")
            let failure = #expect(throws: Failure.self) { try link.run("SELECT 2") }
            #expect(failure?.kind == .unavailable)
            #expect(failure?.summary.contains("did not answer within 1 s") == true)
            let waited = ContinuousClock.now - started
            #expect(waited >= .seconds(1) && waited < .seconds(30))
            #expect(!link.isUsable)
            #expect(throws: Failure.self) { _ = try link.rows(of: sentBefore) }
            #expect(throws: Failure.self) { try link.run("SELECT 3") }
        }
        // The link closed its connection: once the backend runs again, it sees the close and ends.
        try await waitFor("the server to see the given-up connection gone") {
            (try? await server.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(location.database)'")) == "0"
        }
        try await offThread {
            let link = try PostgresLink.open(location, id: 2)
            defer { link.close() }
            #expect(try link.run("SELECT 4").first?.decode(Int32.self) == 4)
        }
    }

    /// Divides 10 by its parameter into the table `quotients`: a division by zero is the server's error.
    static let divide = "INSERT INTO quotients VALUES (10 / $1::int)"

    static func divide(by divisor: Int32) throws -> PreparedText {
        var statement = PreparedText(divide)
        try statement.bind(divisor)
        return statement
    }

    static func quotients(_ link: PostgresLink) throws -> [Int32] {
        try link.run("SELECT q FROM quotients ORDER BY q").map { try $0.decode(Int32.self) }
    }

    /// The server's own count of the runs of the link's prepared statement `sql` (by name, as
    /// `pg_prepared_statements` counts them), `nil` when the session has not prepared it.
    static func runs(of sql: String, on link: PostgresLink) throws -> Int64? {
        var query = PostgresQuery(unsafeSQL: "SELECT generic_plans + custom_plans FROM pg_prepared_statements WHERE statement = $1")
        query.binds.append(sql)
        return try link.run(query).first?.decode(Int64.self)
    }

    static func link(_ name: String) async throws -> PostgresLink {
        let server = try await Self.started.value
        let location = try PostgresLocation(server.url(database: try await server.createDatabase(name)))
        return try await offThread { try PostgresLink.open(location, id: 1) }
    }

    @Test func aStatementIsPreparedOnceAndRunByName() async throws {
        let link = try await Self.link("prepared")
        try await offThread {
            defer { link.close() }
            try link.run("CREATE TABLE quotients (q int)")
            // Sent as text before it is prepared: the server runs it, and keeps nothing.
            _ = try link.rows(of: link.send(Self.divide(by: 5)))
            #expect(try Self.runs(of: Self.divide, on: link) == nil)
            link.prepare([Self.divide])
            link.prepare([Self.divide])
            for divisor: Int32 in [1, 10] { try link.send(Self.divide(by: divisor)) }
            #expect(try Self.quotients(link) == [1, 2, 10])
            #expect(try Self.runs(of: Self.divide, on: link) == 2)
            #expect(try link.run("SELECT count(*) FROM pg_prepared_statements").first?.decode(Int64.self) == 1)
        }
    }

    @Test func aPreparedStatementFailsAsTheServerSaysAndOutlivesItsTransaction() async throws {
        let link = try await Self.link("prepared_failing")
        try await offThread {
            defer { link.close() }
            try link.run("CREATE TABLE quotients (q int)")
            link.prepare([Self.divide])
            try link.begin()
            try link.send(Self.divide(by: 5))
            let failure = #expect(throws: Failure.self) { _ = try link.rows(of: link.send(Self.divide(by: 0))) }
            #expect(failure?.kind == .storage)
            #expect(failure?.summary.contains("SQLSTATE 22012") == true)
            #expect(link.lastServerState == "22012")
            #expect(link.isUsable)
            link.rollBack()
            // Prepared for the session: the rolled-back transaction took nothing of it.
            try link.send(Self.divide(by: 2))
            #expect(try Self.quotients(link) == [5])
            // (The division by zero failed as the server planned it, before it counted the run.)
            #expect(try Self.runs(of: Self.divide, on: link) == 2)
            // A server that says it is read-only (a primary demoted): the link is dropped, as for
            // any statement.
            try link.run("SET default_transaction_read_only = on")
            let readOnly = #expect(throws: Failure.self) { _ = try link.rows(of: link.send(Self.divide(by: 1))) }
            #expect(readOnly?.kind == .unavailable)
            #expect(link.lastServerState == "25006")
            #expect(!link.isUsable)
        }
    }

    @Test func aTextTheServerCannotPrepareIsSentAsText() async throws {
        let link = try await Self.link("prepared_missing")
        try await offThread {
            defer { link.close() }
            // The table is not there yet (a store not migrated): nothing of it is prepared, the
            // link is fine, and the statement says what the server says.
            let other = "SELECT $1::int"
            link.prepare([Self.divide, other])
            #expect(link.isUsable)
            #expect(try Self.runs(of: other, on: link) == 0)
            #expect(try Self.runs(of: Self.divide, on: link) == nil)
            let missing = #expect(throws: Failure.self) { _ = try link.rows(of: link.send(Self.divide(by: 1))) }
            #expect(missing?.summary.contains("SQLSTATE 42P01") == true)
            #expect(link.isUsable)
            try link.run("CREATE TABLE quotients (q int)")
            link.prepare([Self.divide])
            try link.send(Self.divide(by: 1))
            #expect(try Self.quotients(link) == [10])
            #expect(try Self.runs(of: Self.divide, on: link) == 1)
        }
    }

    /// The write path's last statement runs prepared: one a batch decided from memory (the whole
    /// transaction) and one of a transaction that waited for its lock, each by name, and so does
    /// the durability mark behind each.
    @Test func aStoresWritesRunTheirLastStatementPrepared() async throws {
        let server = try await Self.started.value
        let location = try PostgresLocation(server.url(database: try await server.createDatabase("prepared_store")))
        _ = try await PostgresMigrator.migrate(location)
        try await offThread {
            let store = try PostgresEventStore.open(location, directory: temporaryDirectory("prepared-store"), keyring: temporaryDirectory("prepared-keyring"))
            let stream = try StreamID("prepared-ann")
            for version: UInt64 in 0..<3 {
                // As the service's group commit appends: the unique index, not a read, refuses an
                // id stored already.
                let (_, wait) = try store.writeAhead { w in
                    let event = try ProposedEvent(id: .newEventID(), type: "noted", payload: Array(#"{"n":1}"#.utf8))
                    _ = try w.append(batch: [AppendRequest(events: [event], to: stream, expected: version == 0 ? .noStream : .exact(version))], checkingIDs: false)[0].get()
                }
                try wait?()
            }
            #expect(try store.version(of: stream) == 3)
            // The pool lends the link it was given back last: the one that wrote.
            let link = try store.pool.borrow()
            defer { store.pool.giveBack(link) }
            #expect(try Self.runs(of: PostgresWrite.lastStatement(alone: false), on: link) == 1)
            #expect(try Self.runs(of: PostgresWrite.lastStatement(alone: true), on: link) == 2)
            // Each answered once its durability mark, prepared too, returned.
            #expect(try Self.runs(of: PostgresEventStore.durabilityMark, on: link) == 3)
        }
    }
}
