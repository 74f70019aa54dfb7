import EventLog
import Foundation
import Ledger
import PostgresStore
import ReelTestSupport
import Synchronization
import Testing

@testable import Reel

/// Group commit on a PostgreSQL store (a real server): a batch of many accounts' commands reads
/// each account's handle and version ahead in one statement each (`AccountService.prefetch`),
/// keeps the projection rows it reads and writes (`ProjectionOverlay`), and must still decide
/// every command on what the ones before it left, exactly as alone.
@Suite struct PostgresGroupCommitTests {
    static let started = Task { try await PostgresServer.started("PostgresGroupCommitTests") }

    static func movie(_ id: Int64) -> MediaKey { try! MediaKey(.movie, id) }

    /// A lone command without an idempotency key is one statement: its events' ids are new, so
    /// nothing is read to check them. With another writer holding the head, that statement is
    /// what waits for the lock; a keyed one waits at the lock its read is sent behind.
    @Test func aLoneCommandWithoutAKeyIsOneStatement() async throws {
        let server = try await Self.started.value
        let database = try await server.createDatabase("lone")
        let location = try PostgresLocation(server.url(database: database))
        _ = try await PostgresMigrator.migrate(location)
        let service = try await offThread {
            try AccountService(log: try PostgresEventStore.open(location, directory: temporaryDirectory("postgres-lone-command")))
        }
        let handle = try AccountHandle("lone")
        _ = try await offThread { try service.execute(.addFavorites([Self.movie(1)]), for: handle) }
        let committer = CommandCommitter(service: service) { _, _ in }
        // What waits: the last statement (its events, then its update of the head), or the lock.
        let alone = ["WITH events AS (", "UPDATE reel_head SET position"]
        let lock = ["SELECT position, recorded_at, hash, tree, generation FROM reel_head", "FOR UPDATE"]
        for (id, key, waiting) in [(Int64(2), nil, alone), (3, try RequestKey("keyed"), lock)] {
            let hold = WriterHold(service.log)
            let request = CommandRequest(command: .addFavorites([Self.movie(id)]), handle: handle, key: key, photo: nil)
            let report = Task { try await committer.submit(request) }
            let waiters = "SELECT query FROM pg_stat_activity WHERE datname = '\(database)' AND backend_type = 'client backend' AND wait_event_type = 'Lock'"
            let seen: String
            do {
                try await waitFor("the command to wait for the writer's lock") { !((try? await server.psql(waiters)) ?? "").isEmpty }
                seen = try await server.psql(waiters)
            } catch {
                hold.end()
                throw error
            }
            hold.end()
            #expect(seen.hasPrefix(waiting[0]) && seen.contains(waiting[1]), "\(key == nil ? "without" : "with") a key, waiting for the lock: \(seen.prefix(120))")
            #expect(try await report.value.outcomes.contains(.favoriteAdded(Self.movie(id))))
        }
    }

    @Test func aBatchOfManyAccountsIsDecidedAsEachCommandAlone() async throws {
        let server = try await Self.started.value
        let location = try PostgresLocation(server.url(database: try await server.createDatabase("batch")))
        _ = try await PostgresMigrator.migrate(location)
        let directory = temporaryDirectory("postgres-group-commit")
        let service = try await offThread { try AccountService(log: try PostgresEventStore.open(location, directory: directory)) }
        let handles = try (0..<8).map { try AccountHandle("user-\($0)") }
        // Two accounts exist before; six are opened by the batch.
        _ = try await offThread {
            _ = try service.execute(.addFavorites([Self.movie(1), Self.movie(2)]), for: handles[0])
            _ = try service.execute(.addFavorites([Self.movie(3)]), for: handles[1])
        }
        let commits = Mutex<[CommitFigures]>([])
        let committer = CommandCommitter(service: service) { figures, _ in commits.withLock { $0.append(figures) } }
        // Per account, in order: three adds, then a removal of the second add and of movie 1.
        // The first one carries an idempotency key: alone, it reads the log for its ids, which
        // waits for the writer's lock, so the others queue behind it. (One without a key would be
        // one statement sent at once, the next batch begun behind it:
        // `aLoneCommandWithoutAKeyIsOneStatement`.)
        var requests: [CommandRequest] = []
        for round in 0..<3 {
            for (index, handle) in handles.enumerated() {
                let key = round == 0 && index == 0 ? try RequestKey("first") : nil
                requests.append(CommandRequest(command: .addFavorites([Self.movie(Int64(100 * index + round + 10))]), handle: handle, key: key, photo: nil))
            }
        }
        for (index, handle) in handles.enumerated() {
            requests.append(CommandRequest(command: .removeFavorites([Self.movie(Int64(100 * index + 11)), Self.movie(1)]), handle: handle, key: nil, photo: nil))
        }
        requests.append(CommandRequest(command: .rename(try ProfileName("Second")), handle: handles[1], key: nil, photo: nil))

        let hold = WriterHold(service.log)
        let reports = try await withThrowingTaskGroup(of: (Int, CommandReport).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask { (index, try await committer.submit(request)) }
                // Submitted one after another: each account's commands queue in this order.
                _ = await eventually { committer.load.queued + committer.load.running == index + 1 }
            }
            hold.end()
            var out: [Int: CommandReport] = [:]
            for try await (index, report) in group { out[index] = report }
            return out
        }
        #expect(reports.count == requests.count)
        // The first command waited for the writer alone; every other one shared one transaction.
        #expect(commits.withLock { $0 }.map(\.commands) == [1, requests.count - 1], "\(commits.withLock { $0 }.map(\.commands))")
        for (index, handle) in handles.enumerated() {
            let opened = reports[index]!.outcomes.contains(.accountOpened(handle))
            #expect(opened == (index >= 2), "\(handle): \(reports[index]!.outcomes)")
            let removal = reports[3 * handles.count + index]!
            #expect(removal.outcomes.contains(.favoriteRemoved(Self.movie(Int64(100 * index + 11)))), "\(removal.outcomes)")
            #expect(removal.outcomes.contains(.favoriteRemoved(Self.movie(1))) == (index == 0), "\(removal.outcomes)")
        }

        // Another process reads what was committed.
        try await offThread {
            let reader = try AccountService(log: try PostgresEventStore.open(location, directory: directory))
            for (index, handle) in handles.enumerated() {
                let base = Int64(100 * index)
                let before: [MediaKey] = index == 0 ? [Self.movie(2)] : index == 1 ? [Self.movie(3)] : []
                let saved = try reader.view(of: handle).state.saved.items.map(\.key)
                #expect(saved == before + [Self.movie(base + 10), Self.movie(base + 12)], "\(handle): \(saved)")
            }
            #expect(try reader.view(of: handles[1]).state.settings.name?.value == "Second")
            #expect(try reader.log.verify(expectedHead: nil, progress: nil).isIntact)
            #expect(try reader.rebuildProjections(checkOnly: true).drift.isEmpty)
        }
    }
}
