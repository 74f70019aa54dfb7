import EventLog
import Failures
import Ledger

/// The ledgers the use cases work on, as the router opens them (`LedgerRouter`).
extension Application {
    /// Whether the configured store is a shard map (a `.json` file) rather than one store.
    public var storeIsShardMap: Bool { router.isShardMap }

    /// The shard map's shards' names, in its order; none when the store is not a shard map.
    public func shardNames() throws -> [String] { try router.shardNames() }

    /// The ledger, made when missing: for use cases that change something.
    func ledger() throws -> AccountService { try router.ledger() }

    /// The ledger when there is one, else `nil` (nothing is made): for use cases that only read
    /// and have something to say without one (browsing, dry runs).
    func existingLedger() throws -> AccountService? { try router.existingLedger() }

    /// The ledger, which must exist: for use cases that only read (no ledger is not found).
    func requiredLedger() throws -> AccountService {
        guard let ledger = try existingLedger() else { throw ReelError.noLedger(configuration.dataDirectory) }
        return ledger
    }

    /// The event log of an existing ledger, without its projections: for verifying and copying
    /// it as it is.
    func existingLog() throws -> any EventStore { try router.existingLog() }

    /// The ledger `handle`'s account is in: with a shard map, its home shard's; else the one
    /// ledger, made when missing.
    func ledger(for handle: AccountHandle) throws -> AccountService { try router.ledger(for: handle) }

    /// The ledger `handle`'s account is in when there is one, else `nil` (nothing is made).
    func existingLedger(for handle: AccountHandle) throws -> AccountService? { try router.existingLedger(for: handle) }

    /// The ledger `handle`'s account is in, which must exist.
    func requiredLedger(for handle: AccountHandle) throws -> AccountService {
        guard let ledger = try existingLedger(for: handle) else { throw ReelError.noLedger(configuration.dataDirectory) }
        return ledger
    }

    /// Every ledger: each shard's, in the map's order, with a shard map; else the one there is
    /// (none when there is none; nothing is made).
    func everyLedger() throws -> [AccountService] { try router.everyLedger() }

    /// Forgets that there was no ledger: another process made one since.
    func forgetMissingLedger() { router.forgetMissingLedger() }

    /// Whether `error` says the account is not on the ledger read (none, or deleted there).
    static func isNoAccount(_ error: any Error) -> Bool {
        switch error {
        case ReelError.noAccount, ReelError.accountDeleted: true
        default: false
        }
    }
}
