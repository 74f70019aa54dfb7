@_spi(Stores) public import EventLog
import Foundation
import LMDB
import Synchronization

/// The LMDB store behind the store boundary: what `EventStore` asks of `EventLog` beyond what the
/// log does already, and the projection tables (named databases of `ledger/`).
extension EventLog: EventStore {
    public typealias Write = LedgerWrite
    public typealias Snapshot = LedgerSnapshot

    /// Whether `directory` holds an LMDB store, or a key store (which is refused when its ledger is
    /// missing), or cannot be looked into (so that opening it reports the permission problem
    /// instead of "no ledger").
    public static func exists(in directory: String) -> Bool {
        for file in ["/ledger/data.mdb", "/keys/data.mdb"] {
            var info = stat()
            if stat(directory + file, &info) == 0 || errno == EACCES { return true }
        }
        return false
    }

    /// Runs `body` in one LMDB read transaction of `ledger/`.
    public func read<T>(_ body: (LedgerSnapshot) throws -> T) throws -> T {
        // Errors of the caller's own pass through as they are; LMDB's become EventLogError.
        do {
            return try environment.read { txn in try body(LedgerSnapshot(log: self, transaction: txn)) }
        } catch let error as LMDBError {
            throw EventLogError.storage(error)
        }
    }

    public func reserveRoom(bytes: Int) throws {
        try wrapped { try environment.reserve(bytes) }
    }

    /// A named database of `ledger/` (made when missing; on a read-only ledger it must exist).
    public func projectionTable(named name: String) throws -> ProjectionTableName {
        let database: Database<[UInt8], [UInt8]> = try wrapped { try environment.database(named: name) }
        return projectionTables.withLock { tables in
            if let i = tables.firstIndex(where: { $0.name == name }) { return ProjectionTableName(name: name, storeHandle: UInt32(i)) }
            tables.append(database)
            return ProjectionTableName(name: name, storeHandle: UInt32(tables.count - 1))
        }
    }

    /// The database a projection table name of this log stands for.
    func projectionDatabase(_ name: ProjectionTableName) -> Database<[UInt8], [UInt8]> {
        projectionTables.withLock { tables in
            precondition(Int(name.storeHandle) < tables.count && tables[Int(name.storeHandle)].name == name.name, "projection table \(name) was not opened by this log")
            return tables[Int(name.storeHandle)]
        }
    }
}
