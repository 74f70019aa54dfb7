import EventLog
import EventStoreContract
import Foundation
import PostgresStore
import ReelTestSupport
import Testing

/// The PostgreSQL store keeps every clause of the store boundary's contract, the same clauses the
/// LMDB store keeps (`LMDBEventStoreContractTests`), each on a fresh database: of one real server,
/// and of a primary with a synchronous standby managed by pg_auto_failover, reached by a URL that
/// names both (`target_session_attrs=read-write`; reads a standby may answer among the clauses).
/// The clauses that do not await run off the concurrency pool (the store's calls block their
/// thread on the network), one at a time.
@Suite(.serialized) struct PostgresEventStoreContractTests {
    /// Where the clause's database is.
    enum Target: String, CaseIterable, CustomStringConvertible, Sendable {
        case server, pair
        var description: String { rawValue }
    }

    /// A server with its default settings: a deletion's purge (the keyring's rotation) needs none.
    static let started = Task { try await PostgresServer.started("PostgresEventStoreContractTests") }

    /// A migrated database of its own on the suite's server, or on the pair the suites share
    /// (made on the primary, streamed to the standby).
    static func migrated(_ name: String, on target: Target) async throws -> PostgresLocation {
        let database = "c_" + name.filter { $0.isLetter || $0.isNumber }.prefix(40).lowercased() + "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let url: String
        switch target {
        case .server:
            let server = try await started.value
            url = server.url(database: try await server.createDatabase(database))
        case .pair:
            let pair = try await FailoverPair.shared.value
            url = pair.url(database: try await pair.createDatabase(database))
        }
        let location = try PostgresLocation(url)
        _ = try await PostgresMigrator.migrate(location)
        return location
    }

    @Test(arguments: Target.allCases, EventStoreContract<PostgresEventStore>.Clause.allCases)
    func thePostgresStoreKeeps(on target: Target, _ clause: EventStoreContract<PostgresEventStore>.Clause) async throws {
        let location = try await Self.migrated(clause.rawValue, on: target)
        let directory = temporaryDirectory("pg-contract")
        let contract = EventStoreContract { try PostgresEventStore.open(location, directory: directory) }
        if EventStoreContract<PostgresEventStore>.isAsync(clause) {
            try await contract.check(clause)
        } else {
            try await offThread { try contract.checkBlocking(clause) }
        }
    }
}
