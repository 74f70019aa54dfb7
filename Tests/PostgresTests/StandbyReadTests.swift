import EndToEndSupport
import EventLog
import Foundation
import Ledger
import PostgresStore
import Reel
import ReelTestSupport
import Testing

/// Reads a standby may answer (a URL naming a primary and its standby): answered there when the
/// standby holds the account as the primary has it now, never older than a change acknowledged
/// before the read began, by this process or another.
@Suite(.serialized) struct StandbyReadTests {
    @Test func aStandbyThatFallsBehindIsNotReadForAnAccountWhoseLastWriteItLacks() async throws {
        let pair = try await FailoverPair.shared.value
        let database = try await pair.createDatabase("standby_reads_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
        let location = try PostgresLocation(pair.url(database: database))
        _ = try await PostgresMigrator.migrate(location)
        let primary = try #require(try await offThread { try pair.primary() })
        let standby = try #require(pair.nodes.first { $0 != primary })
        // Two processes' worth: one writes, the other reads (its cache knows nothing the other does).
        let (reader, readerLedger, writerLedger) = try await offThread {
            let keyring = temporaryDirectory("keyring")
            let reader = try PostgresEventStore.open(location, directory: temporaryDirectory("reader"), keyring: keyring)
            let writer = try PostgresEventStore.open(location, directory: temporaryDirectory("writer"), keyring: keyring)
            return (reader, try AccountService(log: reader), try AccountService(log: writer))
        }
        let ann = try AccountHandle("ann"), bob = try AccountHandle("bob")
        try await offThread {
            for handle in [ann, bob] { _ = try writerLedger.execute(.addFavorites([try MediaKey(.movie, 550)]), for: handle) }
            for handle in [ann, bob] { _ = try readerLedger.view(of: handle) }
            _ = try writerLedger.execute(.addFavorites([try MediaKey(.movie, 13)]), for: bob)
        }
        // The standby has bob's change; then it stops replaying, and ann changes.
        let lsn = try await pair.psql(primary, "SELECT pg_current_wal_lsn()")
        try await waitFor("the standby to replay bob's change") {
            (try? await pair.psql(standby, "SELECT pg_last_wal_replay_lsn() >= '\(lsn)'::pg_lsn")) == "t"
        }
        try await pair.psql(standby, "SELECT pg_wal_replay_pause()")
        do {
            let (annRead, annWritten, bobRead, bobWritten, before, after) = try await offThread {
                _ = try writerLedger.execute(.addFavorites([try MediaKey(.movie, 13)]), for: ann)
                let before = reader.standbyReads
                let annRead = try readerLedger.view(of: ann).state.version
                let bobRead = try readerLedger.view(of: bob).state.version
                let after = reader.standbyReads
                return (annRead, try writerLedger.view(of: ann).state.version, bobRead, try writerLedger.view(of: bob).state.version, before, after)
            }
            #expect(annRead == annWritten, "ann read at version \(annRead), written at \(annWritten)")
            #expect(bobRead == bobWritten, "bob read at version \(bobRead), written at \(bobWritten)")
            #expect(after.declined == before.declined + 1, "ann's read was the primary's: \(before) → \(after)")
            #expect(after.answered == before.answered + 1, "bob's read was the standby's: \(before) → \(after)")
        }
        try await pair.psql(standby, "SELECT pg_wal_replay_resume()")
    }

    /// `reel store status` says so when the primary's commits wait for no standby.
    @Test func statusSaysWhenCommitsWaitForNoStandby() async throws {
        let pair = try await FailoverPair.shared.value
        let (fixed, database) = try await LedgerHome.make(on: pair)
        let primary = try #require(try await offThread { try pair.primary() })
        let before = try await fixed.reel(["store", "status"])
        #expect(before.status == 0 && !before.stdout.contains("waits for no standby"), "\(before.stdout)")
        try await pair.psql(primary, "ALTER DATABASE \"\(database)\" SET synchronous_commit = local", database: "postgres")
        let after = try await fixed.reel(["store", "status"])
        #expect(after.status == 0 && after.stdout.contains("synchronous_commit is local on the primary: an acknowledged append waits for no standby"), "\(after.stdout)")
    }

    /// Servers are tried in order: one that does not answer and a standby are passed over for the
    /// primary; when none takes writes, one line names what each was.
    @Test func theServersAreTriedInOrderAndNoneWritableIsOneLineNamingEach() async throws {
        let pair = try await FailoverPair.shared.value
        let primary = try #require(try await offThread { try pair.primary() })
        let standby = try #require(pair.nodes.first { $0 != primary })
        var ledger = LedgerHome()
        ledger.store = "postgres://postgres@127.0.0.1:1,127.0.0.1:\(standby.port),127.0.0.1:\(primary.port)/\(pair.database)"
        let found = try await ledger.reel(["store", "status"])
        #expect(found.status == 0 && found.stdout.contains("127.0.0.1:\(primary.port): primary"), "\(found)")
        ledger.store = "postgres://postgres@127.0.0.1:1,127.0.0.1:\(standby.port)/\(pair.database)"
        let none = try await ledger.reel(["saved"], user: "ann")
        #expect(none.status == 69, "\(none)")
        #expect(
            none.stderr == "reel: no server of the store postgres://postgres@127.0.0.1:1,127.0.0.1:\(standby.port)/\(pair.database) accepts writes now: "
                + "127.0.0.1:1 cannot be reached (connection refused); 127.0.0.1:\(standby.port) is a standby\n", "\(none.stderr)")
    }
}
