import Failures
import Foundation
import PostgresNIO

/// The streams' 256-bit keys in a PostgreSQL store (`reel_stream_keys`, schema version 2), and
/// the purge that makes a destroyed key unrecoverable from the server's files
/// (`Schemas/postgres-layout.md`, "Crypto-shredding on PostgreSQL"): a deleted row lives on in
/// the table's file until it is rewritten and in the WAL until its segment is removed, so
/// destroying a key is its `DELETE` followed by `purge()`.
public struct PostgresKeyStore: Sendable {
    public let location: PostgresLocation

    public init(_ location: PostgresLocation) {
        self.location = location
    }

    /// Makes `stream`'s key (32 random bytes from the system's generator) if it has none, and
    /// returns the key it has.
    public func makeKey(for stream: String, at time: Int64) async throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let fresh = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return try await PostgresSession.with(location) { connection in
            try await PostgresSession.execute(
                connection,
                "INSERT INTO reel_stream_keys (stream, key, created_at) VALUES (\(stream), \(ByteBuffer(bytes: fresh)), \(time)) ON CONFLICT (stream) DO NOTHING")
            return try await Self.key(of: stream, connection) ?? fresh
        }
    }

    /// `stream`'s key; `nil` when it has none (never made, or destroyed).
    public func key(of stream: String) async throws -> [UInt8]? {
        try await PostgresSession.with(location) { connection in try await Self.key(of: stream, connection) }
    }

    static func key(of stream: String, _ connection: PostgresConnection) async throws -> [UInt8]? {
        let rows = try await connection.query("SELECT key FROM reel_stream_keys WHERE stream = \(stream)", logger: PostgresSession.quiet)
        var found: [UInt8]?
        for try await key in rows.decode(ByteBuffer.self) { found = Array(buffer: key) }
        return found
    }

    /// Deletes `stream`'s key row; whether there was one. Its bytes stay in the server's files
    /// until `purge()`.
    @discardableResult
    public func destroyKey(of stream: String) async throws -> Bool {
        try await PostgresSession.with(location) { connection in
            let rows = try await connection.query("DELETE FROM reel_stream_keys WHERE stream = \(stream) RETURNING stream", logger: PostgresSession.quiet)
            var deleted = false
            for try await _ in rows { deleted = true }
            return deleted
        }
    }

    /// What a purge did.
    public struct PurgeReport: Sendable, Equatable {
        /// Rounds of `pg_switch_wal()` and `CHECKPOINT` until the WAL segment of the purge's
        /// start was no longer in `pg_wal`.
        public let walRounds: Int
    }

    /// The server settings a purge needs, with what each must be.
    static let requiredSettings: [(name: String, value: String)] = [("wal_recycle", "off"), ("wal_keep_size", "0"), ("archive_mode", "off")]

    /// Makes the keys destroyed so far unrecoverable from the server's files: refuses (naming the
    /// settings) unless the server removes old WAL segments rather than keeping or recycling
    /// them; then rewrites `reel_stream_keys` (`VACUUM FULL`: a new file, the old one unlinked)
    /// and switches WAL segments and checkpoints until the segment that was current when it began
    /// is gone from `pg_wal`. Needs the table's owner, and the rights to checkpoint and list the
    /// WAL directory (a superuser, or `pg_checkpoint` and `pg_monitor`).
    public func purge(maximumRounds: Int = 8) async throws -> PurgeReport {
        try await PostgresSession.with(location) { connection in
            var wrong: [String] = []
            for (name, value) in Self.requiredSettings {
                let rows = try await connection.query("SELECT current_setting(\(name))", logger: PostgresSession.quiet)
                for try await setting in rows.decode(String.self) where setting != value { wrong.append("\(name) = \(value) (it is \(setting))") }
            }
            let slots = try await connection.query("SELECT count(*) FROM pg_replication_slots", logger: PostgresSession.quiet)
            for try await count in slots.decode(Int.self) where count > 0 { wrong.append("no replication slot (there are \(count))") }
            guard wrong.isEmpty else {
                throw Failure(
                    .unavailable,
                    "the store \(location) keeps old WAL, where destroyed keys would live on: it needs \(wrong.joined(separator: ", ")); nothing was purged")
            }
            try await PostgresSession.execute(connection, "VACUUM FULL reel_stream_keys")
            let start = try await Self.text(connection, "SELECT pg_walfile_name(pg_current_wal_lsn())")
            for round in 1...maximumRounds {
                try await PostgresSession.execute(connection, "SELECT pg_switch_wal()")
                try await PostgresSession.execute(connection, "CHECKPOINT")
                let oldest = try await Self.text(connection, "SELECT coalesce(min(name), '') FROM pg_ls_waldir() WHERE name ~ '^[0-9A-F]{24}$'")
                if oldest > start { return PurgeReport(walRounds: round) }
            }
            throw Failure(
                .temporary,
                "the store \(location) still keeps the WAL segment \(start) after \(maximumRounds) checkpoints (a standby or a backup holding it back?); run the purge again")
        }
    }

    static func text(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> String {
        let rows = try await connection.query(query, logger: PostgresSession.quiet)
        var found = ""
        for try await value in rows.decode(String.self) { found = value }
        return found
    }
}
