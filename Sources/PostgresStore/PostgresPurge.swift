import Failures
import Foundation
import PostgresNIO

/// Makes the keys destroyed so far unrecoverable from the server's files (`Schemas/postgres-layout.md`,
/// "Crypto-shredding on PostgreSQL"): a deleted row lives on in the table's file until it is
/// rewritten and in the WAL until its segment is removed.
enum PostgresPurge {
    /// The server settings a purge needs, with what each must be.
    static let requiredSettings: [(name: String, value: String)] = [("wal_recycle", "off"), ("wal_keep_size", "0"), ("archive_mode", "off")]

    /// Refuses (naming the settings, nothing purged) unless the server removes old WAL segments
    /// rather than keeping or recycling them; then rewrites `reel_stream_keys` (`VACUUM FULL`: a
    /// new file, the old one unlinked) and switches WAL segments and checkpoints until the segment
    /// that was current when it began is gone from `pg_wal`. Returns the rounds that took. Needs
    /// the table's owner, and the rights to checkpoint and list the WAL directory (a superuser, or
    /// `pg_checkpoint` and `pg_monitor`). Runs outside a transaction (`VACUUM` cannot run in one).
    static func run(_ link: PostgresLink, maximumRounds: Int = 8) throws -> Int {
        var wrong: [String] = []
        for (name, value) in requiredSettings {
            let setting = try text(link, "SELECT current_setting(\(name))")
            if setting != value { wrong.append("\(name) = \(value) (it is \(setting))") }
        }
        let slots = try link.run("SELECT count(*) FROM pg_replication_slots").first?.decode(Int64.self) ?? 0
        if slots > 0 { wrong.append("no replication slot (there are \(slots))") }
        guard wrong.isEmpty else {
            throw Failure(
                .unavailable,
                "the store \(link.location) keeps old WAL, where destroyed keys would live on: it needs \(wrong.joined(separator: ", ")); nothing was purged")
        }
        try link.run("VACUUM FULL reel_stream_keys")
        let start = try text(link, "SELECT pg_walfile_name(pg_current_wal_lsn())")
        for round in 1...maximumRounds {
            try link.run("SELECT pg_switch_wal()")
            try link.run("CHECKPOINT")
            let oldest = try text(link, "SELECT coalesce(min(name), '') FROM pg_ls_waldir() WHERE name ~ '^[0-9A-F]{24}$'")
            if oldest > start { return round }
        }
        throw Failure(
            .temporary,
            "the store \(link.location) still keeps the WAL segment \(start) after \(maximumRounds) checkpoints (a standby or a backup holding it back?); run the purge again")
    }

    static func text(_ link: PostgresLink, _ query: PostgresQuery) throws -> String {
        try link.run(query).first?.decode(String.self) ?? ""
    }
}
