import EventLog
import Foundation
import Ledger
import PostgresStore
import ReelTestSupport
import Testing

@testable import Reel
@testable import Stores

/// A change carries the account its caller was bound to (a token's stream, `BoundAccount`), and
/// the write that appends checks it in its own transaction: bound to an account deleted since,
/// it fails with nothing written, whether an account was opened again under the freed handle or
/// not, on both write paths (a transaction of its own, `AccountService.execute`; group commit,
/// `CommandCommitter`) and on both stores.
@Suite struct BoundAccountTests {
    enum Store: String, CaseIterable, CustomStringConvertible, Sendable {
        case lmdb, postgres
        var description: String { rawValue }
    }

    static let postgres = Task { try await PostgresServer.started("BoundAccountTests") }
    let ann = try! AccountHandle("ann")

    static func application(_ store: Store, _ name: String) async throws -> Application {
        var url: String?
        if store == .postgres {
            let server = try await postgres.value
            let database = try await server.createDatabase(name.lowercased() + "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
            url = server.url(database: database)
            _ = try await PostgresMigrator.migrate(try PostgresLocation(url!))
        }
        return Application(
            .init(dataDirectory: temporaryDirectory(name), store: url, offline: true, environment: ["HOME": temporaryDirectory(name + "-home")]))
    }

    static func movie(_ id: Int64) -> MediaKey { try! MediaKey(.movie, id) }

    /// Every event type in the log, in order.
    static func types(_ app: Application) throws -> [String] {
        try app.ledger().log.read(from: 1, maxCount: .max).map(\.type)
    }

    @Test(arguments: Store.allCases) func aChangeBoundToADeletedAccountReachesNoAccountOpenedAgain(_ store: Store) async throws {
        let app = try await Self.application(store, "bound-reopened")
        let old = try app.createToken(for: ann).token.account
        _ = try app.change(.rename(try ProfileName("Old")), for: old)
        _ = try app.deleteAccount(ann)
        // Another caller opens the freed handle again: another account, on another stream.
        let reopened = try app.change(.rename(try ProfileName("New")), for: ann).command.stream
        #expect(reopened != nil && reopened != old.stream)
        let before = try Self.types(app)

        // A transaction of its own (`execute`).
        #expect(throws: ReelError.accountGone("ann")) { try app.change(.addFavorites([Self.movie(550)]), for: old) }
        #expect(throws: ReelError.accountGone("ann")) { try app.change(.rename(try ProfileName("Mallory")), for: old) }
        #expect(throws: ReelError.accountGone("ann")) { try app.changePhoto(to: PhotoStoreTests.png, from: "the photo", for: old) }
        #expect(throws: ReelError.accountGone("ann")) { try app.deleteAccount(old) }
        // Group commit (`CommandCommitter`), with an idempotency key and without.
        await #expect(throws: ReelError.accountGone("ann")) { try await app.change(.addFavorites([Self.movie(603)]), for: old, requestKey: nil) }
        await #expect(throws: ReelError.accountGone("ann")) { try await app.change(.addFavorites([Self.movie(13)]), for: old, requestKey: "k-1") }
        await #expect(throws: ReelError.accountGone("ann")) { try await app.change(.deleteAccount, for: old, requestKey: nil) }

        #expect(try Self.types(app) == before, "nothing was appended")
        // Nor is the new account read for the old binding.
        #expect(throws: ReelError.accountGone("ann")) { try app.account(old) }
        await #expect(throws: ReelError.accountGone("ann")) { try await app.savedList(of: old, SavedListQuery()) }
        await #expect(throws: ReelError.accountGone("ann")) { try await app.history(of: old) }
        await #expect(throws: ReelError.accountGone("ann")) { try await app.export(old, format: .reel, details: false, generator: "tests") }
        let now = try app.account(ann)
        #expect(now.stream == reopened && now.state.status == .open)
        #expect(now.state.settings.name?.value == "New" && now.state.saved.items.isEmpty)
        // The new account's own binding works.
        let fresh = try app.bind(ann)
        #expect(fresh.stream == reopened)
        _ = try await app.change(.addFavorites([Self.movie(550)]), for: fresh, requestKey: nil)
        #expect(try app.account(ann).state.saved.items.map(\.key) == [Self.movie(550)])
        await app.close()
    }

    @Test(arguments: Store.allCases) func aChangeBoundToADeletedAccountOpensNoNewOne(_ store: Store) async throws {
        let app = try await Self.application(store, "bound-deleted")
        let old = try app.createToken(for: ann).token.account
        _ = try app.deleteAccount(ann)
        let before = try Self.types(app)
        #expect(throws: ReelError.accountGone("ann")) { try app.change(.addFavorites([Self.movie(550)]), for: old) }
        await #expect(throws: ReelError.accountGone("ann")) { try await app.change(.addFavorites([Self.movie(550)]), for: old, requestKey: nil) }
        #expect(try Self.types(app) == before, "no account was opened under the freed handle")
        #expect(try app.bind(ann).stream == nil)
        await app.close()
    }
}
