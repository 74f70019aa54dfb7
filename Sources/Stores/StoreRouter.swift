@_spi(Stores) import EventLog
import LMDBStore
import Failures
import Foundation
public import Ledger
import PostgresStore
@_spi(Stores) public import Reel
import Synchronization

/// The one place that opens stores and routes accounts to them (`LedgerRouter`): the LMDB store
/// in the data directory, a PostgreSQL store (`--store`, `REEL_STORE`), or the shards of a shard
/// map, each shard a store of its own whose accounts are placed by their handle
/// (`Schemas/postgres-shards.md`). Every ledger is opened once, when first needed; a long-lived
/// process follows a shard map grown under it (`StoreRouter+ShardFollowing`).
public final class StoreRouter: LedgerRouter {
    let configuration: Application.Configuration

    private struct Opened {
        /// The event log alone, for use cases that must not touch the projections (verify, backup).
        var log: (any EventStore)?
        var ledger: AccountService?
        /// The configured shard map, read once (`.some(nil)`: the store is not a shard map).
        var shardMap: ShardMap??
        /// With a shard map: each shard's ledger, by its index in the map, opened when first needed.
        var shardLedgers: [Int: AccountService] = [:]
        /// With a shard map: each opened shard's record of its place (`ShardMembership`).
        var shardRecords: [Int: ShardMembership] = [:]
        /// `true` once the ledger was looked for and there was none (nothing was made).
        var ledgerMissing = false
    }

    private let opened = Mutex(Opened())
    /// With a shard map: one lock per shard, held while that shard is opened (`shardLedger`).
    private let shardOpening = Mutex<[Int: NSLock]>([:])
    /// With a shard map: the map routing follows now, which each shard's placement reads (it
    /// changes when the map grows under a long-lived process: `followShardMap`).
    let routedShardMap = RoutedShardMap()
    /// Held while the shard map is checked against the shards' records and followed.
    let shardFollowing = NSLock()

    public init(_ configuration: Application.Configuration) {
        self.configuration = configuration
    }

    public var isShardMap: Bool { configuration.storeURL.map(ShardMap.isShardMap) ?? false }

    /// The configured PostgreSQL store as it may be shown: its URL without the password, a shard
    /// map's path, or a note that the URL does not parse (never the text itself, which may hold one).
    public var storeName: String? {
        guard let url = configuration.storeURL else { return nil }
        if ShardMap.isShardMap(url) { return url }
        return (try? storeLocation(url))?.description ?? "(a store URL that does not parse)"
    }

    // MARK: - The ledger, opened once

    public func ledger() throws -> AccountService {
        try opened.withLock { opened in try service(&opened) }
    }

    public func existingLedger() throws -> AccountService? {
        try opened.withLock { opened in
            if let ledger = opened.ledger { return ledger }
            guard try exists(&opened) else { return nil }
            return try service(&opened)
        }
    }

    public func existingLog() throws -> any EventStore {
        try opened.withLock { opened in
            if let log = opened.log { return log }
            guard try exists(&opened) else { throw ReelError.noLedger(configuration.dataDirectory) }
            let log = try openStore()
            opened.log = log
            return log
        }
    }

    public var dataDirectoryHoldsLedger: Bool { AccountService.ledgerExists(at: configuration.dataDirectory) }

    public func forgetMissingLedger() {
        opened.withLock { $0.ledgerMissing = false }
    }

    /// The store the configuration names: PostgreSQL (`--store`, `REEL_STORE`), else the LMDB
    /// store in the data directory (made when missing).
    private func openStore() throws -> any EventStore {
        guard let url = configuration.storeURL else { return try EventLog.open(at: configuration.dataDirectory, configuration: configuration.logConfiguration) }
        if ShardMap.isShardMap(url) {
            throw Failure(.usage, "this reads one store, not the shard map \(url): name one shard's URL with --store (Schemas/postgres-shards.md)")
        }
        return reportingPurges(try openPostgres(try storeLocation(url)))
    }

