import Foundation
import ReelTestSupport
import Testing

/// The ledger on PostgreSQL through the built binary (`--store`, `REEL_STORE`): the same commands
/// as on LMDB, with the same answers, and a deletion that leaves no byte of the account's key,
/// name, photo or handle in any file of the server's data directory (tables and WAL), while the
/// chain still verifies and the other account keeps its key.
@Suite struct PostgresLedgerTests {
    typealias Ledger = LedgerCommandTests.Ledger

    /// WAL segments are removed, not recycled, so a deletion's purge can run.
    static let started = Task { try await PostgresServer.started("PostgresLedgerTests", settings: ["wal_recycle": "off"]) }
    static var server: PostgresServer { get async throws { try await started.value } }

    /// A migrated database of its own, and a data directory whose `reel` uses it (`REEL_STORE`).
    static func ledger(_ name: String = #function) async throws -> (Ledger, environment: [String: String], database: String) {
        let server = try await server
        let database = try await server.createDatabase(
            "l_" + name.filter { $0.isLetter || $0.isNumber }.prefix(40).lowercased() + "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
        let environment = ["REEL_STORE": server.url(database: database)]
        let ledger = Ledger()
        let migrated = try await offThread { try ledger.reel(["store", "migrate"], environment: environment) }
        #expect(migrated.status == 0, "\(migrated.stderr)")
        return (ledger, environment, database)
    }

    static func reel(_ ledger: Ledger, _ arguments: [String], user: String? = nil, _ environment: [String: String]) async throws -> Harness.Output {
        let out = try await offThread { try ledger.reel(arguments, user: user, environment: environment) }
        #expect(!out.stdout.contains(PostgresServer.password) && !out.stderr.contains(PostgresServer.password), "the password was printed")
        return out
    }

    static func json(_ ledger: Ledger, _ arguments: [String], user: String? = nil, _ environment: [String: String], schema: String) async throws
        -> [String: Any]
    {
        let out = try await reel(ledger, arguments + ["--json"], user: user, environment)
        #expect(out.status == 0, "\(arguments): \(out.stderr)")
        #expect(try Harness.validate(out.stdout, against: "cli/" + schema).status == 0, "\(arguments) against \(schema)")
        return try Harness.json(out.stdout)
    }

    @Test func commandsWorkOnPostgresAndADeletionLeavesNothingInTheServersFiles() async throws {
        let (ledger, environment, database) = try await Self.ledger()
        let server = try await Self.server
        let handle = AccountDeletionTests.handle, name = AccountDeletionTests.name
        let photo = temporaryDirectory("photo") + "/me.png"
        try Data(LedgerCommandTests.png).write(to: URL(fileURLWithPath: photo))
        for (command, user) in [
            (["fav", "add", "movie", "550", "603"], handle), (["fav", "add", "tv", "1399"], handle),
            (["settings", "name", name], handle), (["settings", "photo", photo], handle),
            (["fav", "add", "movie", "13"], "ann"), (["settings", "name", "Ann Other"], "ann"),
        ] {
            let out = try await Self.reel(ledger, command, user: user, environment)
            #expect(out.status == 0, "\(command): \(out.stderr)")
        }
        let saved = try await Self.json(ledger, ["saved"], user: handle, environment, schema: "saved.schema.json")
        #expect((saved["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [550, 603, 1399])
        let settings = try await Self.json(ledger, ["settings"], user: handle, environment, schema: "settings.schema.json")
        #expect(settings["name"] as? String == name, "\(settings)")
        let verified = try Harness.json(try await Self.reel(ledger, ["audit", "verify", "--json"], environment).stdout)
        #expect(verified["ok"] as? Bool == true && verified["events"] as? Int == 9, "\(verified)")
        // Nothing of it went to the data directory: the ledger is in PostgreSQL.
        #expect(!FileManager.default.fileExists(atPath: ledger.dir + "/ledger") && !FileManager.default.fileExists(atPath: ledger.dir + "/keys"))

        let accounts = try await Self.json(ledger, ["accounts"], environment, schema: "accounts.schema.json")["accounts"] as? [[String: Any]] ?? []
        let stream = try #require(accounts.first { $0["handle"] as? String == handle }?["stream"] as? String)
        let otherStream = try #require(accounts.first { $0["handle"] as? String == "ann" }?["stream"] as? String)
        func key(_ stream: String) async throws -> [UInt8] {
            let hex = try await server.psql("SELECT encode(key, 'hex') FROM reel_stream_keys WHERE stream = '\(stream)'", database: database)
            var bytes: [UInt8] = []
            var rest = Substring(hex)
            while rest.count >= 2, let byte = UInt8(rest.prefix(2), radix: 16) { bytes.append(byte); rest = rest.dropFirst(2) }
            return bytes
        }
        let victim = try await key(stream)
        #expect(victim.count == 32)
        try await server.psql("CHECKPOINT")
        let before = try await files(holding: victim, under: server.dataDirectory)
        #expect(!before.isEmpty, "the scan finds the live key: \(before)")

        let deleted = try await Self.reel(ledger, ["account", "delete", "--yes"], user: handle, environment)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("deleted the account '\(handle)' for good"), "\(deleted.stdout)")
        try await server.psql("CHECKPOINT")
        for (what, bytes) in [("the key", victim), ("the name", Array(name.utf8)), ("the photo", LedgerCommandTests.png), ("the handle", Array(handle.utf8))] {
            let left = try await files(holding: bytes, under: server.dataDirectory)
            #expect(left.isEmpty, "\(what) is still in \(left)")
        }
        #expect(try await key(otherStream).count == 32, "the other account keeps its key")
        #expect(try await server.psql("SELECT count(*) FROM reel_streams WHERE purge_pending", database: database) == "0")
        let after = try Harness.json(try await Self.reel(ledger, ["audit", "verify", "--json"], environment).stdout)
        #expect(after["ok"] as? Bool == true && after["events"] as? Int == 10, "\(after)")
        let listed = try await Self.json(ledger, ["accounts"], environment, schema: "accounts.schema.json")["accounts"] as? [[String: Any]] ?? []
        #expect(listed.first { $0["stream"] as? String == stream }?["status"] as? String == "deleted", "\(listed)")
        let ann = try await Self.json(ledger, ["saved"], user: "ann", environment, schema: "saved.schema.json")
        #expect((ann["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [13])
        // The handle is free: a new account under it, on a new stream, with nothing of the old one.
        let added = try await Self.json(ledger, ["fav", "add", "movie", "238"], user: handle, environment, schema: "command-result.schema.json")
        #expect(added["stream"] as? String != nil && added["stream"] as? String != stream, "\(added)")
        let fresh = try await Self.json(ledger, ["saved"], user: handle, environment, schema: "saved.schema.json")
        #expect((fresh["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [238])
    }

