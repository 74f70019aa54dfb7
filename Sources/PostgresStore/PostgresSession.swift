import Failures
import Logging
import NIOPosix
import PostgresNIO
import Synchronization

/// One connection to a PostgreSQL store, for as long as a body runs: what a command needs (a
/// long-lived process will pool them). Errors come out as Reel's failures (`PostgresFailure`).
///
/// Nothing waits without end: the server is told to give up on a statement after
/// `statementTimeout` and on a lock after `lockTimeout` (another migration holding its lock), and
/// a server that stops answering altogether is left after `limit`, its connection closed (which
/// rolls back a transaction not committed). Reel's tables are looked for and made in schema
/// `public`, whatever the user's `search_path` says, so every user of a database sees one ledger.
enum PostgresSession {
    /// Logs of PostgresNIO itself are not Reel's output: they go nowhere.
    static let quiet = Logger(label: "reel.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    static let statementTimeout = "30s"
    static let lockTimeout = "30s"
    static let limit = Duration.seconds(60)

    /// Reel's settings for every session, sent in the startup message (no round trip of their own).
    static let startupSettings = [("search_path", "public"), ("statement_timeout", statementTimeout), ("lock_timeout", lockTimeout)]

    private struct NoAnswer: Error {}

    /// A continuation resumed by the first of several racers; `resume` says whether it was that one.
    private final class Once<T: Sendable>: Sendable {
        private let continuation: Mutex<CheckedContinuation<T, any Error>?>
        init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }
        @discardableResult
        func resume(with result: Result<T, any Error>) -> Bool {
            guard let continuation = continuation.withLock({ held in defer { held = nil }; return held }) else { return false }
            continuation.resume(with: result)
            return true
        }
    }

    static func with<T: Sendable>(
        _ location: PostgresLocation, within limit: Duration = limit, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let connection: PostgresConnection
        do {
            // Connecting is bounded as well: a connection attempt that never completes (seen once
            // under a loaded test run, nothing listening answered) fails after the limit.
            connection = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresConnection, any Error>) in
                // Not a task group: one would wait, at its end, for a connect that never returns.
                let outcome = Once(continuation)
                let attempt = Task {
                    do {
                        let connection = try await PostgresConnector.connect(location, id: 1, on: MultiThreadedEventLoopGroup.singleton.next()).get()
                        if !outcome.resume(with: .success(connection)) { try? await connection.close() }
                    } catch {
                        outcome.resume(with: .failure(error))
                    }
                }
                Task {
                    try? await Task.sleep(for: limit)
                    if outcome.resume(with: .failure(NoAnswer())) { attempt.cancel() }
                }
            }
        } catch is NoAnswer {
            throw Failure(.unavailable, "the store \(location) did not answer within \(limit.components.seconds) s")
        } catch {
            throw PostgresFailure.kinded(error, location)
        }
        do {
            let result = try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    return try await body(connection)
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return nil
                }
                let first = try await group.next() ?? nil
                guard let first else {
                    // Closing ends the query the body waits for, so the group can finish.
                    try? await connection.close()
                    throw NoAnswer()
                }
                group.cancelAll()
                return first
            }
            try? await connection.close()
            return result
        } catch is NoAnswer {
            throw Failure(
                .unavailable,
                "the store \(location) did not answer within \(limit.components.seconds) s (what was not committed is rolled back; see 'reel store status')")
        } catch {
            try? await connection.close()
            throw PostgresFailure.kinded(error, location)
        }
    }

    /// Runs `query` and reads its rows to the end, so an error the server sends with them (a
    /// lock or statement time limit) is this statement's, not the next one's.
    static func execute(_ connection: PostgresConnection, _ query: PostgresQuery) async throws {
        let rows = try await connection.query(query, logger: quiet)
        for try await _ in rows {}
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    static func transaction<T: Sendable>(_ connection: PostgresConnection, _ body: () async throws -> T) async throws -> T {
        try await execute(connection, "BEGIN")
        do {
            let result = try await body()
            try await execute(connection, "COMMIT")
            return result
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: quiet)
            throw error
        }
    }
}