    /// The PostgreSQL store at `location`, with the configured keyring.
    func openPostgres(_ location: PostgresLocation, connections: Int = PostgresEventStore.defaultConnections) throws -> PostgresEventStore {
        try PostgresEventStore.open(location, directory: configuration.dataDirectory, keyring: configuration.keyringDirectory, connections: connections)
    }

    /// `url` as a PostgreSQL store's location; a URL without a password takes `PGPASSWORD` from
    /// the configuration's environment, as libpq does.
    func storeLocation(_ url: String) throws -> PostgresLocation {
        try PostgresLocation(url, environment: configuration.environment)
    }

    /// Says what `store`'s open did about deletions an earlier process left unpurged: finished
    /// them (the keyring rotated), or could not (why; the next process tries again).
    private func reportingPurges(_ store: PostgresEventStore) -> PostgresEventStore {
        let finished = store.purgesFinishedAtOpen.count
        if finished > 0 {
            configuration.notice(Notice("finished forgetting \(finished) deleted account\(finished == 1 ? "" : "s") of \(store.location) whose purge had not run (the keyring was rotated)"))
        } else if let problem = store.purgeProblem {
            configuration.notice(Notice("a deletion's purge on \(store.location) is still pending: \(problem)"))
        }
        return store
    }

    private func exists(_ opened: inout Opened) throws -> Bool {
        if opened.log != nil { return true }
        // A PostgreSQL store is there once migrated (opening it says so when it is not).
        if configuration.storeURL != nil { return true }
        let directory = configuration.dataDirectory
        // Missing before: another process may have made it since (a long-lived process, the
        // service, must see a ledger `reel fav add` made after it started). One stat, no open.
        if opened.ledgerMissing, !AccountService.ledgerExists(at: directory) { return false }
        try Application.checkDataDirectory(directory)
        opened.ledgerMissing = !AccountService.ledgerExists(at: directory)
        return !opened.ledgerMissing
    }

    /// The service over the log opened already, or over a log opened now (made when missing).
    private func service(_ opened: inout Opened) throws -> AccountService {
        if let ledger = opened.ledger { return ledger }
        let log = try opened.log ?? openStore()
        opened.log = log
        let ledger = try AccountService(log: log)
        opened.ledger = ledger
        opened.ledgerMissing = false
        return ledger
    }

    // MARK: - Ledgers by account (shards)

    public func ledger(for handle: AccountHandle) throws -> AccountService {
        guard let map = try configuredShardMap() else { return try ledger() }
        return try homeLedger(of: handle, in: map)
    }

    /// A shard of a shard map is always there (opening it says when it is not migrated).
    public func existingLedger(for handle: AccountHandle) throws -> AccountService? {
        guard let map = try configuredShardMap() else { return try existingLedger() }
        return try homeLedger(of: handle, in: map)
    }

    /// The ledger of `handle`'s home shard in `map`. While a grown map's accounts are not all
    /// moved to their new homes (the home shard's record is not `settled`), a handle with no
    /// account on its home is looked for on its home under each earlier size of the map, newest
    /// first, and found there until `reel store move` moves it (Schemas/postgres-shards.md).
    private func homeLedger(of handle: AccountHandle, in map: ShardMap) throws -> AccountService {
        let home = map.home(of: handle.value)
        let ledger = try shardLedger(home, of: map)
        guard let record = opened.withLock({ $0.shardRecords[home] }), !record.settled else { return ledger }
        if try ledger.openStream(handle) != nil { return ledger }
        var looked: Set<Int> = [home]
        for size in record.earlier.reversed() {
            let earlier = map.home(of: handle.value, among: size)
            guard looked.insert(earlier).inserted else { continue }
            let candidate = try shardLedger(earlier, of: map)
            if try candidate.openStream(handle) != nil { return candidate }
        }
        return ledger
    }

    /// Forgets the accounts' states every ledger opened keeps: their projections were rebuilt
    /// through other services over the same stores (`rebuildShards`).
    func forgetKeptStates() {
        let ledgers = opened.withLock { opened in (opened.ledger.map { [$0] } ?? []) + Array(opened.shardLedgers.values) }
        for ledger in ledgers { ledger.forgetKeptStates() }
    }