    @Test func aPurgeTheServerRefusesIsSaidAndRunByTheNextCommandThatCan() async throws {
        let (ledger, environment, database) = try await Self.ledger()
        let server = try await Self.server
        #expect(try await Self.reel(ledger, ["fav", "add", "movie", "550"], user: "yan", environment).status == 0)
        let accounts = try await Self.json(ledger, ["accounts"], environment, schema: "accounts.schema.json")["accounts"] as? [[String: Any]] ?? []
        let stream = try #require(accounts.first { $0["handle"] as? String == "yan" }?["stream"] as? String)
        let key = try await server.psql("SELECT encode(key, 'hex') FROM reel_stream_keys WHERE stream = '\(stream)'", database: database)
        let bytes = stride(from: 0, to: key.count - 1, by: 2).compactMap { UInt8(key.dropFirst($0).prefix(2), radix: 16) }
        #expect(bytes.count == 32)
        // A replication slot keeps old WAL, where the key would live on: the purge is refused.
        try await server.psql("SELECT pg_create_physical_replication_slot('reel_test_hold', true)")
        let deleted = try await Self.reel(ledger, ["account", "delete", "--yes", "--json"], user: "yan", environment)
        try? await server.psql("SELECT pg_drop_replication_slot('reel_test_hold')")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try Harness.validate(deleted.stdout, against: "cli/account-delete.schema.json").status == 0)
        let report = try Harness.json(deleted.stdout)
        #expect(report["keyPurged"] as? Bool == false && (report["purgeProblem"] as? String)?.contains("replication slot") == true, "\(report)")
        #expect(deleted.stderr.contains("note: the purge after the deletion did not run"), "\(deleted.stderr)")
        #expect(try await server.psql("SELECT purge_pending FROM reel_streams WHERE stream = '\(stream)'", database: database) == "t")
        // The slot gone, the next command that opens the store purges.
        #expect(try await Self.reel(ledger, ["accounts"], environment).status == 0)
        #expect(try await server.psql("SELECT purge_pending FROM reel_streams WHERE stream = '\(stream)'", database: database) == "f")
        try await server.psql("CHECKPOINT")
        let left = try await files(holding: bytes, under: server.dataDirectory)
        #expect(left.isEmpty, "the key is still in \(left)")
    }

    @Test func anUnmigratedOrUnreachableStoreIsOneLineWithItsExitCode() async throws {
        let server = try await Self.server
        let database = try await server.createDatabase("l_unmigrated_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
        let ledger = Ledger()
        for (environment, status, message) in [
            (["REEL_STORE": server.url(database: database)], Int32(69), "run 'reel store migrate' first"),
            (["REEL_STORE": "postgres://postgres:\(PostgresServer.password)@127.0.0.1:1/x"], 69, "cannot be reached"),
            (["REEL_STORE": server.url(database: "nosuchdatabase")], 66, "the database does not exist"),
            (["REEL_STORE": "postgres://postgres:wrong@127.0.0.1:\(server.port)/\(database)"], 77, "refused the user or password"),
            (["REEL_STORE": "mysql://nope"], 64, "a store URL starts with postgres://"),
        ] {
            let out = try await Self.reel(ledger, ["saved"], user: "ann", environment)
            #expect(out.status == status, "\(environment): exit \(out.status), \(out.stderr)")
            #expect(out.stderr.hasPrefix("reel: ") && out.stderr.split(separator: "\n").count == 1 && out.stderr.contains(message), "\(out.stderr)")
            #expect(out.stdout.isEmpty && !out.stderr.contains("wrong"), "\(out)")
        }
        let (migrated, environment, _) = try await Self.ledger()
        let backup = try await Self.reel(migrated, ["backup", temporaryDirectory("copy") + "/c"], environment)
        #expect(backup.status == 64 && backup.stderr.contains("pg_dump"), "\(backup)")
    }
}
