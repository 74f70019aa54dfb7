import Failures
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// One connection to a PostgreSQL store used from blocking code: the store boundary
/// (`EventStore`) is synchronous, as LMDB is, so each statement is sent and its whole result waited
/// for on the calling thread, while the connection's work runs on NIO's event loop. Never call it
/// on an event loop (NIO refuses that wait), and never from more than one thread at a time (the
/// pool lends it to one).
///
/// Nothing waits without end: the session's time limits (`PostgresSession`) are set on it, and a
/// statement the server does not answer within `PostgresSession.limit` closes the connection,
/// which rolls back a transaction not committed.
final class PostgresLink: @unchecked Sendable {
    let location: PostgresLocation
    private let connection: PostgresConnection
    /// Set when the connection failed or was closed: the pool drops it.
    private(set) var broken = false
    /// Whether the connection can take a statement: not failed, not closed by the server.
    var isUsable: Bool { !broken && !connection.isClosed }

    /// Whether a transaction is open (`BEGIN` sent, neither `COMMIT` nor `ROLLBACK` yet).
    private(set) var inTransaction = false

    private init(location: PostgresLocation, connection: PostgresConnection) {
        self.location = location
        self.connection = connection
    }

    /// A link dropped on any path, closed or not, never drops its connection open.
    deinit {
        if !connection.isClosed { Self.closeKeepingAlive(connection) }
    }

    /// Connects to a server of `location` of the kind it asks for (`PostgresConnector`), with
    /// Reel's session settings (search path, time limits) in the startup message.
    static func open(_ location: PostgresLocation, id: Int) throws -> PostgresLink {
        let connection: PostgresConnection
        do {
            // Bounded like every statement: a connection attempt that never completes fails.
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            let connected = loop.makePromise(of: PostgresConnection.self)
            let attempt = PostgresConnector.connect(location, id: id, on: loop)
            attempt.cascade(to: connected)
            let limit = loop.scheduleTask(in: .seconds(PostgresSession.limit.components.seconds)) { connected.fail(Unanswered.timedOut) }
            defer { limit.cancel() }
            do {
                connection = try connected.futureResult.wait()
            } catch Unanswered.timedOut {
                // Should it connect later after all, the connection is closed.
                attempt.whenSuccess { closeKeepingAlive($0) }
                throw Failure(.unavailable, "the store \(location) did not answer within \(PostgresSession.limit.components.seconds) s")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw PostgresFailure.kinded(error, location)
        }
        let link = PostgresLink(location: location, connection: connection)
        return link
    }

    /// Why a statement ended without the server's answer.
    private enum Unanswered: Error {
        /// The connection closed (the server went away, or the time limit closed it).
        case connectionLost
        /// No answer within `PostgresSession.limit`.
        case timedOut
    }

    /// Runs `query` and returns its rows, all read. A failure is a Reel failure
    /// (`PostgresFailure`); one of the connection marks it broken.
    ///
    /// The wait ends at the server's answer, at the connection's close, or at the time limit,
    /// whichever comes first: a statement written to a connection the server has just dropped
    /// is otherwise never answered (the driver loses the write and its promise with it).
    @discardableResult
    func run(_ query: PostgresQuery) throws -> [PostgresRow] {
        guard !broken, !connection.isClosed else {
            broken = true
            throw Failure(.unavailable, "the store \(location) cannot be reached: the connection was lost")
        }
        let answer = connection.eventLoop.makePromise(of: [PostgresRow].self)
        connection.query(query, logger: PostgresSession.quiet).map(\.rows).cascade(to: answer)
        connection.closeFuture.whenComplete { _ in answer.fail(Unanswered.connectionLost) }
        let limit = connection.eventLoop.scheduleTask(in: .seconds(PostgresSession.limit.components.seconds)) { [connection] in
            answer.fail(Unanswered.timedOut)
            let _: EventLoopFuture<Void> = connection.close()
        }
        defer { limit.cancel() }
        do {
            return try answer.futureResult.wait()
        } catch Unanswered.timedOut {
            broken = true
            throw Failure(
                .unavailable,
                "the store \(location) did not answer within \(PostgresSession.limit.components.seconds) s (what was not committed is rolled back)")
        } catch Unanswered.connectionLost {
            broken = true
            throw Failure(
                .unavailable, "the store \(location) cannot be reached: the connection was lost (what was not committed is rolled back)")
        } catch {
            if connection.isClosed { broken = true }
            if let psql = error as? PSQLError, psql.code != .server || Self.endsTheSession(psql.serverInfo?[.sqlState]) { broken = true }
            throw PostgresFailure.kinded(error, location)
        }
    }

    /// Whether a server's error means this connection is no use any more: the server is read-only
    /// now (a primary demoted by a failover) or shutting down; the pool then drops it, and the
    /// next connection finds the server that fits.
    static func endsTheSession(_ state: String?) -> Bool {
        guard let state else { return false }
        return state == "25006" || state.hasPrefix("57P") || state.hasPrefix("08")
    }

    /// Runs `body` in a transaction begun with `begin`: committed when it returns, rolled back
    /// when it throws (then its error is thrown, not the rollback's).
    func transaction<T>(_ begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        try run(PostgresQuery(unsafeSQL: begin))
        inTransaction = true
        defer { inTransaction = false }
        let value: T
        do {
            value = try body()
        } catch {
            if !broken { _ = try? run("ROLLBACK") }
            throw error
        }
        try run("COMMIT")
        return value
    }

    /// Closes the connection, waiting for it a few seconds at most (a connection whose server
    /// stopped answering is left to close on its own).
    func close() {
        broken = true
        let closed = connection.eventLoop.makePromise(of: Void.self)
        let closing = Self.closeKeepingAlive(connection)
        closing.cascade(to: closed)
        let limit = connection.eventLoop.scheduleTask(in: .seconds(5)) { closed.succeed() }
        defer { limit.cancel() }
        _ = try? closed.futureResult.wait()
    }

    /// Closes the connection without waiting: for a link dropped because it is broken or the
    /// server closed it (a restart).
    func discard() {
        broken = true
        _ = Self.closeKeepingAlive(connection)
    }

    /// Starts closing `connection` and holds it until the close is done. The driver checks, when
    /// a connection goes, that its channel is already closed (an assertion in unoptimized builds):
    /// a close only started, with the last reference dropped at once, stops the process. Seen as
    /// `SIGILL` in `PostgresConnection.deinit` when a server crashed under concurrent appenders.
    @discardableResult
    static func closeKeepingAlive(_ connection: PostgresConnection) -> EventLoopFuture<Void> {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
        return closing
    }
}
