@_spi(Stores) import EventLog
import EndToEndSupport
import Foundation
import Processes
import ReelTestSupport
import Testing

/// The ledger on PostgreSQL through the built binary (`--store`, `REEL_STORE`): the same commands
/// as on LMDB, with the same answers, and a deletion after which nothing that exists opens the
/// account's key (its bare bytes never enter the server's files; the keyring's generation it was
/// wrapped under is gone), on the server and on every copy made before it, while the chain still
/// verifies and the other account keeps its key.
@Suite struct PostgresLedgerTests {
    typealias Ledger = LedgerHome

    /// A server with its default settings (WAL recycled, kept as it likes): forgetting needs none.
    static let started = Task { try await PostgresServer.started("PostgresLedgerTests") }
    static var server: PostgresServer { get async throws { try await started.value } }

    /// A migrated database of its own, and a data directory whose `reel` uses it (`REEL_STORE`).
    static func ledger(_ name: String = #function) async throws -> (Ledger, environment: [String: String], database: String) {
        let server = try await server
        let database = try await server.createDatabase(
            "l_" + name.filter { $0.isLetter || $0.isNumber }.prefix(40).lowercased() + "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
        let environment = ["REEL_STORE": server.url(database: database)]
        let ledger = Ledger()
        let migrated = try await ledger.reel(["store", "migrate"], environment: environment)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        return (ledger, environment, database)
    }

    static func reel(_ ledger: Ledger, _ arguments: [String], user: String? = nil, _ environment: [String: String]) async throws -> Harness.Output {
        let out = try await ledger.reel(arguments, user: user, environment: environment)
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
        let handle = DeletionFixture.handle, name = DeletionFixture.name
        let photo = temporaryDirectory("photo") + "/me.png"
        try Data(Images.png).write(to: URL(fileURLWithPath: photo))
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
        let stream = try #require(accounts.first { $0["user"] as? String == handle }?["stream"] as? String)
        let otherStream = try #require(accounts.first { $0["user"] as? String == "ann" }?["stream"] as? String)
        let victimRow = try await Self.storedKey(of: stream, ledger, database)
        #expect(victimRow.wrapped.count == 60)
        let victim = try #require(victimRow.key)
        #expect(victim.count == 32)
        try await server.psql("CHECKPOINT")
        #expect(try await files(holding: victim, under: server.dataDirectory).isEmpty, "the bare key never enters the server's files")
        let before = try await files(holding: victimRow.wrapped, under: server.dataDirectory)
        #expect(!before.isEmpty, "the scan finds the wrapped key: \(before)")

        let deleted = try await Self.reel(ledger, ["account", "delete", "--yes"], user: handle, environment)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("deleted the account '\(handle)' for good"), "\(deleted.stdout)")
        try await server.psql("CHECKPOINT")
        for (what, bytes) in [("the key", victim), ("the name", Array(name.utf8)), ("the photo", Images.png), ("the handle", Array(handle.utf8))] {
            let left = try await files(holding: bytes, under: server.dataDirectory)
            #expect(left.isEmpty, "\(what) is still in \(left)")
        }
        #expect(try victimRow.keyring.opening(victimRow.wrapped, stream: stream) == nil, "the keyring still opens the deleted key")
        #expect(try await Self.storedKey(of: otherStream, ledger, database).key?.count == 32, "the other account keeps its key")
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

    @Test func aRotationThatCannotWriteTheKeyringIsSaidAndRunByTheNextCommandThatCan() async throws {
        let (ledger, environment, database) = try await Self.ledger()
        let server = try await Self.server
        #expect(try await Self.reel(ledger, ["fav", "add", "movie", "550"], user: "yan", environment).status == 0)
        let stream = try await Self.stream(of: "yan", ledger, environment)
        let row = try await Self.storedKey(of: stream, ledger, database)
        #expect(row.key?.count == 32)
        // A directory where the keyring's next version is written: the rotation cannot write it.
        let blocker = row.keyring.path + ".new"
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)
        let deleted = try await Self.reel(ledger, ["account", "delete", "--yes", "--json"], user: "yan", environment)
        try FileManager.default.removeItem(atPath: blocker)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try Harness.validate(deleted.stdout, against: "cli/account-delete.schema.json").status == 0)
        let report = try Harness.json(deleted.stdout)
        #expect(report["keyPurged"] as? Bool == false && (report["purgeProblem"] as? String)?.contains("keyring") == true, "\(report)")
        #expect(deleted.stderr.contains("note: the purge after the deletion did not run"), "\(deleted.stderr)")
        #expect(try await server.psql("SELECT purge_pending FROM reel_streams WHERE stream = '\(stream)'", database: database) == "t")
        #expect(try row.keyring.opening(row.wrapped, stream: stream) != nil, "no rotation ran: the old key-encryption key still opens it")
        // The next command that opens the store rotates, and says so.
        let next = try await Self.reel(ledger, ["accounts"], environment)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("note: finished forgetting 1 deleted account of postgres://") && next.stderr.contains("(the keyring was rotated)"), "\(next.stderr)")
        #expect(try await server.psql("SELECT purge_pending FROM reel_streams WHERE stream = '\(stream)'", database: database) == "f")
        #expect(try await server.psql("SELECT generation FROM reel_keyring", database: database) == "2")
        #expect(try row.keyring.opening(row.wrapped, stream: stream) == nil, "the deleted key still opens")
    }

    /// A rotation whose transaction does not commit (here: the keyring's record held by another
    /// session past the rotation's lock timeout) takes its next key-encryption key out of the file
    /// again: the file holds the store's generation alone, and the next command rotates.
    @Test func aRotationThatDoesNotCommitLeavesNoNextGenerationInTheKeyring() async throws {
        let (ledger, environment, database) = try await Self.ledger()
        #expect(try await Self.reel(ledger, ["fav", "add", "movie", "550"], user: "rot", environment).status == 0)
        let stream = try await Self.stream(of: "rot", ledger, environment)
        let row = try await Self.storedKey(of: stream, ledger, database)
        let holder = try await Self.session(database, holding: "SELECT generation FROM reel_keyring FOR UPDATE")
        let deleted = try await Self.reel(ledger, ["account", "delete", "--yes", "--json"], user: "rot", environment)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try Harness.json(deleted.stdout)["keyPurged"] as? Bool == false, "\(deleted.stdout)")
        #expect(try row.keyring.read()?.generations == [1], "the file keeps a generation the store never took")
        holder.end()
        let next = try await Self.reel(ledger, ["accounts"], environment)
        #expect(next.status == 0 && next.stderr.contains("finished forgetting 1 deleted account"), "\(next.stderr)")
        #expect(try row.keyring.read()?.generations == [2])
        #expect(try row.keyring.opening(row.wrapped, stream: stream) == nil)
    }

    @Test func aDeletionAnswersAtOnceWhileAnotherSessionHoldsASnapshot() async throws {
        let (ledger, environment, database) = try await Self.ledger()
        let server = try await Self.server
        #expect(try await Self.reel(ledger, ["settings", "name", "Held Snapshot"], user: "hal", environment).status == 0)
        #expect(try await Self.reel(ledger, ["fav", "add", "movie", "13"], user: "ann", environment).status == 0)
        let stream = try await Self.stream(of: "hal", ledger, environment)
        let row = try await Self.storedKey(of: stream, ledger, database)
        let key = try #require(row.key)
        // Another session holds a REPEATABLE READ snapshot of the key table until the test ends it
        // (before the keyring, the purge's VACUUM FULL waited for it up to the 30 s lock limit).
        let holder = try await Self.session(database, holding: "BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM reel_stream_keys")
        let started = ContinuousClock.now
        let deleted = try await Self.reel(ledger, ["account", "delete", "--yes", "--json"], user: "hal", environment)
        let took = ContinuousClock.now - started
        holder.end()
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(took < .seconds(20), "the deletion took \(took) while a snapshot was held")
        #expect(try Harness.json(deleted.stdout)["keyPurged"] as? Bool == true, "\(deleted.stdout)")
        try await server.psql("CHECKPOINT")
        #expect(try await files(holding: key, under: server.dataDirectory).isEmpty, "the bare key is in the server's files")
        #expect(try row.keyring.opening(row.wrapped, stream: stream) == nil, "the deleted key still opens")
        #expect(try await Self.json(ledger, ["saved"], user: "ann", environment, schema: "saved.schema.json")["items"] as? [[String: Any]] != nil)
    }

    /// Ten deletions and ten new accounts, each in a process of its own, at once: none waits on
    /// another for seconds (before the keyring, each deletion's VACUUM FULL queued behind the
    /// others' transactions and waited 30–61 s; two adds exited 75), and every deletion's key is
    /// purged.
    @Test func deletionsAndNewAccountsInSeparateProcessesDoNotWaitOnEachOther() async throws {
        let (ledger, environment, database) = try await Self.ledger()
        let server = try await Self.server
        for n in 0..<10 { #expect(try await Self.reel(ledger, ["fav", "add", "movie", "550"], user: "gone\(n)", environment).status == 0) }
        let results = try await withThrowingTaskGroup(of: (String, Harness.Output, Duration).self) { group in
            for n in 0..<10 {
                group.addTask {
                    let started = ContinuousClock.now
                    let out = try await Self.reel(ledger, ["account", "delete", "--yes", "--json"], user: "gone\(n)", environment)
                    return ("delete gone\(n)", out, ContinuousClock.now - started)
                }
                group.addTask {
                    let started = ContinuousClock.now
                    let out = try await Self.reel(ledger, ["fav", "add", "movie", "13"], user: "new\(n)", environment)
                    return ("add new\(n)", out, ContinuousClock.now - started)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for (what, out, took) in results {
            #expect(out.status == 0, "\(what): \(out.stderr)")
            #expect(took < .seconds(25), "\(what) took \(took)")
            if what.hasPrefix("delete") { #expect(try Harness.json(out.stdout)["keyPurged"] as? Bool == true, "\(what): \(out.stdout)") }
        }
        #expect(try await server.psql("SELECT count(*) FROM reel_streams WHERE purge_pending", database: database) == "0")
        // The ten new accounts' keys, and no other: each key row said (its stream's version and
        // whether it is closed) should there be another count.
        let keys = try await server.psql("SELECT count(*) FROM reel_stream_keys", database: database)
        let rows = keys == "10" ? "" : try await server.psql(
            """
            SELECT k.stream || ' version ' || coalesce(s.version::text, 'none') || ' closed ' || (s.closed_at IS NOT NULL)::text
            FROM reel_stream_keys k LEFT JOIN reel_streams s USING (stream) ORDER BY k.created_at
            """, database: database)
        #expect(keys == "10", "\(keys) key rows:\n\(rows)")
        let verified = try Harness.json(try await Self.reel(ledger, ["audit", "verify", "--json"], environment).stdout)
        #expect(verified["ok"] as? Bool == true, "\(verified)")
    }

    @Test func noCopyOfTheStoreMadeBeforeADeletionCanReadTheDeletedAccount() async throws {
        let (ledger, environment, database) = try await Self.ledger()
        let server = try await Self.server
        let name = "Copied Before Deletion"
        #expect(try await Self.reel(ledger, ["settings", "name", name], user: "cora", environment).status == 0)
        #expect(try await Self.reel(ledger, ["fav", "add", "movie", "550"], user: "cora", environment).status == 0)
        #expect(try await Self.reel(ledger, ["fav", "add", "movie", "13"], user: "ann", environment).status == 0)
        let stream = try await Self.stream(of: "cora", ledger, environment)
        let row = try await Self.storedKey(of: stream, ledger, database)
        #expect(row.key != nil)
        // Copies made before the deletion: a backup (started only after it) and a streaming standby.
        let backup = try await server.copy("pg-backup-before-deletion", start: false)
        defer { backup.stop() }
        let standby = try await server.copy("pg-standby", standby: true)
        defer { standby.stop() }

        let deleted = try await Self.reel(ledger, ["account", "delete", "--yes", "--json"], user: "cora", environment)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try Harness.json(deleted.stdout)["keyPurged"] as? Bool == true, "\(deleted.stdout)")
        #expect(try row.keyring.opening(row.wrapped, stream: stream) == nil, "the deleted key still opens")

        // The standby replays the deletion and the rotation; promoted, it serves the others.
        let primaryLSN = try await server.psql("SELECT pg_current_wal_lsn()")
        try await waitFor("the standby to replay the deletion", seconds: 60) {
            (try? await standby.psql("SELECT pg_last_wal_replay_lsn() >= '\(primaryLSN)'::pg_lsn")) == "t"
        }
        try await standby.promote()
        let onStandby = ["REEL_STORE": standby.url(database: database)]
        let ann = try await Self.reel(ledger, ["saved", "--json"], user: "ann", onStandby)
        #expect(ann.status == 0 && ann.stdout.contains("13"), "\(ann)")
        let cora = try await Self.reel(ledger, ["settings", "--json"], user: "cora", onStandby)
        #expect(!cora.stdout.contains(name), "the promoted standby shows the deleted name")
        // The backup made before the deletion, started after it with the same configuration: its
        // keys are wrapped under a generation that no longer exists, so none of it opens.
        try await backup.launchCopy()
        let onBackup = ["REEL_STORE": backup.url(database: database)]
        for handle in ["cora", "ann"] {
            let read = try await Self.reel(ledger, ["settings"], user: handle, onBackup)
            #expect(read.status == 65, "\(handle): \(read)")
            #expect(read.stderr.contains("holds generation 2 but the store") && read.stderr.split(separator: "\n").count == 1, "\(read.stderr)")
            #expect(!read.stdout.contains(name))
        }
        // What every copy holds of the deleted key opens under nothing that exists.
        for copy in [backup, standby] {
            try await copy.psql("CHECKPOINT")
            #expect(try await files(holding: row.key!, under: copy.dataDirectory).isEmpty, "the bare key is in a copy's files")
        }
    }

    /// A psql session of its own on `database` that has run `statements` (its transaction left
    /// open, holding what they took) and holds it until `end()`.
    final class HeldSession {
        let process: RunningChild
        /// The write end of its standard input.
        let input: Int32

        init(_ arguments: [String]) throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            // Not inherited by what other threads start meanwhile (the child gets its end by dup2).
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            defer { close(ends[0]) }
            do {
                process = RunningChild(try ChildProcess.spawn(arguments, standardInput: .descriptor(ends[0])))
            } catch {
                close(ends[1])
                throw error
            }
            input = ends[1]
        }

        func send(_ text: String) throws {
            let bytes = Array(text.utf8)
            guard bytes.withUnsafeBytes({ write(input, $0.baseAddress, $0.count) }) == bytes.count else { throw POSIXError(.EPIPE) }
        }

        private var inputOpen = true

        func end() {
            try? send("COMMIT;\n")
            closeInput()
            process.wait()
        }

        private func closeInput() {
            if inputOpen { close(input) }
            inputOpen = false
        }

        deinit {
            closeInput()
            process.signal(SIGTERM)
        }
    }

    static func session(_ database: String, holding statements: String) async throws -> HeldSession {
        let server = try await server
        let held = try HeldSession([
            "/usr/bin/env", "psql", "-h", server.directory, "-p", String(server.port), "-U", "postgres", "-d", database, "-At", "-v", "ON_ERROR_STOP=1",
        ])
        let opening = statements.hasPrefix("BEGIN") ? statements : "BEGIN; " + statements
        try held.send(opening + ";\n")
        try await waitFor("a session holding \(statements)", seconds: 30) {
            (try? await server.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND state = 'idle in transaction'")) == "1"
        }
        return held
    }

    /// The stream of the account `handle` names (`reel accounts --json`).
    static func stream(of handle: String, _ ledger: Ledger, _ environment: [String: String]) async throws -> String {
        let accounts = try await json(ledger, ["accounts"], environment, schema: "accounts.schema.json")["accounts"] as? [[String: Any]] ?? []
        return try #require(accounts.first { $0["user"] as? String == handle }?["stream"] as? String)
    }

    /// A stream's key row as the store holds it (wrapped), the keyring it is wrapped under (the
    /// tests' `REEL_KEYRING`), and what that keyring opens it to now.
    static func storedKey(of stream: String, _ ledger: Ledger, _ database: String) async throws -> (wrapped: [UInt8], key: [UInt8]?, keyring: KeyringFile) {
        let server = try await server
        let hex = try await server.psql("SELECT encode(key, 'hex') FROM reel_stream_keys WHERE stream = '\(stream)'", database: database)
        let wrapped = stride(from: 0, to: hex.count - 1, by: 2).compactMap { UInt8(hex.dropFirst($0).prefix(2), radix: 16) }
        let id = try #require(UUID(uuidString: try await server.psql("SELECT store FROM reel_keyring", database: database)))
        let keyring = KeyringFile(directory: Harness.keyring, store: id)
        return (wrapped, try keyring.opening(wrapped, stream: stream), keyring)
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
