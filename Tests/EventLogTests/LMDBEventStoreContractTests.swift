import LMDBStore
import EventLog
import EventStoreContract
import ReelTestSupport
import Testing

/// The LMDB store (`EventLog`) keeps every clause of the store boundary's contract.
@Suite struct LMDBEventStoreContractTests {
    static let contract = EventStoreContract { try EventLog.open(at: temporaryDirectory("contract")) }

    @Test(arguments: EventStoreContract<EventLog>.Clause.allCases)
    func theLMDBStoreKeeps(_ clause: EventStoreContract<EventLog>.Clause) async throws {
        try await Self.contract.check(clause)
    }
}
