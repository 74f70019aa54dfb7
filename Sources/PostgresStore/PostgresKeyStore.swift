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

    /// Makes the keys destroyed so far unrecoverable from the server's files (see `PostgresPurge`).
    public func purge(maximumRounds: Int = 8) async throws -> PurgeReport {
        let location = location
        return try await withCheckedThrowingContinuation { continuation in
            // The purge blocks its thread on the connection: a thread of its own, not the pool's.
            Thread {
                continuation.resume(
                    with: Result {
                        let link = try PostgresLink.open(location, id: 1)
                        defer { link.close() }
                        return PurgeReport(walRounds: try PostgresPurge.run(link, maximumRounds: maximumRounds))
                    })
            }.start()
        }
    }

    static func text(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> String {
        let rows = try await connection.query(query, logger: PostgresSession.quiet)
        var found = ""
        for try await value in rows.decode(String.self) { found = value }
        return found
    }
}
