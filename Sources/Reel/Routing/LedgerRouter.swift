public import EventLog
public import Ledger

/// Where each account's ledger is: the boundary between the use cases and the stores. The use
/// cases ask for the ledger an account is in and get an `AccountService` over a store; which
/// store that is — the LMDB store in the data directory, one PostgreSQL store, or the shard of a
/// shard map the account's handle is placed on — and how it is opened, is decided outside the
/// core (the `Stores` module), the only code that names a store.
///
/// Each ledger is opened once per process, when first needed.
public protocol LedgerRouter: AnyObject, Sendable {
    /// Whether the configured store is a shard map rather than one store.
    var isShardMap: Bool { get }

    /// The configured store as it may be shown (a URL without its password, a shard map's path),
    /// opening nothing; `nil` for the LMDB store in the data directory.
    var storeName: String? { get }

    /// The one ledger, made when missing (not a shard map's).
    func ledger() throws -> AccountService

    /// The one ledger when there is one, else `nil`: nothing is made.
    func existingLedger() throws -> AccountService?

    /// The event log of the one existing ledger, without its projections (which opening the
    /// service brings up to date, a write): for verifying and copying it as it is.
    func existingLog() throws -> any EventStore

    /// The ledger `handle`'s account is in (its home shard with a shard map), made when missing.
    func ledger(for handle: AccountHandle) throws -> AccountService

    /// The ledger `handle`'s account is in when there is one, else `nil` (nothing is made).
    func existingLedger(for handle: AccountHandle) throws -> AccountService?

    /// Every ledger: each shard's in the map's order, else the one there is (none: nothing made).
    func everyLedger() throws -> [AccountService]

    /// With a shard map, the ledger of the shard named `name` (a not-found failure naming the
    /// map's shards when it has none of that name); `nil` when the store is not a shard map.
    func shardLedger(named name: String) throws -> AccountService?

    /// The shard map's shards' names, in its order; none when the store is not a shard map.
    func shardNames() throws -> [String]

    /// After `handle`'s account was not found as it should be on `ledger`, where the routing sent
    /// it: the ledger the routing sends it to now when that is another one, else `nil`.
    func rerouted(_ handle: AccountHandle, from ledger: AccountService) throws -> AccountService?

    /// The handles of the open accounts among `streams`, each looked for where the routing
    /// places it.
    func openHandles(of streams: Set<StreamID>) throws -> [StreamID: AccountHandle]

    /// Whether the data directory holds a ledger (or a key store, or cannot be looked into): what
    /// `reel about` says and when a watch looks for a ledger made since.
    var dataDirectoryHoldsLedger: Bool { get }

    /// Forgets that there was no ledger: another process made one since.
    func forgetMissingLedger()
}
