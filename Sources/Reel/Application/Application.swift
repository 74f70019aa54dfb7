import Failures
import Catalog
import EventLog
import Foundation
import Ledger
import PostgresStore
import Synchronization

/// Reel's application core: one per process, the same for every front end (the `reel` command,
/// the terminal app, the HTTP service). Its methods are the use cases — add favorites, the saved
/// list, export, delete, browse — with typed inputs and typed reports; a front end parses its
/// input, calls one of them and renders the report. Nothing here prints.
///
/// What a use case needs is loaded at most once, and only when one needs it: the ledger (opened,
/// or made by the first change), each account's view, the credentials, the catalog client. Call
/// `close()` before the process ends, so the catalog's connections shut down cleanly.
public final class Application: Sendable {
    public let configuration: Configuration

    private struct Loaded {
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
        var views: [AccountHandle: AccountView] = [:]
        /// Counts the views forgotten: a view read while one was forgotten may be older than the
        /// change that forgot it, so it is not kept (`view(of:)`).
        var viewsForgotten: UInt64 = 0
        /// Group commit of each ledger's commands (`submit`), made with its first command.
        var committers: [ObjectIdentifier: CommandCommitter] = [:]
        /// Accounts' events as they are appended, for listeners (`accountEvents`): one per ledger.
        var feeds: [ObjectIdentifier: AccountFeed] = [:]
    }

