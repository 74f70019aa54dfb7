import Failures
import Foundation
import PostgresStore
import ReelTestSupport
import Testing

/// The streams' keys on a real PostgreSQL, and the purge that crypto-shredding rests on: a key
/// destroyed and purged is in no file of the server's data directory (tables, WAL, anything),
/// while a live key is found by the same scan and the other keys survive; a server that keeps
/// old WAL is refused before anything is purged.
@Suite struct PostgresKeyStoreTests {
    static let started = Task { try await PostgresServer.started("PostgresKeyStoreTests", settings: ["wal_recycle": "off"]) }

    static func migrated(_ server: PostgresServer, _ name: String = #function) async throws -> PostgresLocation {
        let database = "k_" + name.filter { $0.isLetter || $0.isNumber }.prefix(40).lowercased() + "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        try await server.createDatabase(database)
        let location = try PostgresLocation(server.url(database: database))
        _ = try await PostgresMigrator.migrate(location)
        return location
    }

    @Test func aDestroyedKeyIsInNoFileOfTheServerOnceItIsPurged() async throws {
        let server = try await Self.started.value
        let keys = PostgresKeyStore(try await Self.migrated(server))
        for n in 0..<50 { _ = try await keys.makeKey(for: "stream-\(n)", at: 0) }
        let victim = try await keys.makeKey(for: "victim", at: 0)
        #expect(victim.count == 32)
        #expect(try await keys.makeKey(for: "victim", at: 1) == victim, "a stream's key is made once")
        #expect(try await keys.key(of: "victim") == victim)
        try await server.psql("CHECKPOINT")
        let live = try await files(holding: victim, under: server.dataDirectory)
        #expect(live.contains { $0.hasPrefix("base/") } && live.contains { $0.hasPrefix("pg_wal/") }, "the scan finds a live key: \(live)")

        #expect(try await keys.destroyKey(of: "victim"))
        #expect(try await keys.key(of: "victim") == nil)
        try await server.psql("CHECKPOINT")
        #expect(try await !files(holding: victim, under: server.dataDirectory).isEmpty, "a DELETE alone leaves the key in the files")

        let report = try await keys.purge()
        #expect(report.walRounds >= 1)
        let left = try await files(holding: victim, under: server.dataDirectory)
        #expect(left.isEmpty, "the purged key is still in \(left)")
        #expect(try await keys.key(of: "stream-7") != nil, "the other keys survive the purge")
        #expect(try await !keys.destroyKey(of: "victim"), "destroyed once")
    }

    /// A server with the default settings (it recycles WAL segments), started with the suite's.
    static let recycling = Task { try await PostgresServer.started("PostgresKeyStoreTestsRecycling") }

    @Test func aServerThatKeepsOldWALIsRefusedWithNothingPurged() async throws {
        let server = try await Self.recycling.value
        let keys = PostgresKeyStore(try await Self.migrated(server))
        let key = try await keys.makeKey(for: "ann", at: 0)
        #expect(try await keys.destroyKey(of: "ann"))
        do {
            _ = try await keys.purge()
            Issue.record("a server recycling its WAL was purged")
        } catch let failure as Failure {
            #expect(failure.kind == .unavailable, "\(failure)")
            #expect(failure.summary.contains("it needs wal_recycle = off (it is on)") && failure.summary.hasSuffix("nothing was purged"), "\(failure.summary)")
        }
        try await server.psql("CHECKPOINT")
        #expect(try await !files(holding: key, under: server.dataDirectory).isEmpty)
    }
}
