import Failures
import Foundation
import PostgresStore
import ReelTestSupport
import Testing

/// `PostgresMigrator` against a real PostgreSQL (one server for the suite, a database per test):
/// a new database gets the whole schema in one step, again changes nothing, concurrent runs take
/// turns, a newer schema and a failed step leave the database as it was, and each way of not
/// reaching the store is one line of its own kind without the password.
@Suite struct PostgresMigratorTests {
    /// The suite's server, started by the first test that asks.
    static let started = Task { try await PostgresServer.started("PostgresMigratorTests") }
    static var server: PostgresServer { get async throws { try await started.value } }

    /// A new database of this test's own, as a location.
    static func database(_ name: String = #function) async throws -> (PostgresLocation, String) {
        let database = "t_" + name.filter { $0.isLetter || $0.isNumber }.prefix(40).lowercased() + "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let server = try await server
        try await server.createDatabase(database)
        return (try PostgresLocation(server.url(database: database)), database)
    }

    static func psql(_ sql: String, _ database: String) async throws -> String {
        try await server.psql(sql, database: database)
    }

    static func tables(_ database: String) async throws -> String {
        try await psql("SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'", database)
    }

    @Test func aNewDatabaseGetsTheWholeSchemaInOneStep() async throws {
        let (location, database) = try await Self.database()
        #expect(try await PostgresMigrator.version(of: location) == 0)
        let report = try await PostgresMigrator.migrate(location)
        #expect(report.from == 0 && report.to == PostgresMigration.latest && report.applied == PostgresMigration.all)
        #expect(report.store == location.description && !report.store.contains(PostgresServer.password))
        #expect(try await Self.tables(database) == "reel_checkpoints,reel_events,reel_head,reel_keyring,reel_migrations,reel_projections,reel_stream_keys,reel_streams,reel_tree")
        #expect(try await Self.psql("SELECT position, encode(hash, 'hex') FROM reel_head", database) == "0|" + String(repeating: "0", count: 64))
        #expect(try await Self.psql("SELECT string_agg(version::text, ',' ORDER BY version) FROM reel_migrations", database) == "1,2,3,4,5,6")
        #expect(try await PostgresMigrator.version(of: location) == PostgresMigration.latest)
    }

    @Test func migratingAgainChangesNothing() async throws {
        let (location, database) = try await Self.database()
        _ = try await PostgresMigrator.migrate(location)
        let before = try await Self.psql("SELECT version, applied_at FROM reel_migrations", database)
        let again = try await PostgresMigrator.migrate(location)
        #expect(again.from == PostgresMigration.latest && again.to == PostgresMigration.latest && again.applied.isEmpty)
        #expect(try await Self.psql("SELECT version, applied_at FROM reel_migrations", database) == before)
    }

