import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// A PostgreSQL ledger changed behind Reel's back, with SQL, the way someone with the database's
/// password would: `reel audit verify --store` and the independent verifier
/// (`Tools/verify_ledger.py` reading the tables with psql) both name the rule and the position.
@Suite struct PostgresTamperingTests {
    static let started = Task { try await PostgresServer.started("PostgresTamperingTests") }

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let sql: String
        let rule: String
        let position: Int?
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "changed ciphertext byte",
            sql: "UPDATE reel_events SET envelope = set_byte(envelope, length(envelope) - 40, get_byte(envelope, length(envelope) - 40) # 1) WHERE position = 10",
            rule: "hash-mismatch", position: 10),
        Case(
            name: "changed hash byte",
            sql: "UPDATE reel_events SET envelope = set_byte(envelope, length(envelope) - 1, get_byte(envelope, length(envelope) - 1) # 1) WHERE position = 12",
            rule: "hash-mismatch", position: 12),
        Case(name: "deleted event", sql: "DELETE FROM reel_events WHERE position = 10", rule: "gap", position: 10),
        Case(
            name: "swapped envelopes",
            sql: """
                UPDATE reel_events e SET envelope = o.envelope FROM reel_events o
                WHERE (e.position, o.position) IN ((5, 9), (9, 5))
                """,
            rule: "position-mismatch", position: 5),
        Case(name: "events cut from the end", sql: "DELETE FROM reel_events WHERE position > 27", rule: "head-mismatch", position: nil),
        Case(name: "a column that disagrees with its envelope", sql: "UPDATE reel_events SET recorded_at = 0 WHERE position = 10", rule: "index-mismatch", position: 10),
        Case(name: "a stream closed without its closing event", sql: "UPDATE reel_streams SET closed_at = 1", rule: "closed-streams", position: 30),
        Case(name: "a stream's version changed", sql: "UPDATE reel_streams SET version = 29", rule: "index-mismatch", position: 30),
        Case(name: "the head moved back", sql: "UPDATE reel_head SET position = 29", rule: "head-mismatch", position: 30),
        Case(
            name: "two problems: the earlier one is named",
            sql: """
                UPDATE reel_events SET envelope = set_byte(envelope, length(envelope) - 40, get_byte(envelope, length(envelope) - 40) # 1) WHERE position = 3;
                UPDATE reel_events SET type = 'x' WHERE position = 6
                """,
            rule: "hash-mismatch", position: 3),
        Case(
            name: "a stream closed at another time than its closing event",
            sql: "UPDATE reel_streams SET closed_at = 5", rule: "closed-streams", position: 30),
    ]

    @Test(arguments: cases)
    func tamperingIsCaught(_ tamper: Case) async throws {
        let server = try await Self.started.value
        let database = try await server.createDatabase("t_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
        let store = server.url(database: database)
        let directory = temporaryDirectory("tamper")
        let migrated = try await Harness.reel(["store", "migrate", "--store", store])
        #expect(migrated.status == 0)
        let worker = try await Harness.run(
            Harness.binaries + "/reel-bench", ["worker", "--store", store, "--data-dir", directory, "--stream", "ann", "--count", "30", "--concurrency", "1"])
        #expect(worker.status == 0, "\(worker.stderr)")
        let intact = try await Harness.python("verify_ledger.py", [store, "--json"])
        #expect(try intact.status == 0 && Harness.json(intact.stdout)["events"] as? Int == 30, "\(intact)")

        try await server.psql(tamper.sql, database: database)
        let swift = try await Harness.reel(["audit", "verify", "--json", "--store", store, "--data-dir", directory])
        let python = try await Harness.python("verify_ledger.py", [store, "--json"])
        #expect(swift.status == 65, "\(swift.stdout)\(swift.stderr)")
        #expect(python.status == 1, "\(python.stdout)\(python.stderr)")
        for output in [swift, python] {
            let problem = try Harness.json(output.stdout)["problem"] as? [String: Any]
            #expect(problem?["rule"] as? String == tamper.rule, "\(output.stdout)")
            if let position = tamper.position {
                #expect(problem?["position"] as? Int == position, "\(output.stdout)")
                if position < 30 {  // a problem of one event, not of the tables at the end
                    #expect(try Harness.json(output.stdout)["events"] as? Int == position - 1, "the events before the problem are intact: \(output.stdout)")
                }
            }
            #expect(!output.stdout.contains(PostgresServer.password) && !output.stderr.contains(PostgresServer.password))
        }
    }

    @Test func theIndependentVerifierSaysOneLineForAStoreItCannotRead() async throws {
        let server = try await Self.started.value
        let wrong = try await Harness.python("verify_ledger.py", ["postgres://postgres:not-the-password@127.0.0.1:\(server.port)/postgres"])
        #expect(wrong.status == 2 && wrong.stdout.isEmpty, "\(wrong)")
        #expect(wrong.stderr.hasPrefix("cannot read the store postgres://postgres:***@") && !wrong.stderr.contains("not-the-password"), "\(wrong.stderr)")
        #expect(wrong.stderr.split(separator: "\n").count == 1, "\(wrong.stderr)")
        // A password with an unescaped '/' or '@' is still not printed.
        for password in ["se/cret", "se@cr/et"] {
            let odd = try await Harness.python("verify_ledger.py", ["postgres://postgres:\(password)@127.0.0.1:\(server.port)/postgres"])
            #expect(odd.status == 2 && !odd.stderr.contains(password) && !odd.stderr.contains("cr/et") && !odd.stderr.contains("se/"), "\(odd.stderr)")
        }
        let empty = try await Harness.python("verify_ledger.py", [server.url(database: "postgres")])
        #expect(empty.status == 2 && empty.stderr.contains("reel_head"), "a database without Reel's tables: \(empty)")
    }
}
