import EventLog
import Failures
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// One connection to a PostgreSQL store used from blocking code: the store boundary
/// (`EventStore`) is synchronous, as LMDB is, so each statement is sent and its whole result waited
/// for on the calling thread, while the connection's work runs on NIO's event loop (`loops`).
/// Never call it on that loop (its answers come there: a wait there would only end at the time
/// limit), and never from more than one thread at a time (the pool lends it to one). Answers are
/// waited for where they are put as they come (`StatementAnswers`), not through the loop.
///
/// Nothing waits without end: the session's time limits (`PostgresSession`) are set on it, and a
/// statement the server does not answer within `answerLimit` closes the connection, which rolls
/// back a transaction not committed.
///
/// A statement whose answer nothing reads before the next one (`BEGIN`, a write transaction's
/// inserts and updates) is sent without waiting (`send`): the driver sends it and the ones
/// queued behind it in order, each as the one before is answered, on the event loop, so a write
/// transaction's thread waits for its reads and its `COMMIT` only. The server runs them in the
/// order sent; the first one that failed is the error of the next statement waited for (its
/// failure aborted the transaction, whose `COMMIT` then rolls back).
final class PostgresLink: @unchecked Sendable {
    let location: PostgresLocation
    private let connection: PostgresConnection
    /// Set when the connection failed or was closed: the pool drops it.
    private(set) var broken = false
    /// How long a statement's answer is waited for at most (`PostgresSession.limit`; a test
    /// sets less): past it the connection is closed.
    var answerLimit = PostgresSession.limit

    /// The moment the answer of a statement waited for from now is given up on (`answerLimit`).
    private var answerDeadline: ContinuousClock.Instant { .now + answerLimit }

    /// `answer`'s outcome, waited for until `deadline`; past it the link gives up on the server
    /// (`giveUp`), which fails every answer not in as timed out.
    private func outcome(of answer: Answer, by deadline: ContinuousClock.Instant) -> Result<[PostgresRow], any Error> {
        connection.eventLoop.preconditionNotInEventLoop()
        if let result = answers.wait(for: answer.slot, until: deadline) { return result }
        giveUp()
        return answers.wait(for: answer.slot, until: .now) ?? .failure(Failed.timedOut)
    }

    /// Gives up on a server that stopped answering: every answer not in fails at once as timed
    /// out (not when the close completes), the link is dropped and its connection closed.
    private func giveUp() {
        broken = true
        answers.close(Failed.timedOut)
        let _: EventLoopFuture<Void> = connection.close()
    }

    /// Whether the connection can take a statement: not failed, not closed by the server.
    var isUsable: Bool { !broken && !connection.isClosed }

    /// What must be sent before the next statement, and has not been yet: a write transaction
    /// that may end as one statement holds back its `BEGIN` and lock (`PostgresWrite`). Runs
    /// once, before the next statement sent or run; set to `nil` to drop it.
    var prelude: (() throws -> Void)? {
        didSet { preludeFailure = nil }
    }

    /// Why the prelude failed, if it did: every statement after it fails so too (nothing is sent
    /// without it), until the transaction is rolled back.
    private(set) var preludeFailure: (any Error)?

    /// Sends what is held back (`prelude`), if anything.
    func sendPrelude() throws {
        if let preludeFailure { throw preludeFailure }
        guard let prelude else { return }
        self.prelude = nil
        do {
            try prelude()
        } catch {
            preludeFailure = error
            throw error
        }
    }

    /// The SQLSTATE of the last failure the server reported, if it was the server's.
    private(set) var lastServerState: String?

    /// Whether the last failure was an answer that never came (the connection lost, or the server
    /// silent past the limit), not the server's error.
    private var answerLost = false

    /// Whether a transaction is open (`BEGIN` sent, neither `COMMIT` nor `ROLLBACK` yet).
    private(set) var inTransaction = false

    /// Whether a statement that may write (anything but a `SELECT` or a transaction's control)
    /// ran in the open transaction: a write transaction that wrote raises `reel_head.generation`.
    private(set) var wroteInTransaction = false

    /// Whether `sql` may change a row: anything but a query (`SELECT`, `SHOW`, `VALUES`, `TABLE`)
    /// or a transaction's control. A `WITH` counts, as it may hold an `INSERT`.
    static func mayWrite(_ sql: String) -> Bool {
        let word = sql.drop { $0 == " " || $0 == "\n" || $0 == "(" }.prefix { $0.isLetter }.uppercased()
        return !["SELECT", "SHOW", "VALUES", "TABLE", "BEGIN", "COMMIT", "ROLLBACK", "SET", "START"].contains(word)
    }

