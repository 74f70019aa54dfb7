import Failures
import PostgresNIO

/// Creates and upgrades a PostgreSQL store's schema (`reel store migrate`): the steps of
/// `PostgresMigration.all` the database has not had, in one transaction, each recorded in
/// `reel_migrations`. Idempotent: a database at the latest version is left as it is. Two
/// migrations at once take turns (a transaction-scoped advisory lock). A database whose schema is
/// newer than this Reel knows is refused, with nothing changed.
public enum PostgresMigrator {
    /// What a migration did.
    public struct Report: Sendable, Equatable {
        /// The store, without its password.
        public let store: String
        /// The schema version before, 0 for a database Reel had never used.
        public let from: Int
        /// The schema version after.
        public let to: Int
        /// The steps applied, in order (none when the database was up to date).
        public let applied: [PostgresMigration]
    }

    /// The advisory lock all migrations of a database take: "reel" in ASCII.
    static let lockKey: Int64 = 0x7265_656C

    public static func migrate(_ location: PostgresLocation, to target: Int = PostgresMigration.latest) async throws -> Report {
        try await PostgresSession.with(location) { connection in
            try await PostgresSession.transaction(connection) {
                try await PostgresSession.execute(connection, "SELECT pg_advisory_xact_lock(\(lockKey))")
                // Made only when missing: CREATE ... IF NOT EXISTS asks for the right to create
                // even when the table is there, and an up-to-date store needs no such right.
                if try await !migrationsTableExists(connection) {
                    try await PostgresSession.execute(
                        connection,
                        """
                        CREATE TABLE reel_migrations (
                            version integer PRIMARY KEY CHECK (version > 0),
                            name text NOT NULL,
                            applied_at timestamptz NOT NULL DEFAULT now()
                        )
                        """)
                }
                let from = try await currentVersion(connection, location)
                guard from <= PostgresMigration.latest else { throw newer(from, location) }
                var applied: [PostgresMigration] = []
                for step in PostgresMigration.all where step.version > from && step.version <= target {
                    for statement in step.statements {
                        try await PostgresSession.execute(connection, PostgresQuery(unsafeSQL: statement))
                    }
                    try await PostgresSession.execute(connection, "INSERT INTO reel_migrations (version, name) VALUES (\(step.version), \(step.name))")
                    applied.append(step)
                }
                return Report(store: location.description, from: from, to: max(from, applied.last?.version ?? from), applied: applied)
            }
        }
    }

    /// The store's schema version: 0 for a database Reel has never migrated.
    public static func version(of location: PostgresLocation) async throws -> Int {
        try await PostgresSession.with(location) { connection in
            guard try await migrationsTableExists(connection) else { return 0 }
            return try await currentVersion(connection, location)
        }
    }

    static func migrationsTableExists(_ connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.query("SELECT to_regclass('public.reel_migrations') IS NOT NULL", logger: PostgresSession.quiet)
        var found = false
        for try await exists in rows.decode(Bool.self) { found = exists }
        return found
    }

    static func currentVersion(_ connection: PostgresConnection, _ location: PostgresLocation) async throws -> Int {
        let rows = try await connection.query("SELECT coalesce(max(version), 0)::bigint, coalesce(min(version), 1)::bigint FROM reel_migrations", logger: PostgresSession.quiet)
        var version = 0
        var lowest = 1
        for try await (newest, oldest) in rows.decode((Int, Int).self) { (version, lowest) = (newest, oldest) }
        guard lowest > 0 else {
            throw Failure(.tampered, "the store \(location): reel_migrations holds a version below 1, which no Reel writes (is the database another program's?)")
        }
        return version
    }

    static func newer(_ version: Int, _ location: PostgresLocation) -> Failure {
        Failure(
            .unavailable,
            "the store \(location) has schema version \(version), newer than this Reel knows (\(PostgresMigration.latest)): use a newer reel; nothing was changed")
    }
}
