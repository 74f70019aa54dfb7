import Foundation
import Reel

/// Opens the account service of the data directory the global options name.
enum ServiceLocation {
    /// For commands that change something: the ledger is made when missing.
    static func open(_ global: GlobalOptions) throws -> AccountService {
        try AccountService.open(at: global.resolvedDataDirectory)
    }

    /// For commands that only read: no ledger is a not-found error, nothing is created.
    static func openExisting(_ global: GlobalOptions) throws -> AccountService {
        try AccountService.openExisting(at: global.resolvedDataDirectory)
    }
}
