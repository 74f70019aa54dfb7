import Failures
import NIOCore
import NIOPosix
import PostgresNIO

/// Connects to a store's servers as libpq does with several hosts: each in the order the URL
/// gives them, until one is of the kind `target_session_attrs` asks for (a primary that accepts
/// writes, a standby); a server of another kind is closed and the next one tried. After a
/// failover the primary is found again this way, by whichever connection is made next.
///
/// When none fits, one line says what each server was: "127.0.0.1:5432 cannot be reached
/// (connection refused); 127.0.0.1:5433 is a standby".
enum PostgresConnector {
    /// What a server is: in recovery (a standby) and whether its sessions are read-only.
    struct Role: Sendable {
        let standby: Bool
        let readOnly: Bool

        func fits(_ target: PostgresLocation.SessionTarget) -> Bool {
            switch target {
            case .any, .preferStandby: return true
            case .readWrite: return !readOnly
            case .readOnly: return readOnly
            case .primary: return !standby
            case .standby: return standby
            }
        }

        var description: String { standby ? "is a standby" : readOnly ? "is read-only" : "accepts writes" }
    }

    /// A connection to a server of `location` that fits its target, made on `loop`.
    static func connect(_ location: PostgresLocation, id: Int, on loop: any EventLoop) -> EventLoopFuture<PostgresConnection> {
        let configurations: [(server: String, configuration: PostgresConnection.Configuration)]
        do {
            configurations = try location.configurations()
        } catch {
            return loop.makeFailedFuture(error)
        }
        // One server and any kind will do: no question to ask it.
        if location.target == .any, configurations.count == 1 {
            return PostgresConnection.connect(on: loop, configuration: configurations[0].configuration, id: id, logger: PostgresSession.quiet)
                .flatMapErrorThrowing { throw PostgresFailure.kinded($0, location) }
        }
        let passes: [PostgresLocation.SessionTarget] = location.target == .preferStandby ? [.standby, .any] : [location.target]
        let outcomes = Outcomes()
        /// What one server turned out to be: each attempt's outcome is worked out on its own (its
        /// future never fails), and the next server is tried outside it, so a later server's
        /// failure is never taken for an earlier one's.
        enum Attempt: Sendable { case fits(PostgresConnection), passed, refused(any Error) }
        @Sendable func ask(_ server: String, _ configuration: PostgresConnection.Configuration, for target: PostgresLocation.SessionTarget)
            -> EventLoopFuture<Attempt>
        {
            PostgresConnection.connect(on: loop, configuration: configuration, id: id, logger: PostgresSession.quiet)
                .flatMap { connection in
                    role(of: connection).map { role -> Attempt in
                        if role.fits(target) { return .fits(connection) }
                        outcomes.seen(server, role.description)
                        _ = PostgresLink.closeKeepingAlive(connection)
                        return .passed
                    }.flatMapError { error in
                        _ = PostgresLink.closeKeepingAlive(connection)
                        return loop.makeFailedFuture(error)
                    }
                }
                .flatMapError { error -> EventLoopFuture<Attempt> in
                    let kinded = PostgresFailure.kinded(error, location)
                    if let refused = kinded as? Failure, refused.kind != .unavailable {
                        // A wrong password or a missing database is the same on every server: said at once.
                        return loop.makeSucceededFuture(.refused(refused))
                    }
                    outcomes.unreachable.insert(server)
                    outcomes.seen(server, "cannot be reached (\(PostgresFailure.cause(of: error, location)))")
                    return loop.makeSucceededFuture(.passed)
                }
        }
        @Sendable func attempt(pass: Int, index: Int) -> EventLoopFuture<PostgresConnection> {
            guard index < configurations.count else {
                if pass + 1 < passes.count { return attempt(pass: pass + 1, index: 0) }
                return loop.makeFailedFuture(outcomes.failure(location))
            }
            let (server, configuration) = configurations[index]
            // A server found unreachable in the first pass is not asked again.
            if pass > 0, outcomes.unreachable.contains(server) { return attempt(pass: pass, index: index + 1) }
            return ask(server, configuration, for: passes[pass]).flatMap { outcome in
                switch outcome {
                case .fits(let connection): return loop.makeSucceededFuture(connection)
                case .refused(let error): return loop.makeFailedFuture(error)
                case .passed: return attempt(pass: pass, index: index + 1)
                }
            }
        }
        return attempt(pass: 0, index: 0)
    }

    /// Asks the server what it is (one statement).
    static func role(of connection: PostgresConnection) -> EventLoopFuture<Role> {
        connection.query("SELECT pg_is_in_recovery(), current_setting('transaction_read_only') = 'on'", logger: PostgresSession.quiet)
            .flatMapThrowing { result in
                guard let row = result.rows.first else { throw Failure(.storage, "the server did not say whether it is a standby") }
                let (standby, readOnly) = try row.decode((Bool, Bool).self)
                return Role(standby: standby, readOnly: readOnly || standby)
            }
    }

    /// What each server turned out to be, in the order tried (only touched on one event loop's
    /// chain of futures, one step after another).
    private final class Outcomes: @unchecked Sendable {
        var said: [(server: String, what: String)] = []
        var unreachable: Set<String> = []

        func seen(_ server: String, _ what: String) {
            if let index = said.firstIndex(where: { $0.server == server }) { said[index].what = what } else { said.append((server, what)) }
        }

        func failure(_ location: PostgresLocation) -> Failure {
            let wanted: String
            switch location.target {
            case .any: wanted = "answers"
            case .readWrite, .primary: wanted = "accepts writes"
            case .readOnly: wanted = "is read-only"
            case .standby, .preferStandby: wanted = "is a standby"
            }
            let each = said.map { "\($0.server) \($0.what)" }.joined(separator: "; ")
            return Failure(.unavailable, "no server of the store \(location) \(wanted) now: \(each)")
        }
    }
}
