import LMDBStore
import EventLog
import Failures
import Foundation
import Ledger
import ReelTestSupport
import Synchronization
import Testing

@testable import Reel
@testable import Stores

/// Group commit of account commands (`CommandCommitter`, through `Application`'s async changes):
/// concurrent callers share write transactions, each gets its own report or error, and a failure
/// fails only its own caller.
@Suite struct GroupCommitTests {
    /// The figures of every committed transaction, as `commitObserver` is told them.
    final class Commits: Sendable {
        private let figures = Mutex<[CommitFigures]>([])
        func append(_ figure: CommitFigures) { figures.withLock { $0.append(figure) } }
        var all: [CommitFigures] { figures.withLock { $0 } }
    }

    static func application(_ name: String = #function) -> (Application, Commits) {
        let commits = Commits()
        let environment = ["HOME": temporaryDirectory(name + "-home")]
        let app = Application(.init(dataDirectory: temporaryDirectory(name), environment: environment, commitObserver: { commits.append($0) }))
        return (app, commits)
    }

    static func movie(_ id: Int64) -> MediaKey { try! MediaKey(.movie, id) }
    static func handle(_ name: String) -> AccountHandle { try! AccountHandle(name) }

    /// Runs `operations` in one batch of `committer`: the store's writer is held while a first
    /// command (`primer`) is taken into a transaction of its own, then the operations queue up
    /// behind it in the order given, and all of them are waiting when the writer is let go.
    static func inOneBatch<T: Sendable>(
        _ committer: CommandCommitter, writer log: any EventStore, primer: @escaping @Sendable () async throws -> Void,
        _ operations: [@Sendable () async throws -> T]
    ) async throws -> [Result<T, any Error>] {
        let hold = WriterHold(log)
        async let primed: Void = primer()
        try #require(await eventually { committer.load == (0, 1) })
        let results = await withTaskGroup(of: (Int, Result<T, any Error>).self) { group in
            // One after another, each queued before the next is submitted: a group's tasks start in
            // no set order, and the commands of one account are decided in the order they queue.
            var queued = true
            for (index, operation) in operations.enumerated() {
                group.addTask {
                    do { return (index, .success(try await operation())) } catch { return (index, .failure(error)) }
                }
                queued = await eventually { committer.load.queued == index + 1 } && queued
            }
            hold.end()
            var out: [(Int, Result<T, any Error>)] = []
            for await result in group { out.append(result) }
            #expect(queued, "the operations did not all queue up")
            return out.sorted { $0.0 < $1.0 }.map(\.1)
        }
        try await primed
        return results
    }

    @Test func sixtyFourConcurrentAddsOnEightAccountsShareTransactionsAndEachCallerGetsItsOwnReport() async throws {
        let (app, commits) = Self.application()
        let ledger = try app.ledger()
        let committer = app.committer(ledger)
        let handles = (0..<8).map { Self.handle("user-\($0)") }
        let key: @Sendable (Int) -> MediaKey = { Self.movie(Int64(1_000 + $0)) }
        let hold = WriterHold(ledger.log)
        let reports = try await withThrowingTaskGroup(of: (Int, ChangeReport).self) { group in
            for i in 0..<64 {
                group.addTask { (i, try await app.change(.addFavorites([key(i)]), for: handles[i % 8], requestKey: nil)) }
            }
            // The first caller's transaction waits for the writer; the others queue behind it.
            let queued = await eventually { committer.load.queued + committer.load.running == 64 }
            hold.end()
            var out: [Int: ChangeReport] = [:]
            for try await (i, report) in group { out[i] = report }
            #expect(queued)
            return out
        }

        #expect(reports.count == 64)
        for (i, report) in reports {
            #expect(report.command.handle == handles[i % 8] && report.changed && !report.replayed)
            #expect(report.command.outcomes.filter(\.changed).last == .favoriteAdded(key(i)))
            #expect(report.command.appended.last?.event == .favoriteAdded(key(i)))
        }
        // Each account opened once, by whichever of its commands came first.
        for handle in handles {
            #expect(reports.values.filter { $0.command.handle == handle && $0.command.outcomes.contains(.accountOpened(handle)) }.count == 1)
        }
        let positions = reports.values.flatMap { $0.command.appended.map(\.position) }
        #expect(positions.sorted() == Array(1...72))

        let figures = commits.all
        #expect(figures.reduce(0) { $0 + $1.commands } == 64 && figures.reduce(0) { $0 + $1.events } == 72)
        #expect(figures.count < 64, "\(figures.count) write transactions for 64 commands")
        #expect(figures.count <= 2, "the 63 commands waiting behind the first share one transaction: \(figures.map(\.commands))")
        #expect(figures.allSatisfy { $0.seconds > 0 })

        for (index, handle) in handles.enumerated() {
            let saved = try app.account(handle).state.saved.items.map(\.key)
            #expect(Set(saved) == Set(stride(from: index, to: 64, by: 8).map(key)))
        }
        #expect(try app.verifyLedger().isIntact)
        #expect(try app.rebuildProjections(checkOnly: true).drift.isEmpty)
        await app.close()
    }

