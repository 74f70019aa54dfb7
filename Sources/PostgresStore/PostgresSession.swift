import Failures
import Logging
import NIOPosix
import PostgresNIO

/// One connection to a PostgreSQL store, for as long as a body runs: what a command needs (a
/// long-lived process will pool them). Errors come out as Reel's failures (`PostgresFailure`).
enum PostgresSession {
    /// Logs of PostgresNIO itself are not Reel's output: they go nowhere.
    static let quiet = Logger(label: "reel.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    static func with<T: Sendable>(_ location: PostgresLocation, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(), configuration: try location.configuration(), id: 1, logger: quiet)
        } catch {
            throw PostgresFailure.kinded(error, location)
        }
        do {
            let result = try await body(connection)
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw PostgresFailure.kinded(error, location)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    static func transaction<T: Sendable>(_ connection: PostgresConnection, _ body: () async throws -> T) async throws -> T {
        try await connection.query("BEGIN", logger: quiet)
        do {
            let result = try await body()
            try await connection.query("COMMIT", logger: quiet)
            return result
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: quiet)
            throw error
        }
    }
}