    @Test func concurrentMigrationsTakeTurnsAndApplyOnce() async throws {
        let (location, database) = try await Self.database()
        let reports = try await withThrowingTaskGroup(of: PostgresMigrator.Report.self) { group in
            for _ in 0..<6 { group.addTask { try await PostgresMigrator.migrate(location) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(reports.filter { !$0.applied.isEmpty }.count == 1, "\(reports)")
        #expect(reports.allSatisfy { $0.to == PostgresMigration.latest })
        #expect(try await Self.psql("SELECT count(*) FROM reel_migrations", database) == "\(PostgresMigration.latest)")
    }

    @Test func aSchemaNewerThanThisReelIsRefusedAndLeftAsItIs() async throws {
        let (location, database) = try await Self.database()
        _ = try await PostgresMigrator.migrate(location)
        _ = try await Self.psql("INSERT INTO reel_migrations (version, name) VALUES (99, 'from the future')", database)
        do {
            _ = try await PostgresMigrator.migrate(location)
            Issue.record("a newer schema was migrated")
        } catch let failure as Failure {
            #expect(failure.kind == .unavailable)
            #expect(failure.summary.contains("schema version 99, newer than this Reel knows (\(PostgresMigration.latest))"), "\(failure.summary)")
        }
        #expect(try await Self.psql("SELECT string_agg(version::text, ',' ORDER BY version) FROM reel_migrations", database) == "1,2,3,4,5,6,99")
        #expect(try await PostgresMigrator.version(of: location) == 99)
    }

    @Test func aStepThatFailsLeavesNothingOfTheMigration() async throws {
        let (location, database) = try await Self.database()
        _ = try await Self.psql("CREATE TABLE reel_events (something integer)", database)
        do {
            _ = try await PostgresMigrator.migrate(location)
            Issue.record("the migration went over a table in its way")
        } catch let failure as Failure {
            #expect(failure.kind == .storage && failure.summary.contains("42P07"), "\(failure.summary)")
        }
        #expect(try await Self.tables(database) == "reel_events", "reel_migrations and reel_head were rolled back")
    }

    @Test func theLogsIndexesAreConstraints() async throws {
        let (location, database) = try await Self.database()
        _ = try await PostgresMigrator.migrate(location)
        let row = { (position: Int, version: Int, id: String) in
            "INSERT INTO reel_events VALUES (\(position), 'ann', \(version), '\(id)', 'favorite-added', 0, '\\x00')"
        }
        let id = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
        _ = try await Self.psql(row(1, 1, id), database)
        for (statement, what) in [
            (row(2, 2, id), "an event id stored twice"), (row(2, 1, "6ba7b811-9dad-11d1-80b4-00c04fd430c8"), "a stream version stored twice"),
            (row(1, 2, "6ba7b812-9dad-11d1-80b4-00c04fd430c8"), "a position stored twice"), (row(0, 2, "6ba7b813-9dad-11d1-80b4-00c04fd430c8"), "position 0"),
            ("UPDATE reel_head SET hash = '\\x00'", "a head hash of 1 byte"), ("INSERT INTO reel_head VALUES (false, 0, decode(repeat('00', 32), 'hex'), 0)", "a second head"),
        ] {
            await #expect(throws: (any Error).self, "\(what)") { try await Self.psql(statement, database) }
        }
    }

    @Test func eachWayOfNotReachingTheStoreIsOneLineOfItsKindWithoutThePassword() async throws {
        let (location, database) = try await Self.database()
        let server = try await Self.server
        let port = server.port
        let cases: [(String, FailureKind, String)] = [
            ("postgres://postgres:not-the-password@127.0.0.1:\(port)/\(database)", .refusedCredentials, "refused the user or password"),
            ("postgres://postgres@127.0.0.1:\(port)/\(database)", .refusedCredentials, "asks for a password and the URL gives none"),
            ("postgres://postgres:\(PostgresServer.password)@127.0.0.1:\(port)/no_such_database", .notFound, "the database does not exist"),
            ("postgres://postgres:\(PostgresServer.password)@127.0.0.1:1/\(database)", .unavailable, "cannot be reached: connection refused"),
            ("postgres://postgres:\(PostgresServer.password)@127.0.0.1:\(port)/\(database)?sslmode=require", .unavailable, "does not offer TLS"),
        ]
        for (url, kind, words) in cases {
            do {
                _ = try await PostgresMigrator.migrate(try PostgresLocation(url))
                Issue.record("\(url) was reached")
            } catch let failure as Failure {
                #expect(failure.kind == kind && failure.summary.contains(words), "\(url): \(failure.summary)")
                #expect(!failure.summary.contains(PostgresServer.password) && !failure.summary.contains("not-the-password"))
                #expect(!failure.summary.contains("\n"), "\(failure.summary)")
            }
        }
        // The socket needs no password (local trust), the location's own description says so.
        let socket = try PostgresLocation(server.socketURL(database: database))
        #expect(try await PostgresMigrator.migrate(socket).to == PostgresMigration.latest)
        #expect(try await PostgresMigrator.version(of: location) == PostgresMigration.latest)
    }
}