    @Test func aCommandSeesTheChangesOfTheOnesBeforeItInItsBatch() async throws {
        let (app, commits) = Self.application()
        let ledger = try app.ledger()
        let ann = Self.handle("ann")
        let (x, y) = (Self.movie(550), Self.movie(603))
        let commands: [Command] = [.addFavorites([x]), .addFavorites([x, y]), .removeFavorites([x]), .addFavorites([x])]
        let results = try await Self.inOneBatch(
            app.committer(ledger), writer: ledger.log, primer: { _ = try await app.change(.removePhoto, for: Self.handle("primer"), requestKey: "p") },
            commands.map { command -> @Sendable () async throws -> ChangeReport in { try await app.change(command, for: ann, requestKey: nil) } })
        let outcomes = try results.map { try $0.get().command.outcomes }
        #expect(outcomes == [
            [.accountOpened(ann), .favoriteAdded(x)], [.alreadySaved(x), .favoriteAdded(y)], [.favoriteRemoved(x)], [.favoriteAdded(x)],
        ])
        // The primer's transaction (it changed nothing), then the four together.
        #expect(commits.all.map(\.commands) == [1, 4] && commits.all.map(\.events) == [0, 5])
        #expect(try app.account(ann).state.saved.items.map(\.key) == [y, x])
        #expect(try app.rebuildProjections(checkOnly: true).drift.isEmpty)
        await app.close()
    }

    @Test func aCommandTheDomainRefusesFailsAloneAndTheOthersInItsBatchAreCommitted() async throws {
        let (app, commits) = Self.application()
        let ledger = try app.ledger()
        let (ann, ben, cy) = (Self.handle("ann"), Self.handle("ben"), Self.handle("cy"))
        let unknownSource = Command.importFavorites([ImportedFavorite(key: Self.movie(1), addedAt: 0)], source: "nowhere")
        let operations: [@Sendable () async throws -> ChangeReport] = [
            { try await app.change(.addFavorites([Self.movie(550)]), for: ann, requestKey: nil) },
            { try await app.change(unknownSource, for: ben, requestKey: nil) },
            { try await app.change(.addFavorites([Self.movie(603)]), for: ben, requestKey: nil) },
        ]
        let results = try await Self.inOneBatch(
            app.committer(ledger), writer: ledger.log, primer: { _ = try await app.change(.addFavorites([Self.movie(9)]), for: cy, requestKey: nil) },
            operations)
        #expect(try results[0].get().changed)
        #expect(throws: DomainError.invalidImportSource("nowhere")) { try results[1].get() }
        #expect(try results[2].get().command.outcomes == [.accountOpened(ben), .favoriteAdded(Self.movie(603))])
        #expect(commits.all.map(\.commands) == [1, 3] && commits.all.map(\.events) == [2, 4])
        #expect(try app.account(ben).state.saved.items.map(\.key) == [Self.movie(603)])
        await app.close()
    }

    /// A batch committed before an account's deletion may be told after it (a pipelined group
    /// commit answers a batch once the next one has begun, and a deletion commits alone on its
    /// caller's thread): its report must not bring the deleted account's state back into the
    /// states kept in memory.
    @Test func aReportToldAfterTheAccountsDeletionKeepsNothingOfIt() throws {
        let service = try AccountService(log: try EventLog.open(at: temporaryDirectory()))
        let ann = Self.handle("ann")
        let added = try service.execute(.addFavorites([Self.movie(1)]), for: ann)
        #expect(service.states.lastKnown(ann)?.saved.items.map(\.key) == [Self.movie(1)])
        let deleted = try service.execute(.deleteAccount, for: ann)
        #expect(deleted.state?.status == .deleted && service.states.lastKnown(ann) == nil)
        // The batch before the deletion, told late.
        service.states.remember([added])
        #expect(service.states.lastKnown(ann) == nil, "the deleted account's state is kept again")
        let stream = try #require(added.stream)
        #expect(service.states.state(of: stream, atVersion: added.state?.version ?? 0) == nil)
    }

    /// A failure after a command wrote part of itself aborts its batch's transaction: each
    /// command then runs in a transaction of its own, and only the one that fails is refused.
    @Test func aFailureThatBreaksTheTransactionFailsOnlyItsOwnCommand() async throws {
        let poison = Self.movie(666)
        let store = PoisonedStore(try EventLog.open(at: temporaryDirectory()), poison: poison)
        let service = try AccountService(log: store)
        let commits = Commits()
        let changed = Mutex<[Set<AccountHandle>]>([])
        let committer = CommandCommitter(service: service) { figures, reports in
            commits.append(figures)
            changed.withLock { $0.append(Set(reports.map(\.handle))) }
        }
        let (ann, ben) = (Self.handle("ann"), Self.handle("ben"))
        @Sendable func add(_ id: Int64, _ handle: AccountHandle) -> @Sendable () async throws -> CommandReport {
            { try await committer.submit(CommandRequest(command: .addFavorites([Self.movie(id)]), handle: handle, key: nil, photo: nil)) }
        }
        let results = try await Self.inOneBatch(
            committer, writer: store, primer: { _ = try await add(1, ann)() },
            [add(2, ann), add(3, ben), add(666, ann), add(4, ann), add(5, ben)])

        #expect(throws: PoisonedStore.Poisoned()) { try results[2].get() }
        for index in [0, 1, 3, 4] { #expect(try results[index].get().appended.last?.event == .favoriteAdded(Self.movie([2, 3, 0, 4, 5][index]))) }
        // The primer's transaction, then the four good commands one by one (the aborted batch and
        // the poisoned command's own transaction committed nothing).
        #expect(commits.all.map(\.commands) == [1, 1, 1, 1, 1])
        #expect(changed.withLock { $0 } == [[ann], [ann], [ben], [ann], [ben]])
        let events = try store.read(from: 1, maxCount: .max).map { try EventDecoder.standard.decode(type: $0.type, schemaVersion: $0.schemaVersion, payload: $0.payload!) }
        #expect(!events.contains(.favoriteAdded(poison)) && events.count == 7)
        #expect(try service.view(of: ann).state.saved.items.map(\.key) == [1, 2, 4].map(Self.movie))
        #expect(try store.verify(expectedHead: nil, progress: nil).isIntact)
        #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)
    }

    /// Deleting an account and setting a photo take a transaction of their own.
    @Test func deletionsAndPhotosRunAlone() async throws {
        let (app, commits) = Self.application()
        let (ann, ben, cy) = (Self.handle("ann"), Self.handle("ben"), Self.handle("cy"))
        _ = try app.change(.addFavorites([Self.movie(1)]), for: ben)
        let ledger = try app.ledger()
        let png = PhotoStoreTests.png
        let operations: [@Sendable () async throws -> ChangeReport] = [
            { try await app.change(.addFavorites([Self.movie(3)]), for: ann, requestKey: nil) },
            { try await app.change(.addFavorites([Self.movie(4)]), for: cy, requestKey: nil) },
            { try await app.change(.deleteAccount, for: ben, requestKey: nil) },
            { try await app.change(.changePhoto(try AccountService.photoReference(for: png)), for: cy, requestKey: nil, photo: png) },
            { try await app.change(.addFavorites([Self.movie(5)]), for: cy, requestKey: nil) },
        ]
        let results = try await Self.inOneBatch(
            app.committer(ledger), writer: ledger.log, primer: { _ = try await app.change(.addFavorites([Self.movie(2)]), for: cy, requestKey: nil) },
            operations)
        for result in results { #expect(try result.get().changed) }
        // ben's first change (a batch of one, as every command of a face that runs one at a time),
        // the primer, then the five operations: the deletion and the photo each alone.
        #expect(commits.all.map(\.commands) == [1, 1, 2, 1, 1, 1])
        #expect(throws: ReelError.self) { try app.account(ben) }
        #expect(try app.photoBytes(in: app.account(cy)) == png)
        #expect(try app.verifyLedger().isIntact)
        await app.close()
    }

    /// One way through: a command a face runs one at a time (a setting, a deletion) is a batch of
    /// one through the same committer as the service's queued requests: told to the same observer,
    /// with the account's view kept from the commit (the next read decodes nothing), and a
    /// deletion's steps told as they happen.
    @Test func aCommandAloneIsABatchOfOneThroughTheSameCommitter() async throws {
        let (app, commits) = Self.application()
        let ann = Self.handle("ann")
        _ = try await app.change(.addFavorites([Self.movie(550)]), for: ann, requestKey: nil)
        #expect(commits.all.map(\.commands) == [1])
        _ = try app.change(.switchLanguage(try LanguageTag("fr")), for: ann)
        #expect(commits.all.map(\.commands) == [1, 1], "the sync path is a batch of one, told as a batch is")
        #expect(commits.all.last?.events == 1)
        let kept = try #require(try app.ledger().keptView(of: ann), "the commit kept the account's state")
        #expect(kept.state.settings.language.description == "fr")
        var steps: [DeletionStep] = []
        _ = try app.deleteAccount(ann) { steps.append($0) }
        #expect(commits.all.count == 3)
        #expect(steps.contains(.recorded), "the deletion's steps are told through the committer")
        #expect(try app.ledger().keptView(of: ann) == nil, "a deleted account's state is not kept")
        await app.close()
    }

    /// A view read before a change committed, kept after it, would hide the change from every
    /// later read: the reader that took it while the change committed does not keep it.
    @Test func aViewReadWhileAChangeCommitsIsNotKeptOverIt() async throws {
        let (app, _) = Self.application()
        let ann = Self.handle("ann")
        _ = try await app.change(.addFavorites([Self.movie(550)]), for: ann, requestKey: nil)
        // A reader reads; a change commits before the reader keeps the view: the newer state the
        // commit kept is not replaced by the older one.
        let ledger = try app.ledger()
        let stale = try ledger.view(of: ann)
        _ = try await app.change(.addFavorites([Self.movie(603)]), for: ann, requestKey: nil)
        ledger.states.keep(stale, readIn: ledger.states.generation)
        #expect(try ledger.keptView(of: ann)?.state.saved.count == 2, "the newer state the commit kept stays")
        #expect(try app.account(ann).state.saved.count == 2)
        // Even a state kept with nothing newer beside it is checked against the stream's version
        // before it is used: one behind it (here forced in) is read again, never answered.
        ledger.states.forgetAll()
        ledger.states.keep(stale, readIn: ledger.states.generation)
        #expect(try app.account(ann).state.saved.count == 2, "a kept view behind its stream's version is read again")
        await app.close()
    }

    /// A state read before the projections were rebuilt is not kept after the rebuild (it may be
    /// the drift the rebuild repaired), and the rebuild forgets what was kept.
    @Test func aStateReadBeforeARebuildIsNotKeptAfterIt() async throws {
        let (app, _) = Self.application()
        let ann = Self.handle("ann")
        _ = try await app.change(.addFavorites([Self.movie(550)]), for: ann, requestKey: nil)
        let ledger = try app.ledger()
        #expect(try ledger.keptView(of: ann) != nil, "the commit kept the state")
        let generation = ledger.states.generation
        let before = try ledger.view(of: ann)
        _ = try ledger.rebuildProjections(checkOnly: false)
        #expect(try ledger.keptView(of: ann) == nil, "the rebuild forgot the states kept")
        ledger.states.keep(before, readIn: generation)
        #expect(try ledger.keptView(of: ann) == nil, "a state read before the rebuild is not kept after it")
        _ = try app.account(ann)
        #expect(try ledger.keptView(of: ann)?.state.saved.count == 1, "one read after it is kept")
        await app.close()
    }

    @Test func aBatchTakesCommandsInOrderUpToOneThatRunsAloneAndNoMoreThanItsMaximum() {
        func request(_ command: Command) -> CommandRequest { CommandRequest(command: command, handle: Self.handle("ann"), key: nil, photo: nil) }
        let add = request(.addFavorites([Self.movie(1)]))
        let delete = request(.deleteAccount)
        let photo = request(.changePhoto(try! AccountService.photoReference(for: PhotoStoreTests.png)))
        #expect(CommandCommitter.batchSize([], maximum: 256) == 0)
        #expect(CommandCommitter.batchSize([add, add, delete, add], maximum: 256) == 2)
        #expect(CommandCommitter.batchSize([delete, add, add], maximum: 256) == 1)
        #expect(CommandCommitter.batchSize([photo, photo], maximum: 256) == 1)
        #expect(CommandCommitter.batchSize(Array(repeating: add, count: 300), maximum: 256) == 256)
    }

    /// Once an async change returns, reads show it, though the account's view was read (and
    /// kept) before.
    @Test func readsAfterAChangeReturnsSeeIt() async throws {
        let (app, _) = Self.application()
        let ann = Self.handle("ann")
        _ = try await app.change(.addFavorites([Self.movie(550)]), for: ann, requestKey: nil)
        #expect(try app.account(ann).state.saved.count == 1)
        _ = try await app.addFavorites([Self.movie(603)], for: ann, requestKey: "second")
        #expect(try app.account(ann).state.saved.count == 2)
        let list = try await app.savedList(of: ann, SavedListQuery())
        #expect(list.items.map(\.saved.key) == [Self.movie(550), Self.movie(603)])
        await app.close()
    }
}
