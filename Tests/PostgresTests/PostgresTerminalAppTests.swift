import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// `reel ui --store URL` in a real terminal: the app reads and writes the PostgreSQL store the
/// option names, not the LMDB store in the data directory.
@Suite struct PostgresTerminalAppTests {
    static let postgres = Task { try await PostgresServer.started("PostgresTerminalAppTests") }

    @Test func theAppUsesTheStoreItIsGiven() async throws {
        let server = try await Self.postgres.value
        let store = server.url(database: try await server.createDatabase("ui_store"))
        let tmdb = try FakeTMDbProcess()
        let environment = AppSession.environment(tmdb)
        #expect(try await Harness.reel(["store", "migrate", "--store", store], environment: environment).status == 0)
        let added = try await Harness.reel(["fav", "add", "movie", "550", "603", "--store", store], environment: environment)
        #expect(added.status == 0, "\(added.stderr)")

        let terminal = try await AppSession.start(tmdb, ["ui", "--store", "'\(store)'"], home: environment)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        try await terminal.type("4")
        let screen = try await terminal.waitFor("2 saved")
        #expect(screen.contains("The Matrix"), "\(screen)")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
        // Nothing went to the data directory's own store.
        #expect(!FileManager.default.fileExists(atPath: environment["REEL_DATA_DIR"]! + "/ledger"))
    }
}
