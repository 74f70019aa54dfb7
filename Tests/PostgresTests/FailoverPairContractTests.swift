import EventLog
import EventStoreContract
import Foundation
import PostgresStore
import ReelTestSupport
import Testing

/// The store contract against a primary with a synchronous standby managed by pg_auto_failover,
/// reached by a URL that names both (`target_session_attrs=read-write`): every clause holds as it
/// does against one server, reads a standby may answer among them (`aReadAtLeastAPositionHoldsIt`).
@Suite(.serialized) struct FailoverPairContractTests {
    /// A migrated database of its own on the pair (made on the primary, streamed to the standby).
    static func migrated(_ name: String) async throws -> PostgresLocation {
        let pair = try await FailoverPair.shared.value
        let database = try await pair.createDatabase("c_" + name.filter { $0.isLetter || $0.isNumber }.prefix(40).lowercased())
        let location = try PostgresLocation(pair.url(database: database))
        _ = try await PostgresMigrator.migrate(location)
        return location
    }

    @Test(arguments: EventStoreContract<PostgresEventStore>.Clause.allCases)
    func thePairKeeps(_ clause: EventStoreContract<PostgresEventStore>.Clause) async throws {
        let location = try await Self.migrated(clause.rawValue)
        let directory = temporaryDirectory("pair-contract")
        let contract = EventStoreContract { try PostgresEventStore.open(location, directory: directory) }
        if EventStoreContract<PostgresEventStore>.isAsync(clause) {
            try await contract.check(clause)
        } else {
            try await offThread { try contract.checkBlocking(clause) }
        }
    }
}
