@_spi(Stores) public import EventLog
import LMDB

/// A read snapshot of the LMDB store: one LMDB read transaction of `ledger/`, lent to
/// `EventLog.read {}`. Valid only inside the closure.
public struct LedgerSnapshot: EventStoreSnapshot {
    let log: EventLog
    let transaction: Transaction

    public func head() throws -> LogHead? {
        try log.head(in: transaction)
    }

    public func read(from position: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        try log.read(from: position, maxCount: maxCount, in: transaction)
    }

    public func read(stream: StreamID, from version: UInt64, maxCount: Int) throws -> [RecordedEvent] {
        try log.read(stream: stream, from: version, maxCount: maxCount, in: transaction)
    }

    public func table(_ name: ProjectionTableName) -> any ProjectionTable {
        LMDBProjectionTable(database: log.projectionDatabase(name), transaction: transaction)
    }

    public func treeFrontier() throws -> TreeFrontier {
        try log.wrapped { try log.databases.treeFrontier(transaction) }
    }

    public func treeHashes(at indexes: [UInt64]) throws -> [TreeHash] {
        try log.wrapped { try log.databases.treeHashes(at: indexes, transaction) }
    }

    public func leafHashes(from position: UInt64, maxCount: Int) throws -> [TreeHash] {
        try log.wrapped { try log.leafHashes(from: position, maxCount: maxCount, transaction) }
    }
}