    private let loaded = Mutex(Loaded())
    /// With a shard map: one lock per shard, held while that shard is opened (`shardLedger`).
    private let shardOpening = Mutex<[Int: NSLock]>([:])
    /// The credentials and the catalog, image and OMDb clients, made when first needed.
    let catalogs: CatalogContext
    /// With a shard map: the map routing follows now, which each shard's placement reads (it
    /// changes when the map grows under a long-lived process: `followShardMap`).
    let routedShardMap = RoutedShardMap()
    /// Held while the shard map is checked against the shards' records and followed.
    let shardFollowing = NSLock()

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        catalogs = CatalogContext(configuration)
    }

    /// Closes what was opened: the catalog clients' connections.
    public func close() async {
        await catalogs.close()
    }

    /// The feed of the ledger `handle`'s account is in, started by its first listener.
    func feed(for handle: AccountHandle) throws -> AccountFeed {
        let ledger = try requiredLedger(for: handle)
        return loaded.withLock { loaded in
            if let feed = loaded.feeds[ObjectIdentifier(ledger)] { return feed }
            let feed = AccountFeed(ledger: ledger, log: ledger.log)
            loaded.feeds[ObjectIdentifier(ledger)] = feed
            return feed
        }
    }

    /// The feeds listeners started.
    func startedFeeds() -> [AccountFeed] { loaded.withLock { Array($0.feeds.values) } }

    // MARK: - The ledger, opened once

    /// The ledger, made when missing: for use cases that change something.
    func ledger() throws -> AccountService {
        try loaded.withLock { loaded in try service(&loaded) }
    }

    /// The ledger when there is one, else `nil` (nothing is made): for use cases that only read
    /// and have something to say without one (browsing, dry runs).
    func existingLedger() throws -> AccountService? {
        try loaded.withLock { loaded in
            if let ledger = loaded.ledger { return ledger }
            guard try exists(&loaded) else { return nil }
            return try service(&loaded)
        }
    }

    /// The event log of an existing ledger, without its projections (which opening the
    /// service brings up to date, a write): for verifying and copying it as it is.
    func existingLog() throws -> any EventStore {
        try loaded.withLock { loaded in
            if let log = loaded.log { return log }
            guard try exists(&loaded) else { throw ReelError.noLedger(configuration.dataDirectory) }
            let log = try openStore()
            loaded.log = log
            return log
        }
    }

    /// The store the configuration names: PostgreSQL (`--store`, `REEL_STORE`), else the LMDB
    /// store in the data directory (made when missing).
    private func openStore() throws -> any EventStore {
        guard let url = configuration.storeURL else { return try EventLog.open(at: configuration.dataDirectory, configuration: configuration.logConfiguration) }
        if ShardMap.isShardMap(url) {
            throw Failure(.usage, "this reads one store, not the shard map \(url): name one shard's URL with --store (Schemas/postgres-shards.md)")
        }
        return reportingPurges(try PostgresEventStore.open(try storeLocation(url), directory: configuration.dataDirectory, keyring: configuration.keyringDirectory))
    }

    /// Says what `store`'s open did about deletions an earlier process left unpurged: finished
    /// them (the keyring rotated), or could not (why; the next process tries again).
    func reportingPurges(_ store: PostgresEventStore) -> PostgresEventStore {
        let finished = store.purgesFinishedAtOpen.count
        if finished > 0 {
            configuration.notice(Notice("finished forgetting \(finished) deleted account\(finished == 1 ? "" : "s") of \(store.location) whose purge had not run (the keyring was rotated)"))
        } else if let problem = store.purgeProblem {
            configuration.notice(Notice("a deletion's purge on \(store.location) is still pending: \(problem)"))
        }
        return store
    }

    // MARK: - Ledgers by account (shards)

    /// The ledger `handle`'s account is in: with a shard map, its home shard's
    /// (`ShardMap.home(of:)`); else the one ledger, made when missing.
    func ledger(for handle: AccountHandle) throws -> AccountService {
        guard let map = try configuredShardMap() else { return try ledger() }
        return try homeLedger(of: handle, in: map)
    }

    /// The ledger `handle`'s account is in when there is one, else `nil` (nothing is made). A
    /// shard of a shard map is always there (opening it says when it is not migrated).
    func existingLedger(for handle: AccountHandle) throws -> AccountService? {
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
        guard let record = loaded.withLock({ $0.shardRecords[home] }), !record.settled else { return ledger }
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

    /// Whether the shards of `map` record an earlier size (the map grew): accounts may then be on
    /// a shard their stream id's placement does not name.
    func mapHasGrown(_ map: ShardMap) throws -> Bool {
        if loaded.withLock({ $0.shardRecords.isEmpty }) { _ = try shardLedger(0, of: map) }
        return loaded.withLock { $0.shardRecords.values.contains { !$0.earlier.isEmpty } }
    }

    /// Forgets the shards' records read so far, so the next command reads them again (after
    /// `reel store move --all` settled them).
    func forgetShardRecords() {
        loaded.withLock { $0.shardRecords = [:] }
    }

    /// The ledger `handle`'s account is in, which must exist.
    func requiredLedger(for handle: AccountHandle) throws -> AccountService {
        guard let ledger = try existingLedger(for: handle) else { throw ReelError.noLedger(configuration.dataDirectory) }
        return ledger
    }

    /// Every ledger: each shard's, in the map's order, with a shard map; else the one there is
    /// (none when there is none; nothing is made).
    func everyLedger() throws -> [AccountService] {
        guard var map = try configuredShardMap() else { return try existingLedger().map { [$0] } ?? [] }
        // The map followed first, if the shards' records or the file moved on (every shard's
        // record and the file read: `/ready` and the operator's routes span every shard).
        if try checkShardMap() { map = try configuredShardMap() ?? map }
        return try map.shards.indices.map { try shardLedger($0, of: map) }
    }

    /// The configured shard map, read once; `nil` when the store is not one.
    func configuredShardMap() throws -> ShardMap? {
        if let map = loaded.withLock({ $0.shardMap }) { return map }
        let map = storeIsShardMap ? try shardMap() : nil
        loaded.withLock { $0.shardMap = .some(map) }
        routedShardMap.route(by: map)
        return map
    }

    /// With a shard map and at least one shard opened: the map routing follows, the shards
    /// opened (by index) and the records they held when read.
    func heldShardRouting() -> (map: ShardMap, ledgers: [Int: AccountService], records: [Int: ShardMembership])? {
        loaded.withLock { loaded in
            guard case let map?? = loaded.shardMap, !loaded.shardLedgers.isEmpty else { return nil }
            return (map, loaded.shardLedgers, loaded.shardRecords)
        }
    }

    /// Routes by `map` from now on, the shards' `records` as read: the map this process held grown
    /// at its end (the shards opened keep their index and store), which the records confirm
    /// (`followShardMap`). Views read before are forgotten.
    func route(by map: ShardMap, records: [Int: ShardMembership]) {
        loaded.withLock { loaded in
            loaded.shardMap = .some(map)
            loaded.shardRecords.merge(records) { _, read in read }
            loaded.views = [:]
            loaded.viewsForgotten &+= 1
        }
        routedShardMap.route(by: map)
    }

    /// The ledger of shard `index` of `map`, opened once: a store of its own whose new accounts
    /// take only the stream ids the map places on it. A shard `reel store migrate` did not record
    /// under this map, or recorded under another (a shard added, removed or reordered since), is
    /// refused (`ShardMembership`) — unless a long-lived process follows the map the shards record
    /// now (`mapFollowed`: a growth recorded since it read the map).
    ///
    /// Opened under a lock of that shard's alone, not `loaded`. A shard that does not answer keeps
    /// the one caller opening it waiting (up to the store's time limit); others routed to it wait
    /// for that at most `shardOpeningWait`, then fail (unavailable): the service's few threads are
    /// not all parked on one shard, and the other shards, open or not, go on serving.
    func shardLedger(_ index: Int, of map: ShardMap) throws -> AccountService {
        if let ledger = loaded.withLock({ $0.shardLedgers[index] }) { return ledger }
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
        do {
            if let ledger = loaded.withLock({ $0.shardLedgers[index] }) { return ledger }
            let shard = map.shards[index]
            let store = reportingPurges(try PostgresEventStore.open(shard.location, directory: configuration.dataDirectory, keyring: configuration.keyringDirectory))
            let record: ShardMembership
            do {
                record = try ShardMembership(index: index, shards: map.shards.count).confirm(in: store, store: shard.location.description, map: map.path)
            } catch let failure as Failure where failure.kind == .usage {
                // Its record says another map than the one routed by: a long-lived process
                // follows the map when the shards it opened before record it too.
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
            loaded.withLock {
                $0.shardLedgers[index] = ledger
                $0.shardRecords[index] = record
            }
            return ledger
        }
    }

    /// How long a caller waits for another one opening the same shard (`shardLedger`).
    static let shardOpeningWait: TimeInterval = 2

    private func exists(_ loaded: inout Loaded) throws -> Bool {
        if loaded.log != nil { return true }
        // A PostgreSQL store is there once migrated (opening it says so when it is not).
        if configuration.storeURL != nil { return true }
        let directory = configuration.dataDirectory
        // Missing before: another process may have made it since (a long-lived process, the
        // service, must see a ledger `reel fav add` made after it started). One stat, no open.
        if loaded.ledgerMissing, !AccountService.ledgerExists(at: directory) { return false }
        try Self.checkDataDirectory(directory)
        loaded.ledgerMissing = !AccountService.ledgerExists(at: directory)
        return !loaded.ledgerMissing
    }

    /// The service over the log opened already, or over a log opened now (made when missing).
    private func service(_ loaded: inout Loaded) throws -> AccountService {
        if let ledger = loaded.ledger { return ledger }
        let log = try loaded.log ?? openStore()
        loaded.log = log
        let ledger = try AccountService(log: log)
        loaded.ledger = ledger
        loaded.ledgerMissing = false
        return ledger
    }

    /// Refuses a data directory that is a file, or lies below one: a mistake in `--data-dir`, not
    /// a data directory with no ledger yet (reading would show an empty list as if all were well).
    public static func checkDataDirectory(_ directory: String) throws {
        var path = directory
        while !path.isEmpty {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    throw Failure(.usage, "the data directory \(directory) cannot be used: \(path) is a file, not a directory")
                }
                return
            }
            guard let slash = path.lastIndex(of: "/") else { return }
            path = String(path[..<slash])
        }
    }

    /// The ledger, which must exist: for use cases that only read (no ledger is not found).
    func requiredLedger() throws -> AccountService {
        guard let ledger = try existingLedger() else { throw ReelError.noLedger(configuration.dataDirectory) }
        return ledger
    }

    /// The account's view now, kept between reads while the account's stream stays at its
    /// version (a change made through `record` or `submit` forgets it; one made by another
    /// process is seen by the version: a long-lived process, the service, must not answer with
    /// the list as it was before a `reel fav add` from the shell).
    ///
    /// The version alone says whether the view holds: a handle leaves its stream only by an event
    /// on that stream (a deletion, a move away), so a handle now on another stream has moved its
    /// old one on. One read of the store, not the handle directory's too (on PostgreSQL a read
    /// transaction of its own: four round trips a request saved).
    func view(of handle: AccountHandle) throws -> AccountView {
        let mark = viewMark
        let ledger = try requiredLedger(for: handle)
        if let kept = try keptView(of: handle, in: ledger) { return kept }
        var view: AccountView
        do {
            view = try ledger.view(of: handle)
        } catch {
            // Not on the shard routed to: with a shard map, it may have moved to its home under a
            // map grown since (`rerouted`).
            guard Self.isNoAccount(error), let other = try rerouted(handle, from: ledger) else { throw error }
            view = try other.view(of: handle)
        }
        if view.state.status == .moved, let other = try rerouted(handle, from: ledger) { view = try other.view(of: handle) }
        keep(view, readSince: mark)
        return view
    }

    /// The view of `handle` kept from an earlier read, if it still holds in `ledger` (its stream
    /// is at the view's version there); else `nil`. Not a view of an account moving away: the
    /// shard it arrives at holds the same stream at the same version.
    func keptView(of handle: AccountHandle, in ledger: AccountService) throws -> AccountView? {
        guard let cached = loaded.withLock({ $0.views[handle] }), let stream = cached.stream, cached.state.status != .moved,
            try ledger.log.version(of: stream) == cached.state.version
        else { return nil }
        return cached
    }

    /// How many times views were forgotten so far: taken before a view is read (`keep`).
    var viewMark: UInt64 { loaded.withLock { $0.viewsForgotten } }

    /// Keeps `view`, read after `mark` was taken, for the reads that follow. A change committed
    /// while it was read may be missing from it, and kept it would hide that change from every
    /// later read: so it is kept only if no view was forgotten since (else the next read reads
    /// afresh).
    func keep(_ view: AccountView, readSince mark: UInt64) {
        loaded.withLock { if $0.viewsForgotten == mark { $0.views[view.handle] = view } }
    }

    /// Runs `command` for `account` in a write transaction of its own, and forgets the account's
    /// view read before it. The write checks the binding (`AccountService.checkBinding`).
    func record(_ command: Command, for account: BoundAccount, photo: [UInt8]? = nil, step: (DeletionStep) -> Void = { _ in }) throws
        -> CommandReport
    {
        let handle = account.handle
        if let report = try unchangedWithoutLedger(command, for: handle) { return report }
        let request = CommandRequest(command: command, account: account, key: nil, photo: photo)
        let report = try ledger(for: handle).execute(request, step: step)
        forgetViews(of: [handle])
        return report
    }

    /// The same for `handle`, bound as it resolves now.
    func record(_ command: Command, for handle: AccountHandle, photo: [UInt8]? = nil, step: (DeletionStep) -> Void = { _ in }) throws
        -> CommandReport
    {
        try record(command, for: try bind(handle), photo: photo, step: step)
    }

    /// Runs `command` for `account` through group commit: in one write transaction (one fsync)
    /// with the commands other callers submit meanwhile (`CommandCommitter`), under `key` when a
    /// retry must append nothing. The account's view read before is forgotten by the commit. The
    /// write checks the binding (`AccountService.checkBinding`).
    func submit(_ command: Command, for account: BoundAccount, key: RequestKey?, photo: [UInt8]? = nil) async throws -> CommandReport {
        let handle = account.handle
        if let report = try unchangedWithoutLedger(command, for: handle) { return report }
        let ledger = try ledger(for: handle)
        let report = try await committer(ledger).submit(CommandRequest(command: command, account: account, key: key, photo: photo))
        ledger.forgetCachesIfDeleted(report)
        return report
    }

    /// `handle` as it resolves now (`BoundAccount`): bound to the stream of its open account, or
    /// to none when it names none (no ledger, no account, a deleted one). A use case given a
    /// handle binds it when it starts; a face that holds a handle across time (the terminal app)
    /// binds it once and keeps the binding.
    public func bind(_ handle: AccountHandle) throws -> BoundAccount {
        BoundAccount(handle, stream: try readerView(handle)?.stream)
    }

    /// A command that would change nothing where there is no ledger (removing what no ledger
    /// holds) makes no ledger: its report, else `nil` (the command needs the ledger).
    private func unchangedWithoutLedger(_ command: Command, for handle: AccountHandle) throws -> CommandReport? {
        guard try existingLedger(for: handle) == nil else { return nil }
        let decision = try Decider.decide(command, for: handle, state: nil)
        guard decision.events.isEmpty else { return nil }
        return CommandReport(handle: handle, stream: nil, outcomes: decision.outcomes, appended: [], state: nil)
    }

    /// The group committer of `ledger`'s commands, made once per ledger. Each commit forgets the views of
    /// the accounts it changed before any of its callers resumes, then tells the configuration's
    /// observer.
    func committer(_ ledger: AccountService) -> CommandCommitter {
        loaded.withLock { loaded in
            if let committer = loaded.committers[ObjectIdentifier(ledger)] { return committer }
            let observer = configuration.commitObserver
            // Weak: the application owns the committer, which must not keep it alive.
            let committer = CommandCommitter(service: ledger) { [weak self] figures, reports in
                self?.keepViews(of: reports)
                observer(figures)
            }
            loaded.committers[ObjectIdentifier(ledger)] = committer
            return committer
        }
    }

    /// Forgets the accounts' views read before: a change of this process or of another
    /// (`accountChanges`) made them out of date.
    func forgetViews(of handles: some Sequence<AccountHandle>) {
        loaded.withLock { loaded in
            for handle in handles { loaded.views.removeValue(forKey: handle) }
            loaded.viewsForgotten &+= 1
        }
    }

    /// Keeps the views of the accounts committed commands left (forgets those of accounts with
    /// no state left, deleted): the next read of each needs no decoding. Views read before are
    /// not kept over them (`keep`).
    func keepViews(of reports: [CommandReport]) {
        loaded.withLock { loaded in
            for report in reports {
                if let stream = report.stream, let state = report.state, state.status == .open, !report.replayed {
                    loaded.views[report.handle] = AccountView(handle: report.handle, stream: stream, state: state, asOf: nil)
                } else {
                    loaded.views.removeValue(forKey: report.handle)
                }
            }
            loaded.viewsForgotten &+= 1
        }
    }

    /// Forgets the account's view read before: another process changed it (`accountChanges`).
    func forgetView(of handle: AccountHandle) {
        forgetViews(of: [handle])
    }

    /// Forgets that there was no ledger: another process made one since.
    func forgetMissingLedger() {
        loaded.withLock { $0.ledgerMissing = false }
    }

    /// What browsing needs from the account: its language and what it saved. Without a ledger
    /// or an account it is English and nothing saved, and nothing is made.
    public func reader(_ handle: AccountHandle) throws -> AccountReader {
        let reader = try readerView(handle).map(AccountReader.init) ?? .none
        catalogs.noteSampleLanguage(reader.language)
        return reader
    }

    /// The language the account reads the catalog in: `reader(handle).language` without the
    /// index of what it saved (a command needs only this).
    func language(of handle: AccountHandle) throws -> String {
        let language = try readerView(handle)?.state.settings.language.description ?? AccountReader.none.language
        catalogs.noteSampleLanguage(language)
        return language
    }

    /// The account's view for browsing: nil without a ledger or an open account.
    private func readerView(_ handle: AccountHandle) throws -> AccountView? {
        guard try existingLedger(for: handle) != nil else { return nil }
        do {
            return try view(of: handle)
        } catch ReelError.noAccount, ReelError.accountDeleted {
            return nil
        }
    }
}
