import EventLog
import EventStoreContract
import Foundation
import PostgresStore
import ReelTestSupport
import Testing

/// The PostgreSQL store keeps every clause of the store boundary's contract, the same clauses the
/// LMDB store keeps (`LMDBEventStoreContractTests`), each on a fresh database of a real server.
/// The clauses that do not await run off the concurrency pool (the store's calls block their
/// thread on the network), one at a time.
@Suite(.serialized) struct PostgresEventStoreContractTests {
    /// A server with its default settings: a deletion's purge (the keyring's rotation) needs none.
    static let started = Task { try await PostgresServer.started("PostgresEventStoreContractTests") }

    /// A migrated database of its own on the suite's server.
    static func migrated(_ name: String) async throws -> PostgresLocation {
        let server = try await started.value
        let database = "c_" + name.filter { $0.isLetter || $0.isNumber }.prefix(40).lowercased() + "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        try await server.createDatabase(database)
        let location = try PostgresLocation(server.url(database: database))
        _ = try await PostgresMigrator.migrate(location)
        return location
    }

    @Test(arguments: EventStoreContract<PostgresEventStore>.Clause.allCases)
    func thePostgresStoreKeeps(_ clause: EventStoreContract<PostgresEventStore>.Clause) async throws {
        let location = try await Self.migrated(clause.rawValue)
        let directory = temporaryDirectory("pg-contract")
        let contract = EventStoreContract { try PostgresEventStore.open(location, directory: directory) }
        if EventStoreContract<PostgresEventStore>.isAsync(clause) {
            try await contract.check(clause)
        } else {
            try await offThread { try contract.checkBlocking(clause) }
        }
    }
}
