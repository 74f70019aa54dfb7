import Failures
import Foundation
import PostgresNIO

/// What each server of a store's URL is doing, asked of each one directly (`reel store status`,
/// `/ready`): its role, how far behind a standby is, and whether the primary has a synchronous
/// standby attached, without which an acknowledged append is on one machine only.
public struct PostgresReplication: Sendable, Equatable {
    /// One server of the URL.
    public struct Server: Sendable, Equatable {
        public enum Role: String, Sendable { case primary, standby, unreachable }
        /// `HOST:PORT` (or the socket's directory).
        public let server: String
        public let role: Role
        /// Why it could not be asked (`unreachable`), in words.
        public let problem: String?
        /// A primary's `synchronous_commit` and `synchronous_standby_names`.
        public let synchronousCommit: String?
        public let synchronousStandbyNames: String?
        /// The standbys a primary streams to (`pg_stat_replication`).
        public let standbys: [Standby]
        /// A standby's own view: whether it streams from a primary now, and how far its replay is
        /// behind what it has received (bytes) and behind the primary's last commit it has seen
        /// (seconds; 0 when nothing waits).
        public let streaming: Bool?
        public let replayLagBytes: Int64?
        public let replayLagSeconds: Double?
    }

    /// A standby as its primary sees it.
    public struct Standby: Sendable, Equatable {
        public let name: String
        /// `streaming`, `catchup`, `startup`, … (`pg_stat_replication.state`).
        public let state: String
        /// `sync`, `quorum`, `potential` or `async`.
        public let syncState: String
        /// How far its replay is behind the primary's WAL: bytes and seconds.
        public let lagBytes: Int64
        public let lagSeconds: Double
        /// Whether it sends feedback (`hot_standby_feedback`): the primary then keeps the row
        /// versions its queries may still need (`pg_stat_replication.backend_xmin` is set, or,
        /// streaming through a replication slot as pg_auto_failover's do, the slot's `xmin`), the
        /// dead versions of the head row every commit updates among them, which each commit
        /// reads past (the handbook's PostgreSQL page).
        public let feedback: Bool
        /// Whether it acknowledges commits before they are answered.
        public var isSynchronous: Bool { (syncState == "sync" || syncState == "quorum") && state == "streaming" }
    }

    public let servers: [Server]

    /// Whether a primary answers and has a synchronous standby streaming.
    public var synchronousStandbyAttached: Bool {
        servers.contains { $0.role == .primary && $0.standbys.contains(where: \.isSynchronous) }
    }

    /// Asks every server of `location` at once (each alone, for at most `limit`): a server that
    /// does not answer costs the limit once, not once per server.
    public static func status(of location: PostgresLocation, within limit: Duration = .seconds(5)) async -> PostgresReplication {
        let each = location.eachServer()
        let found = await withTaskGroup(of: (Int, Server).self) { group in
            for (index, (server, alone)) in each.enumerated() {
                group.addTask {
                    do {
                        return (index, try await PostgresSession.with(alone, within: limit) { connection in try await ask(connection, server) })
                    } catch {
                        let words = (error as? any KindedError)?.summary ?? "\(error)"
                        return (
                            index,
                            Server(
                                server: server, role: .unreachable, problem: words, synchronousCommit: nil, synchronousStandbyNames: nil,
                                standbys: [], streaming: nil, replayLagBytes: nil, replayLagSeconds: nil)
                        )
                    }
                }
            }
            var servers: [(Int, Server)] = []
            for await answer in group { servers.append(answer) }
            return servers.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return PostgresReplication(servers: found)
    }

    private static func ask(_ connection: PostgresConnection, _ server: String) async throws -> Server {
        var standby = false
        for try await recovering in try await connection.query("SELECT pg_is_in_recovery()", logger: PostgresSession.quiet).decode(Bool.self) {
            standby = recovering
        }
        if standby {
            var lag: (Int64, Double, Bool) = (0, 0, false)
            for try await row in try await connection.query(
                """
                SELECT coalesce(pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()), 0)::bigint,
                    CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                        ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0) END::float8,
                    EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming')
                """, logger: PostgresSession.quiet
            ).decode((Int64, Double, Bool).self) {
                lag = row
            }
            return Server(
                server: server, role: .standby, problem: nil, synchronousCommit: nil, synchronousStandbyNames: nil, standbys: [],
                streaming: lag.2, replayLagBytes: lag.0, replayLagSeconds: lag.1)
        }
        var settings = ("", "")
        for try await row in try await connection.query(
            "SELECT current_setting('synchronous_commit'), current_setting('synchronous_standby_names')", logger: PostgresSession.quiet
        ).decode((String, String).self) {
            settings = row
        }
        var standbys: [Standby] = []
        for try await (name, state, sync, bytes, seconds, feedback) in try await connection.query(
            """
            SELECT r.application_name, coalesce(r.state, ''), coalesce(r.sync_state, ''),
                coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), r.replay_lsn), 0)::bigint, coalesce(extract(epoch FROM r.replay_lag), 0)::float8,
                r.backend_xmin IS NOT NULL OR s.xmin IS NOT NULL
            FROM pg_stat_replication r LEFT JOIN pg_replication_slots s ON s.active_pid = r.pid
            ORDER BY r.application_name
            """, logger: PostgresSession.quiet
        ).decode((String, String, String, Int64, Double, Bool).self) {
            standbys.append(Standby(name: name, state: state, syncState: sync, lagBytes: bytes, lagSeconds: seconds, feedback: feedback))
        }
        return Server(
            server: server, role: .primary, problem: nil, synchronousCommit: settings.0, synchronousStandbyNames: settings.1, standbys: standbys,
            streaming: nil, replayLagBytes: nil, replayLagSeconds: nil)
    }
}

extension PostgresLocation {
    /// Each server of the URL, with a location that reaches it alone (whatever its role).
    func eachServer() -> [(server: String, location: PostgresLocation)] {
        if socketDirectory != nil { return [(description, self.targeting(.any))] }
        return endpoints.map { ($0.description, PostgresLocation(copying: self, endpoint: $0)) }
    }
}