    /// Statements sent and not waited for yet, oldest first (`send`).
    private var sent: [Answer] = []
    /// Statements sent at most before the oldest is waited for: what the driver holds is bounded.
    static let sendAhead = 16

    /// The statements' answers as they come, failed when the connection closes: a statement
    /// written to a connection the server has just dropped is otherwise never answered (the
    /// driver loses the write and its promise with it). One watcher of the close for them all.
    private let answers = StatementAnswers()

    private init(location: PostgresLocation, connection: PostgresConnection) {
        self.location = location
        self.connection = connection
        // Closed past the time limit, the answers have failed as timed out already.
        connection.closeFuture.whenComplete { [answers] _ in answers.close(Failed.connectionLost) }
    }

    /// A link dropped on any path, closed or not, never drops its connection open.
    deinit {
        if !connection.isClosed { Self.closeKeepingAlive(connection) }
    }

    /// The event loop of the store's connections: a thread of their own, so a statement's
    /// answer, and the next statement sent behind it, never wait behind the HTTP service's work on
    /// NIO's shared loops (a write transaction's statements go one after another).
    static let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Connects to a server of `location` of the kind it asks for (`PostgresConnector`), with
    /// Reel's session settings (search path, time limits) in the startup message.
    static func open(_ location: PostgresLocation, id: Int) throws -> PostgresLink {
        let connection: PostgresConnection
        do {
            // Bounded like every statement: a connection attempt that never completes fails.
            let loop = Self.loops.next()
            let connected = loop.makePromise(of: PostgresConnection.self)
            let attempt = PostgresConnector.connect(location, id: id, on: loop)
            attempt.cascade(to: connected)
            let limit = loop.scheduleTask(in: .seconds(PostgresSession.limit.components.seconds)) { connected.fail(Failed.timedOut) }
            defer { limit.cancel() }
            do {
                connection = try connected.futureResult.wait()
            } catch Failed.timedOut {
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
    private enum Failed: Error {
        /// The connection closed (the server went away).
        case connectionLost
        /// No answer within `answerLimit` (the connection was closed for it).
        case timedOut
        /// A `COMMIT` the server answered `ROLLBACK` (a statement of the transaction failed).
        case rolledBack
    }

    /// Hands `query` to the driver; its answer comes to the returned one, or fails when the
    /// connection closes first.
    private func dispatch(_ query: PostgresQuery) -> Answer {
        dispatch(query.sql) { [connection] in connection.query(query, logger: PostgresSession.quiet) } rows: { result in
            // A `COMMIT` of a transaction a statement failed in is answered `ROLLBACK`, not an
            // error: whoever reads this answer alone learns that nothing was committed.
            if result.metadata.command == "ROLLBACK", query.sql == "COMMIT" { throw Failed.rolledBack }
            return result.rows
        }
    }

    /// Hands the statement `sql` to the driver (`start`, which writes it to the connection at
    /// once, in the order of the calls); its answer (`rows` of what the driver gives) comes to
    /// the returned one, or fails when the connection closes first.
    private func dispatch<Value>(
        _ sql: String, _ start: () -> EventLoopFuture<Value>, rows: @escaping @Sendable (Value) throws -> [PostgresRow]
    ) -> Answer {
        if inTransaction, !wroteInTransaction, Self.mayWrite(sql) { wroteInTransaction = true }
        let (slot, closed) = answers.open()
        if !closed {
            start().whenComplete { [answers] result in answers.fill(slot, with: result.flatMap { value in Result { try rows(value) } }) }
        }
        return Answer(slot: slot)
    }

    /// Waits for `waited` (answered in order: the last one last), within the time limit: past it
    /// the connection is closed, which fails them all. Returns the last one's rows; throws the
    /// first failure among them, as a Reel failure.
    private func wait(_ waited: [Answer]) throws -> [PostgresRow] {
        guard let last = waited.last else { return [] }
        let deadline = answerDeadline
        _ = outcome(of: last, by: deadline)
        var rows: [PostgresRow] = []
        for answer in waited {
            // Each is answered (or failed by the give-up) by now: the driver answers in order.
            switch outcome(of: answer, by: deadline) {
            case .success(let answered): rows = answered
            case .failure(let error): throw failure(error)
            }
        }
        return rows
    }

    /// `error` of a statement as a Reel failure, marking the link broken when the connection is
    /// no use any more.
    private func failure(_ error: any Error) -> any Error {
        switch error {
        case Failed.timedOut:
            broken = true
            answerLost = true
            return Failure(
                .unavailable,
                "the store \(location) did not answer within \(answerLimit.components.seconds) s (what was not committed is rolled back)")
        case Failed.connectionLost:
            broken = true
            answerLost = true
            return Failure(
                .unavailable, "the store \(location) cannot be reached: the connection was lost (what was not committed is rolled back)")
        case Failed.rolledBack:
            return Failure(.storage, "the store \(location) rolled the transaction back: a statement of it failed (nothing of it was committed)")
        default:
            let server = PostgresFailure.serverError(error)
            lastServerState = server?.state
            if connection.isClosed { broken = true }
            // Any failure but the server's (of the connection, of the driver's messages, of the
            // socket) leaves the connection unusable, and the answer unknown.
            if server == nil { answerLost = true }
            if server == nil || Self.endsTheSession(server?.state) { broken = true }
            return PostgresFailure.kinded(error, location)
        }
    }

    /// Runs `query` and returns its rows, all read. A failure is a Reel failure
    /// (`PostgresFailure`); one of the connection marks it broken. Statements sent before it
    /// (`send`) are answered first: the first of them that failed is the error thrown.
    ///
    /// The wait ends at the server's answer, at the connection's close, or at the time limit,
    /// whichever comes first.
    @discardableResult
    func run(_ query: PostgresQuery) throws -> [PostgresRow] {
        try sendPrelude()
        let earlier = sent
        sent = []
        guard !broken, !connection.isClosed else {
            broken = true
            throw Failure(.unavailable, "the store \(location) cannot be reached: the connection was lost")
        }
        return try wait(earlier + [dispatch(query)])
    }

    /// Sends `query` without waiting for its answer: the next statement waited for (`run`, or
    /// `settle`) is answered after it and throws its failure. For statements whose rows nothing
    /// reads, in a transaction, whose `COMMIT` is waited for. At most `sendAhead` are in flight;
    /// past that the oldest are waited for.
    ///
    /// `settling: false` for a statement whose answer its sender reads as the outcome of a
    /// commit (a `COMMIT`, a transaction's one statement, the durability mark): it is never
    /// waited for here, so its failure is read, and said, where the commit is waited for.
    @discardableResult
    func send(_ query: PostgresQuery, settling: Bool = true) throws -> Answer {
        try send(settling: settling) { dispatch(query) }
    }

    /// Sends what `dispatch` hands to the driver, after what is held back (`prelude`), on a
    /// connection still usable, with at most `sendAhead` in flight.
    private func send(settling: Bool, _ dispatch: () -> Answer) throws -> Answer {
        try sendPrelude()
        guard !broken, !connection.isClosed else {
            broken = true
            throw Failure(.unavailable, "the store \(location) cannot be reached: the connection was lost")
        }
        if settling, sent.count + 1 >= Self.sendAhead { try settle() }
        let answer = dispatch()
        sent.append(answer)
        return answer
    }

    /// Sends `statement` as `send` does: by name, when this connection has prepared it
    /// (`prepare`), so the server neither parses nor plans it again; else as its text. Its
    /// answer has no rows, whichever way it went: the driver's older prepared-statement path,
    /// the one that can be sent without waiting, describes the binary rows it asks for as text,
    /// so they cannot be read (`PreparedText`).
    @discardableResult
    func send(_ statement: PreparedText, settling: Bool = true) throws -> Answer {
        try send(settling: settling) {
            if let prepared = statements[statement.sql] {
                return dispatch(statement.sql) { prepared.execute(statement.binds) } rows: { _ in [] }
            }
            var binds = PostgresBindings(capacity: statement.binds.count)
            for value in statement.binds { binds.append(value) }
            let query = PostgresQuery(unsafeSQL: statement.sql, binds: binds)
            return dispatch(statement.sql) { [connection] in connection.query(query, logger: PostgresSession.quiet) } rows: { _ in [] }
        }
    }

    /// Statements this connection has prepared (`prepare`), by their text: the server keeps them
    /// for the session, whatever becomes of the transactions around.
    private var statements: [String: PreparedQuery] = [:]

    /// Prepares on this connection those of `texts` it has not prepared yet, in one round trip:
    /// for a link with nothing sent and no transaction open (a link just borrowed). A text the
    /// server refuses to prepare (a store not migrated yet) stays unprepared and is sent as text;
    /// a connection lost meanwhile is left broken for the next statement to say so.
    func prepare(_ texts: [String]) {
        let missing = texts.filter { statements[$0] == nil }
        guard !missing.isEmpty, sent.isEmpty, !inTransaction, prelude == nil, isUsable else { return }
        let answers = missing.map { sql in
            dispatch(sql) { [connection] in connection.prepare(query: sql) } rows: { [self] prepared in
                self.preparedNow.withLock { $0.append((sql, prepared)) }
                return []
            }
        }
        _ = try? wait(answers)
        for (sql, prepared) in preparedNow.withLock({ now in defer { now = [] }; return now }) { statements[sql] = prepared }
    }

    /// Statements prepared and not yet in `statements`: the driver's answers come on its thread.
    private let preparedNow = Mutex<[(String, PreparedQuery)]>([])

    /// A statement sent without waiting (`send`), whose rows may be read later (`rows(of:)`).
    struct Answer {
        fileprivate let slot: StatementAnswers.Slot
    }

    /// The rows of `answer`, waited for with every statement sent before it; throws the first
    /// failure among them.
    func rows(of answer: Answer) throws -> [PostgresRow] {
        guard let index = sent.firstIndex(where: { $0.slot === answer.slot }) else {
            // Waited for already, by a statement after it: answered.
            return try wait([answer])
        }
        let waited = Array(sent[...index])
        sent.removeFirst(index + 1)
        return try wait(waited)
    }

    /// Waits for every statement sent; throws the first failure among them.
    func settle() throws {
        let earlier = sent
        sent = []
        _ = try wait(earlier)
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
    ///
    /// `BEGIN` is sent without waiting: the body's first statement follows it at once.
    func transaction<T>(_ begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        try self.begin(begin)
        let value: T
        do {
            value = try body()
        } catch {
            rollBack()
            throw error
        }
        try finish(sendCommit())
        return value
    }

    /// Opens a transaction (`begin`, sent without waiting).
    func begin(_ begin: String = "BEGIN") throws {
        try send(PostgresQuery(unsafeSQL: begin))
        inTransaction = true
        wroteInTransaction = false
    }

    /// Sends the open transaction's `COMMIT` without waiting: `finish` waits for it.
    func sendCommit() throws -> Answer {
        do {
            return try send("COMMIT", settling: false)
        } catch {
            inTransaction = false
            throw error
        }
    }

    /// Waits for the `COMMIT` sent (`sendCommit`), and every statement before it: throws the
    /// first failure among them (then nothing was committed), or `CommitUnknown` when the
    /// connection was lost, or the server stopped answering, before the answers came (the
    /// `COMMIT` may have been made).
    func finish(_ commit: Answer) throws {
        defer { inTransaction = false }
        answerLost = false
        lastServerState = nil
        do {
            _ = try rows(of: commit)
        } catch where answerLost {
            throw CommitUnknown(store: "\(location)")
        }
    }

    /// Waits until `answer`, a statement of another transaction sent on this link, is answered,
    /// within the time limit, reading nothing of it and of the statements before it (their
    /// failures stay for whoever waits for that transaction): whether it was answered without
    /// error (a `COMMIT` answered `ROLLBACK` is an error here).
    func awaitAnswerOnly(_ answer: Answer) -> Bool {
        if case .success = outcome(of: answer, by: answerDeadline) { return true }
        return false
    }

    /// Waits for `mark`, a transaction committed after one already committed whose durability
    /// it says (`PostgresEventStore`'s durability mark): any failure is `CommitUnknown`, as the
    /// one before is committed and may not be durable.
    func awaitDurability(_ mark: Answer) throws {
        do {
            _ = try rows(of: mark)
        } catch {
            throw CommitUnknown(store: "\(location)")
        }
    }

    /// Rolls the open transaction back (what was sent and not waited for is dropped).
    func rollBack() {
        prelude = nil
        if !broken { _ = try? run("ROLLBACK") }
        sent = []
        inTransaction = false
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