    /// Whether the shards of `map` record an earlier size (the map grew): accounts may then be on
    /// a shard their stream id's placement does not name.
    func mapHasGrown(_ map: ShardMap) throws -> Bool {
        if opened.withLock({ $0.shardRecords.isEmpty }) { _ = try shardLedger(0, of: map) }
        return opened.withLock { $0.shardRecords.values.contains { !$0.earlier.isEmpty } }
    }

    /// Forgets the shards' records read so far, so the next command reads them again (after
    /// `reel store move --all` settled them).
    func forgetShardRecords() {
        opened.withLock { $0.shardRecords = [:] }
    }

    /// With a shard map, the map followed first, if the shards' records or the file moved on
    /// (every shard's record and the file read: `/ready` and the operator's routes span every
    /// shard).
    public func everyLedger() throws -> [AccountService] {
        guard let map = try followedShardMap() else { return try existingLedger().map { [$0] } ?? [] }
        return try map.shards.indices.map { try shardLedger($0, of: map) }
    }

    public func shardLedger(named name: String) throws -> AccountService? {
        guard var map = try configuredShardMap() else { return nil }
        // A name the map held does not know may be a shard added since: the map is followed then.
        if !map.shards.contains(where: { $0.name == name }) { map = try followedShardMap() ?? map }
        guard let index = map.shards.firstIndex(where: { $0.name == name }) else {
            throw Failure(.notFound, "the shard map has no shard '\(SafeText.line(String(name.prefix(64))))' (its shards: \(map.shards.map(\.name).joined(separator: ", ")))")
        }
        return try shardLedger(index, of: map)
    }

    public func shardNames() throws -> [String] {
        try followedShardMap()?.shards.map(\.name) ?? []
    }

    /// The configured shard map, followed first if the shards' records or the file moved on (a
    /// long-lived process sees a shard added since it started); `nil` for one store.
    private func followedShardMap() throws -> ShardMap? {
        guard let map = try configuredShardMap() else { return nil }
        return try checkShardMap() ? try configuredShardMap() ?? map : map
    }

    /// With a shard map, each stream is looked for on the shard the map places it on (the others
    /// need not be reachable); after the map grew, an account made under an earlier size, or moved
    /// to its handle's home, may be on another shard, so the ones not found there are looked for
    /// on every shard.
    public func openHandles(of streams: Set<StreamID>) throws -> [StreamID: AccountHandle] {
        if let map = try configuredShardMap() {
            var handles: [StreamID: AccountHandle] = [:]
            for (index, placed) in Dictionary(grouping: streams, by: { map.shard(of: $0.rawValue) }) {
                handles.merge(try shardLedger(index, of: map).openHandles(of: Set(placed))) { first, _ in first }
            }
            let missing = streams.subtracting(handles.keys)
            if !missing.isEmpty, try mapHasGrown(map) {
                for index in map.shards.indices {
                    handles.merge(try shardLedger(index, of: map).openHandles(of: missing)) { first, _ in first }
                }
            }
            return handles
        }
        var ledgers = try everyLedger()
        if ledgers.isEmpty {
            // The streams' ledger exists, even if this process found none before (a service
            // started on an empty data directory, before the first `reel token create`).
            forgetMissingLedger()
            ledgers = try everyLedger()
        }
        var handles: [StreamID: AccountHandle] = [:]
        for ledger in ledgers { handles.merge(try ledger.openHandles(of: streams)) { first, _ in first } }
        return handles
    }

    /// The configured shard map, read.
    func shardMap() throws -> ShardMap {
        guard let path = configuration.storeURL, ShardMap.isShardMap(path) else {
            throw Failure(.usage, "no shard map named: give --store FILE.json (Schemas/postgres-shards.md)")
        }
        return try ShardMap.load(from: path, environment: configuration.environment)
    }

