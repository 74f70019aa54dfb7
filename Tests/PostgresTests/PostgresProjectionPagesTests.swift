import EventLog
import Ledger
import PostgresStore
import ReelTestSupport
import Testing

@testable import Reel

/// The projections' pages of titles on a PostgreSQL store (a real server): many pages written in
/// one statement (`put(contentsOf:)`), pages from a removal on rewritten and the ones past the end
/// deleted, an account's every page removed by one range `DELETE` (`removeAll(prefix:)`), and a
/// rebuild that finds nothing to change.
@Suite(.serialized) struct PostgresProjectionPagesTests {
    static let started = Task { try await PostgresServer.started("PostgresProjectionPagesTests") }

    private func pageCount(_ service: AccountService) throws -> Int {
        try service.log.read { txn in
            var count = 0
            try txn.table(try service.store.liveSlot(txn).titles).forEach { _, _ in
                count += 1
                return true
            }
            return count
        }
    }

    private func titles(_ range: ClosedRange<Int64>) throws -> [MediaKey] {
        try range.map { try MediaKey($0 % 2 == 0 ? .movie : .tv, $0) }
    }

    @Test func pagesAreWrittenRewrittenAndRemovedOnPostgreSQL() async throws {
        let server = try await Self.started.value
        let location = try PostgresLocation(server.url(database: try await server.createDatabase("pages")))
        _ = try await PostgresMigrator.migrate(location)
        let directory = temporaryDirectory("postgres-pages")
        let ann = try AccountHandle("ann"), ben = try AccountHandle("ben")
        try await offThread {
            let service = try AccountService(log: try PostgresEventStore.open(location, directory: directory))
            // 1,300 titles: 20 full pages, in one statement of 20 rows.
            _ = try service.execute(.addFavorites(try titles(1...1_300)), for: ann)
            _ = try service.execute(.addFavorites(try titles(1...70)), for: ben)
            #expect(try pageCount(service) == 20 + 1)
            // A removal on page 2: pages 2… rewritten, the last one deleted (1,270 titles: 19 pages).
            _ = try service.execute(.removeFavorites(try titles(150...179)), for: ann)
            #expect(try pageCount(service) == 19 + 1)
            _ = try service.execute(.addFavorites(try titles(150...152)), for: ann)
            #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)

            // Another process (a fresh service) reads what was stored, not a cache.
            let reader = try AccountService(log: try PostgresEventStore.open(location, directory: directory))
            let stored = try reader.view(of: ann).state.saved.items.map(\.key)
            #expect(stored == (try titles(1...149) + titles(180...1_300) + titles(150...152)))

            _ = try service.execute(.deleteAccount, for: ann)
            #expect(try pageCount(service) == 1)
            #expect(try service.rebuildProjections(checkOnly: true).drift.isEmpty)
            // A rebuild writes every page again, in statements of many rows.
            _ = try service.rebuildProjections(checkOnly: false)
            #expect(try pageCount(service) == 1)
            #expect(try reader.view(of: ben).state.saved.count == 70)
        }
    }
}
