/// One step of the PostgreSQL store's schema (`Schemas/postgres-layout.md`): its version, a name
/// for people, and the statements that take a database from the version before it to this one.
/// Steps are never edited once released; a change is a new step.
public struct PostgresMigration: Sendable, Equatable {
    public let version: Int
    public let name: String
    let statements: [String]

    /// Every step, in version order: what this Reel knows.
    public static let all: [PostgresMigration] = [version1, version2, version3, version4, version5, version6]

    /// The newest version this Reel knows.
    public static var latest: Int { all.last?.version ?? 0 }

    /// The log, its head, the streams, projection tables and checkpoints. Positions and hashes
    /// are those of the LMDB store: `envelope` holds the envelope's bytes exactly as
    /// `Schemas/ledger-layout.md` lays them out (hash included), so one verifier walks both.
    static let version1 = PostgresMigration(
        version: 1, name: "the log, its head, streams, projection tables and checkpoints",
        statements: [
            """
            CREATE TABLE reel_head (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                position bigint NOT NULL CHECK (position >= 0),
                hash bytea NOT NULL CHECK (octet_length(hash) = 32),
                recorded_at bigint NOT NULL
            )
            """,
            "INSERT INTO reel_head (position, hash, recorded_at) VALUES (0, decode(repeat('00', 32), 'hex'), 0)",
            """
            CREATE TABLE reel_events (
                position bigint PRIMARY KEY CHECK (position > 0),
                stream text NOT NULL CHECK (octet_length(stream) BETWEEN 1 AND 255),
                stream_version bigint NOT NULL CHECK (stream_version > 0),
                event_id uuid NOT NULL,
                type text NOT NULL CHECK (octet_length(type) BETWEEN 1 AND 255),
                recorded_at bigint NOT NULL,
                envelope bytea NOT NULL,
                CONSTRAINT reel_events_stream_version UNIQUE (stream, stream_version),
                CONSTRAINT reel_events_event_id UNIQUE (event_id)
            )
            """,
            """
            CREATE TABLE reel_streams (
                stream text PRIMARY KEY CHECK (octet_length(stream) BETWEEN 1 AND 255),
                version bigint NOT NULL CHECK (version > 0),
                closed_at bigint
            )
            """,
            """
            CREATE TABLE reel_projections (
                table_name text NOT NULL,
                key bytea NOT NULL,
                value bytea NOT NULL,
                PRIMARY KEY (table_name, key)
            )
            """,
            """
            CREATE TABLE reel_checkpoints (
                name text PRIMARY KEY,
                position bigint NOT NULL CHECK (position >= 0)
            )
            """,
        ])

    /// The streams' keys, in a table of their own so that purging a destroyed key rewrites a few
    /// kilobytes, not the log.
    static let version2 = PostgresMigration(
        version: 2, name: "the streams' keys",
        statements: [
            """
            CREATE TABLE reel_stream_keys (
                stream text PRIMARY KEY CHECK (octet_length(stream) BETWEEN 1 AND 255),
                key bytea NOT NULL CHECK (octet_length(key) = 32),
                created_at bigint NOT NULL
            )
            """
        ])

    /// Which closed streams' destroyed keys still wait for the purge (since version 4, the
    /// keyring's rotation): set in the transaction that deletes the key, cleared once a rotation
    /// that began after it has removed the old key-encryption key.
    static let version3 = PostgresMigration(
        version: 3, name: "the purge pending after a key's destruction",
        statements: [
            "ALTER TABLE reel_streams ADD COLUMN purge_pending boolean NOT NULL DEFAULT false",
            // Every write looks for closed streams whose keys live (a deletion that stopped midway).
            "CREATE INDEX reel_streams_closed ON reel_streams (stream) WHERE closed_at IS NOT NULL",
            // Every open of the store looks for destroyed keys still waiting for their purge.
            "CREATE INDEX reel_streams_purge_pending ON reel_streams (stream) WHERE purge_pending",
        ])

    /// Keys wrapped under a keyring kept outside the database (`PostgresKeyring`): each key row
    /// says the generation of the key-encryption key it is wrapped under (bare 32-byte keys, from
    /// version 3, have none until the first open wraps them), and `reel_keyring` records the
    /// keyring's id, its current generation and a check value of its key (never the key).
    static let version4 = PostgresMigration(
        version: 4, name: "keys wrapped under a keyring kept outside the database",
        statements: [
            "ALTER TABLE reel_stream_keys DROP CONSTRAINT reel_stream_keys_key_check",
            "ALTER TABLE reel_stream_keys ADD COLUMN generation bigint CHECK (generation > 0)",
            """
            ALTER TABLE reel_stream_keys ADD CONSTRAINT reel_stream_keys_wrapped
                CHECK ((generation IS NULL AND octet_length(key) = 32) OR (generation IS NOT NULL AND octet_length(key) = 60))
            """,
            """
            CREATE TABLE reel_keyring (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                store uuid NOT NULL,
                generation bigint NOT NULL CHECK (generation > 0),
                key_check bytea NOT NULL CHECK (octet_length(key_check) = 32),
                rotated_at bigint NOT NULL
            )
            """,
        ])

    /// The log's Merkle tree (`Schemas/postgres-layout.md`): its stored hashes, and its edge
    /// beside the head. A store migrated from version 4 has the tree of no leaves; its next write
    /// transaction brings the tree up to the head.
    static let version5 = PostgresMigration(
        version: 5, name: "the log's Merkle tree",
        statements: [
            """
            CREATE TABLE reel_tree (
                stored_index bigint PRIMARY KEY CHECK (stored_index >= 0),
                hash bytea NOT NULL CHECK (octet_length(hash) = 32)
            )
            """,
            """
            ALTER TABLE reel_head ADD COLUMN tree bytea NOT NULL DEFAULT '\\x0000000000000000'::bytea
                CHECK (octet_length(tree) >= 8 AND (octet_length(tree) - 8) % 32 = 0)
            """,
        ])

    /// The write generation (`Schemas/postgres-layout.md`): set to a new random value by every
    /// write transaction that writes, so a process can tell that nobody wrote since its own last
    /// one and keep what it read (`WriteMemory`). A Reel that does not set it must not write: it
    /// knows only the versions before this one, and opens no store of this version (so stop
    /// every Reel of the store before migrating to it).
    static let version6 = PostgresMigration(
        version: 6, name: "the write generation",
        statements: [
            "ALTER TABLE reel_head ADD COLUMN generation bigint NOT NULL DEFAULT 0 CHECK (generation >= 0)"
        ])
}
