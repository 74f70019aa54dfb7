import EventLog
import Foundation
import Reel

/// Opens the ledger of a data directory, refusing to invent one where a command only reads.
enum LedgerLocation {
    /// The event log alone (audit, backup): no ledger is a not-found error, nothing is created.
    static func openExisting(_ directory: String) throws -> EventLog {
        guard AccountService.ledgerExists(at: directory) else { throw ReelError.noLedger(directory) }
        return try EventLog.open(at: directory)
    }

    /// For commands that change something: the ledger is made when missing.
    static func service(_ global: GlobalOptions) throws -> AccountService {
        try AccountService.open(at: global.resolvedDataDirectory)
    }

    /// For dry runs: the ledger when there is one, else `nil` (nothing is created).
    static func existingServiceIfAny(_ global: GlobalOptions) throws -> AccountService? {
        AccountService.ledgerExists(at: global.resolvedDataDirectory) ? try AccountService.open(at: global.resolvedDataDirectory) : nil
    }

    /// For commands that only read: no ledger is a not-found error, nothing is created.
    static func existingService(_ global: GlobalOptions) throws -> AccountService {
        try AccountService.openExisting(at: global.resolvedDataDirectory)
    }
}