    /// The configured shard map, read once; `nil` when the store is not one.
    func configuredShardMap() throws -> ShardMap? {
        if let map = opened.withLock({ $0.shardMap }) { return map }
        let map = isShardMap ? try shardMap() : nil
        opened.withLock { $0.shardMap = .some(map) }
        routedShardMap.route(by: map)
        return map
    }

    /// With a shard map and at least one shard opened: the map routing follows, the shards
    /// opened (by index) and the records they held when read.
    func heldShardRouting() -> (map: ShardMap, ledgers: [Int: AccountService], records: [Int: ShardMembership])? {
        opened.withLock { opened in
            guard case let map?? = opened.shardMap, !opened.shardLedgers.isEmpty else { return nil }
            return (map, opened.shardLedgers, opened.shardRecords)
        }
    }

    /// Routes by `map` from now on, the shards' `records` as read: the map this process held grown
    /// at its end (the shards opened keep their index and store), which the records confirm
    /// (`followShardMap`). A state kept of an account that moved is not used again: its stream
    /// moved on with `account-moved-out` (`AccountStates`).
    func route(by map: ShardMap, records: [Int: ShardMembership]) {
        opened.withLock { opened in
            opened.shardMap = .some(map)
            opened.shardRecords.merge(records) { _, read in read }
        }
        routedShardMap.route(by: map)
    }

    /// The ledger of shard `index` of `map`, opened once: a store of its own whose new accounts
    /// take only the stream ids the map places on it. A shard `reel store migrate` did not record
    /// under this map, or recorded under another (a shard added, removed or reordered since), is
    /// refused (`ShardMembership`) — unless a long-lived process follows the map the shards record
    /// now (`mapFollowed`: a growth recorded since it read the map).
    ///
    /// Opened under a lock of that shard's alone. A shard that does not answer keeps the one
    /// caller opening it waiting (up to the store's time limit); others routed to it wait for that
    /// at most `shardOpeningWait`, then fail (unavailable): the service's few threads are not all
    /// parked on one shard, and the other shards, open or not, go on serving.
    func shardLedger(_ index: Int, of map: ShardMap) throws -> AccountService {
        if let ledger = opened.withLock({ $0.shardLedgers[index] }) { return ledger }
        let opening = shardOpening.withLock { locks in
            if let lock = locks[index] { return lock }
            let lock = NSLock()
            locks[index] = lock
            return lock
        }
        guard opening.lock(before: Date().addingTimeInterval(Self.shardOpeningWait)) else {
            throw Failure(
                .unavailable, "the store \(map.shards[index].location) is slow to connect (another request is still waiting for it); try again")
        }
        defer { opening.unlock() }
        if let ledger = opened.withLock({ $0.shardLedgers[index] }) { return ledger }
        let shard = map.shards[index]
        let store = reportingPurges(try openPostgres(shard.location))
        let record: ShardMembership
        do {
            record = try ShardMembership(index: index, shards: map.shards.count).confirm(in: store, store: shard.location.description, map: map.path)
        } catch let failure as Failure where failure.kind == .usage {
            // Its record says another map than the one routed by: a long-lived process follows
            // the map when the shards it opened before record it too.
            guard let followed = try mapFollowed(from: map), index < followed.shards.count, followed.shards[index].location == shard.location else {
                throw failure
            }
            record = try ShardMembership(index: index, shards: followed.shards.count).confirm(
                in: store, store: shard.location.description, map: followed.path)
        }
        // Placed by the map routed by now (a grown map followed changes it).
        let routed = routedShardMap
        let placement = StreamPlacement(
            homes: { (routed.map ?? map).home(of: $0) == index }, accepts: { (routed.map ?? map).shard(of: $0) == index })
        let ledger = try AccountService(log: store, placement: placement)
        opened.withLock {
            $0.shardLedgers[index] = ledger
            $0.shardRecords[index] = record
        }
        return ledger
    }

    /// How long a caller waits for another one opening the same shard (`shardLedger`).
    static let shardOpeningWait: TimeInterval = 2
}
