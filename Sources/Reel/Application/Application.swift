import Failures
import Catalog
import EventLog
import Foundation
import Ledger
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

    /// Where each account's ledger is (the stores, opened outside the core).
    @_spi(Stores) public let router: any LedgerRouter

    /// Per ledger, made when first needed: its group committer (`submit`) and the feed of its
    /// accounts' events (`accountEvents`).
    private struct PerLedger {
        var committers: [ObjectIdentifier: CommandCommitter] = [:]
        var feeds: [ObjectIdentifier: AccountFeed] = [:]
    }

    private let perLedger = Mutex(PerLedger())
    /// The credentials and the catalog, image and OMDb clients, made when first needed.
    let catalogs: CatalogContext

    /// The application over the ledgers `router` opens and routes to (`StoreRouter` of the
    /// `Stores` module, for the stores a configuration names).
    public init(_ configuration: Configuration, router: any LedgerRouter) {
        self.configuration = configuration
        self.router = router
        catalogs = CatalogContext(configuration)
    }

    /// Closes what was opened: the catalog clients' connections.
    public func close() async {
        await catalogs.close()
    }

    /// The feed of the ledger `handle`'s account is in, started by its first listener.
    func feed(for handle: AccountHandle) throws -> AccountFeed {
        let ledger = try requiredLedger(for: handle)
        return perLedger.withLock { held in
            if let feed = held.feeds[ObjectIdentifier(ledger)] { return feed }
            let feed = AccountFeed(ledger: ledger, log: ledger.log)
            held.feeds[ObjectIdentifier(ledger)] = feed
            return feed
        }
    }

    /// The feeds listeners started.
    func startedFeeds() -> [AccountFeed] { perLedger.withLock { Array($0.feeds.values) } }

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

    /// The account's view now, kept between reads while the account's stream stays at its
    /// version, in the ledger's one cache of account state (`AccountStates`: a commit keeps the
    /// state it leaves; one made by another process is seen by the version: a long-lived process,
    /// the service, must not answer with the list as it was before a `reel fav add` from the
    /// shell).
    ///
    /// The version alone says whether the view holds: a handle leaves its stream only by an event
    /// on that stream (a deletion, a move away), so a handle now on another stream has moved its
    /// old one on. One read of the store, not the handle directory's too (on PostgreSQL a read
    /// transaction of its own: four round trips a request saved).
    func view(of handle: AccountHandle) throws -> AccountView {
        var ledger = try requiredLedger(for: handle)
        if let kept = try ledger.keptView(of: handle) { return kept }
        var generation = ledger.states.generation
        var view: AccountView
        do {
            view = try ledger.view(of: handle)
        } catch {
            // Not on the shard routed to: with a shard map, it may have moved to its home under a
            // map grown since (`rerouted`).
            guard Self.isNoAccount(error), let other = try router.rerouted(handle, from: ledger) else { throw error }
            ledger = other
            generation = other.states.generation
            view = try other.view(of: handle)
        }
        if view.state.status == .moved, let other = try router.rerouted(handle, from: ledger) {
            ledger = other
            generation = other.states.generation
            view = try other.view(of: handle)
        }
        ledger.states.keep(view, readIn: generation)
        return view
    }

    /// Runs `command` for `account` now, a batch of one through the ledger's committer
    /// (`CommandCommitter.commitAlone`): the commit keeps the account's view. The write checks the
    /// binding (`AccountService.checkBinding`).
    func record(_ command: Command, for account: BoundAccount, photo: [UInt8]? = nil, step: (DeletionStep) -> Void = { _ in }) throws
        -> CommandReport
    {
        let handle = account.handle
        if let report = try unchangedWithoutLedger(command, for: handle) { return report }
        let request = CommandRequest(command: command, account: account, key: nil, photo: photo)
        return try committer(try ledger(for: handle)).commitAlone(request, step: step)
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
        return try await committer(try ledger(for: handle)).submit(CommandRequest(command: command, account: account, key: key, photo: photo))
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

    /// The committer of `ledger`'s commands, made once per ledger. Each commit keeps the states it
    /// leaves in the ledger's cache (`AccountStates`) before any of its callers resumes, then
    /// tells the configuration's observer.
    func committer(_ ledger: AccountService) -> CommandCommitter {
        perLedger.withLock { held in
            if let committer = held.committers[ObjectIdentifier(ledger)] { return committer }
            let observer = configuration.commitObserver
            let committer = CommandCommitter(service: ledger) { figures, _ in observer(figures) }
            held.committers[ObjectIdentifier(ledger)] = committer
            return committer
        }
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

    /// The language a change's titles are named in (its report's summaries): the one the account
    /// had at its last change or read in this process is right enough (a language changed
    /// meanwhile by another process names a change's titles in the old one), so a command does
    /// not read the store before it is queued; else as `language(of:)`.
    func titleLanguage(of handle: AccountHandle) throws -> String {
        guard let known = try existingLedger(for: handle)?.states.lastKnown(handle) else { return try language(of: handle) }
        let language = known.settings.language.description
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
