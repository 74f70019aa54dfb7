import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// `reel store migrate|status` through the built binary against a real PostgreSQL: text and
/// `--json` (validated), the URL from --store, REEL_STORE and PGPASSWORD, a newer schema refused
/// with 69 and left as it is, and each mistake or unreachable store one line of its exit code
/// with the password nowhere in the output.
@Suite struct StoreCommandTests {
    /// The suite's server, started by the first test that asks.
    static let started = Task { try await PostgresServer.started("StoreCommandTests") }
    static var server: PostgresServer { get async throws { try await started.value } }

    static func database(_ name: String = #function) async throws -> String {
        let database = "e_" + name.filter { $0.isLetter || $0.isNumber }.prefix(40).lowercased() + "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        return try await server.createDatabase(database)
    }

    static func psql(_ sql: String, _ database: String) async throws -> String {
        try await server.psql(sql, database: database)
    }

    /// The built `reel`, run on a thread of its own (`offThread`).
    static func reel(_ arguments: [String], environment: [String: String] = [:]) async throws -> Harness.Output {
        let out = try await Harness.reel(arguments, environment: environment)
        #expect(!out.stdout.contains(PostgresServer.password) && !out.stderr.contains(PostgresServer.password), "the password was printed")
        return out
    }

    @Test func migrateMakesTheSchemaOnceAndSaysSo() async throws {
        let database = try await Self.database()
        let server = try await Self.server
        let url = server.url(database: database)
        let shown = "postgres://postgres@127.0.0.1:\(server.port)/\(database)"
        let status = try await Self.reel(["store", "status", "--store", url])
        // The schema, then each server: one alone here, a primary with no standby.
        #expect(
            status.status == 0
                && status.stdout == "\(shown): no Reel schema yet; run 'reel store migrate' (this Reel's version is 6)\n"
                + "  127.0.0.1:\(server.port): primary; synchronous_commit on; no standby streaming\n", "\(status)")
        let first = try await Self.reel(["store", "migrate", "--store", url])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout == "\(shown): schema version 0 → 6\n  applied 1: the log, its head, streams, projection tables and checkpoints\n  applied 2: the streams' keys\n  applied 3: the purge pending after a key's destruction\n  applied 4: keys wrapped under a keyring kept outside the database\n  applied 5: the log's Merkle tree\n  applied 6: the write generation\n",
            "\(first.stdout)")
        let again = try await Self.reel(["store", "migrate", "--store", url])
        #expect(again.status == 0 && again.stdout == "\(shown): schema version 6, up to date; nothing to do\n", "\(again)")
        let now = try await Self.reel(["store", "status", "--store", url])
        #expect(now.status == 0 && now.stdout.hasPrefix("\(shown): schema version 6, up to date\n  127.0.0.1:"), "\(now)")
        #expect(try await Self.psql("SELECT count(*) FROM reel_migrations", database) == "6")
    }

    @Test func jsonIsValidatedAndTheURLMayComeFromTheEnvironment() async throws {
        let database = try await Self.database()
        let server = try await Self.server
        let environment = ["REEL_STORE": server.url(database: database, password: nil), "PGPASSWORD": PostgresServer.password]
        let migrated = try await Self.reel(["store", "migrate", "--json"], environment: environment)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try Harness.validate(migrated.stdout, against: "cli/store-migrate.schema.json").status == 0)
        let document = try Harness.json(migrated.stdout)
        #expect(document["from"] as? Int == 0 && document["to"] as? Int == 6 && document["current"] as? Bool == true)
        #expect((document["applied"] as? [[String: Any]])?.map { $0["version"] as? Int } == [1, 2, 3, 4, 5, 6])
        let status = try await Self.reel(["store", "status", "--json"], environment: environment)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(try Harness.validate(status.stdout, against: "cli/store-status.schema.json").status == 0)
        #expect(try Harness.json(status.stdout)["to"] as? Int == 6)
        // --store wins over REEL_STORE.
        let other = try await Self.database("other")
        let chosen = try await Self.reel(["store", "migrate", "--json", "--store", server.url(database: other)], environment: environment)
        #expect(try Harness.json(chosen.stdout)["store"] as? String == "postgres://postgres@127.0.0.1:\(server.port)/\(other)")
    }

    @Test func aNewerSchemaIsRefusedWith69AndLeftAsItIs() async throws {
        let database = try await Self.database()
        let server = try await Self.server
        let url = server.url(database: database)
        #expect(try await Self.reel(["store", "migrate", "--store", url]).status == 0)
        _ = try await Self.psql("INSERT INTO reel_migrations (version, name) VALUES (7, 'later')", database)
        let refused = try await Self.reel(["store", "migrate", "--store", url])
        #expect(refused.status == 69 && refused.stdout.isEmpty, "\(refused)")
        #expect(refused.stderr.hasPrefix("reel: the store postgres://postgres@") && refused.stderr.contains("schema version 7, newer than this Reel knows (6)"))
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        let status = try await Self.reel(["store", "status", "--store", url])
        #expect(status.status == 0 && status.stdout.contains("schema version 7, newer than this Reel knows (6); use a newer reel\n"), "\(status)")
        #expect(try await Self.psql("SELECT string_agg(version::text, ',' ORDER BY version) FROM reel_migrations", database) == "1,2,3,4,5,6,7")
    }

    @Test func mistakesAndUnreachableStoresAreOneLineWithTheirExitCodes() async throws {
        let database = try await Self.database()
        let server = try await Self.server
        let port = server.port
        let cases: [([String], [String: String], Int32, String)] = [
            (["store", "migrate"], [:], 64, "reel: no store named: give --store postgres://USER@HOST/DATABASE or set REEL_STORE"),
            (["store", "migrate", "--store", "mysql://root:\(PostgresServer.password)@h/d"], [:], 64, "reel: a store URL starts with postgres://"),
            (["store", "migrate"], ["REEL_STORE": "postgres://u:\(PostgresServer.password)@h/d?sslmode=maybe"], 64, "reel: sslmode in the store URL must be one of"),
            (["store", "migrate", "--store", "postgres://postgres:wrong-\(PostgresServer.password)@127.0.0.1:\(port)/\(database)"], [:], 77,
             "reel: the store postgres://postgres@127.0.0.1:\(port)/\(database) refused the user or password"),
            (["store", "status", "--store", "postgres://postgres@127.0.0.1:\(port)/\(database)"], [:], 77, "asks for a password and the URL gives none"),
            (["store", "migrate", "--store", server.url(database: "absent")], [:], 66, "the database does not exist (create it with createdb"),
            (["store", "migrate", "--store", "postgres://postgres:\(PostgresServer.password)@127.0.0.1:1/\(database)"], [:], 69, "cannot be reached: connection refused"),
            // A URL where ArgumentParser expects none: it quotes the argument, without the password.
            (["store", "migrate", server.url(database: database)], [:], 64, "Unexpected argument 'postgres://postgres:***@127.0.0.1"),
            (["store", server.url(database: database)], [:], 64, "postgres://postgres:***@"),
            (["store", "migrate", "--store", "postgres://postgres:?\(PostgresServer.password)@127.0.0.1:\(port)/d"], [:], 64, "must be escaped"),
        ]
        for (arguments, environment, code, words) in cases {
            let out = try await Self.reel(arguments, environment: environment)
            #expect(out.status == code && out.stdout.isEmpty, "\(arguments): \(out)")
            #expect(out.stderr.contains(words) && out.stderr.split(separator: "\n").count == 1, "\(arguments): \(out.stderr)")
            #expect(!out.stderr.contains("wrong-"), "\(out.stderr)")
        }
        #expect(try await Self.psql("SELECT to_regclass('reel_migrations') IS NULL", database) == "t", "nothing was made")
    }
}
