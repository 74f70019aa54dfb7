import Crypto
@_spi(Stores) import EventLog
import Failures
import Foundation
import NIOCore
import PostgresNIO
import Synchronization

/// The key hierarchy of a PostgreSQL store (`Schemas/postgres-layout.md`, "Keys that can be
/// destroyed"): `reel_stream_keys` holds each live account key wrapped (`KeyWrapping`) under the
/// key-encryption key (KEK) of the store's current generation; the KEKs live in the keyring file
/// (`KeyringFile`), outside the database, its WAL, its standbys and its backups. A deletion deletes
/// its key row and then rotates: a new KEK, every live key rewrapped under it in one transaction,
/// the old KEK removed from the file. From then on no copy of the database made at any time (a dead
/// row, the WAL, a standby, a `pg_basebackup`) holds the deleted key in a form anything can open.
final class PostgresKeyring: Sendable {
    let location: PostgresLocation
    let file: KeyringFile
    var store: UUID { file.store }
    /// The generation new keys are wrapped under, and the KEKs this process has read.
    private let state: Mutex<(generation: UInt64, keys: [UInt64: SymmetricKey])>

    private init(location: PostgresLocation, file: KeyringFile, generation: UInt64, keys: [UInt64: SymmetricKey]) {
        self.location = location
        self.file = file
        state = Mutex((generation, keys))
    }

    /// The directory keyrings are kept in by default: `keyrings/` in the data directory.
    static func defaultDirectory(in dataDirectory: String) -> String { dataDirectory + "/keyrings" }

    // MARK: Opening

    /// The store's keyring, from `directory`. A store that has none yet (new, or migrated from
    /// version 3, whose keys are stored bare) gets one: its keys are wrapped under a new KEK in one
    /// transaction. What a rotation that stopped midway left in the file is finished here.
    static func open(_ link: PostgresLink, directory: String) throws -> PostgresKeyring {
        for attempt in 0..<3 {
            guard let (store, generation, check) = try recorded(link) else {
                if let adopted = try adopt(link, directory: directory) { return adopted }
                continue  // another process adopted first: use its keyring
            }
            let file = KeyringFile(directory: directory, store: store)
            var contents = try read(file, generation: generation, link.location)
            guard let kek = contents.keys[generation] else {
                // Rotated between the record's read and the file's: read the record again.
                if let newest = contents.generations.last, newest > generation, attempt < 2 { continue }
                throw stale(file, has: contents.generations, needs: generation, link.location)
            }
            guard KeyWrapping.check(of: kek, generation: generation, store: store) == check else {
                throw Failure(.tampered, "the keyring \(file.path) does not match the store \(link.location) (its generation \(generation) key is another): restore the keyring this store was made with")
            }
            if contents.generations != [generation] {
                // A rotation stopped midway: after its commit (the old KEK still in the file: it must
                // go) or before it (a next KEK the store never took: useless, and it must not be
                // mistaken for the one a later rotation commits). Under the lock no rotation is in
                // flight here, so the record read now is final for the file. Best effort: a host that
                // cannot write the keyring still reads (an old KEK left behind keeps its deletion's
                // purge pending, which the next rotation finishes and reports).
                try? file.withLock {
                    guard var fresh = try file.read(), let now = try recorded(link)?.generation, fresh.keys[now] != nil else { return }
                    fresh.keys = fresh.keys.filter { $0.key == now }
                    try file.write(fresh)
                }
                contents.keys = contents.keys.filter { $0.key == generation }
            }
            return PostgresKeyring(location: link.location, file: file, generation: generation, keys: contents.keys)
        }
        throw Failure(.temporary, "the store \(link.location) got a keyring from another process that could not be read back; try again")
    }

    /// The store's keyring record: its id, its current generation and the KEK's check value.
    static func recorded(_ link: PostgresLink) throws -> (store: UUID, generation: UInt64, check: [UInt8])? {
        guard let row = try link.run("SELECT store, generation, key_check FROM reel_keyring").first else { return nil }
        let (store, generation, check) = try row.decode((UUID, Int64, ByteBuffer).self)
        return (store, UInt64(generation), Array(buffer: check))
    }

    static func read(_ file: KeyringFile, generation: UInt64, _ location: PostgresLocation) throws -> KeyringFile.Contents {
        guard let contents = try file.read() else {
            throw Failure(
                .tampered,
                "the store \(location) keeps its keys wrapped under the keyring \(file.path), which is missing: restore it from its backup, or point REEL_KEYRING at the directory of the hosts that use this store")
        }
        return contents
    }

    static func stale(_ file: KeyringFile, has: [UInt64], needs: UInt64, _ location: PostgresLocation) -> Failure {
        file.stale(
            has: has, needs: needs, store: "the store \(location)",
            copied: "the store is a copy from before a rotation (a backup, a snapshot, a standby cut off)",
            behind: " (another host rotated it): every host of a store must use one keyring (REEL_KEYRING)")
    }

    /// Makes the store's keyring: a KEK of generation 1 in a new file, then, in one transaction
    /// holding the log's head (no write in between), the record and every bare key wrapped. `nil`
    /// when another process recorded its keyring first (this one's file is removed).
    static func adopt(_ link: PostgresLink, directory: String) throws -> PostgresKeyring? {
        let file = KeyringFile(directory: directory, store: UUID())
        let kek = SymmetricKey(size: .bits256)
        try file.write(KeyringFile.Contents(store: file.store, keys: [1: kek]))
        let adopted: Bool
        do {
            adopted = try link.transaction {
                _ = try link.run("SELECT 1 FROM reel_head FOR UPDATE")
                let check = ByteBuffer(bytes: KeyWrapping.check(of: kek, generation: 1, store: file.store))
                let inserted = try link.run(
                    """
                    INSERT INTO reel_keyring (store, generation, key_check, rotated_at) VALUES (\(file.store), 1, \(check), \(SealedEvents.nowMicroseconds()))
                    ON CONFLICT (singleton) DO NOTHING RETURNING store
                    """)
                guard !inserted.isEmpty else { return false }
                var streams: [String] = [], wrapped: [ByteBuffer] = []
                for row in try link.run("SELECT stream, key FROM reel_stream_keys WHERE generation IS NULL") {
                    let (stream, key) = try row.decode((String, ByteBuffer).self)
                    guard key.readableBytes == 32 else { throw Failure.tampered("the key of stream \(stream) is not 32 bytes", link.location) }
                    streams.append(stream)
                    wrapped.append(ByteBuffer(bytes: try KeyWrapping.wrap(Array(buffer: key), stream: stream, generation: 1, store: file.store, under: kek)))
                }
                try rewrite(streams, wrapped, generation: 1, link)
                return true
            }
        } catch {
            try? file.remove()
            throw error
        }
        guard adopted else {
            try? file.remove()
            return nil
        }
        return PostgresKeyring(location: link.location, file: file, generation: 1, keys: [1: kek])
    }

    static func rewrite(_ streams: [String], _ wrapped: [ByteBuffer], generation: UInt64, _ link: PostgresLink) throws {
        guard !streams.isEmpty else { return }
        try link.run(
            """
            UPDATE reel_stream_keys k SET key = u.key, generation = \(Int64(generation))
            FROM unnest(\(streams)::text[], \(wrapped)::bytea[]) AS u(stream, key) WHERE k.stream = u.stream
            """)
    }

    // MARK: Wrapping

    /// The generation new keys are wrapped under, and its KEK.
    func current() -> (generation: UInt64, kek: SymmetricKey) {
        state.withLock { ($0.generation, $0.keys[$0.generation]!) }
    }

    /// Why a stored key did not open.
    enum UnwrapProblem: Error {
        /// Its generation was rotated away after the row was read (a snapshot older than the
        /// rotation): read the row again.
        case rotated
    }

    /// Opens a stored key (`key`, `generation` as `reel_stream_keys` holds them).
    func unwrap(_ key: ByteBuffer, generation: Int64?, stream: String) throws -> SymmetricKey {
        guard let generation, generation > 0 else {
            throw Failure.tampered("the key of stream \(stream) is stored bare, outside the keyring", location)
        }
        let wanted = UInt64(generation)
        guard let kek = try kek(of: wanted) else { throw UnwrapProblem.rotated }
        guard let opened = KeyWrapping.unwrap(Array(buffer: key), stream: stream, generation: wanted, store: store, under: kek) else {
            throw Failure.tampered("the key of stream \(stream) does not open under the keyring's generation \(wanted)", location)
        }
        return SymmetricKey(data: opened)
    }

    /// The KEK of `generation`: from memory, else from the file read afresh (another process
    /// rotated); `nil` when the generation is older than the file's (rotated away). Only the
    /// generation asked for is taken from the file — a generation a row or the record names, so a
    /// committed one — never a next generation a rotation wrote beside it and may not commit; and
    /// what this process holds follows the file: KEKs rotated away are dropped from memory too.
    func kek(of generation: UInt64) throws -> SymmetricKey? {
        if let kek = state.withLock({ $0.keys[generation] }) { return kek }
        guard let contents = try file.read() else {
            throw Failure(.tampered, "the keyring \(file.path) of the store \(location) is missing: restore it from its backup")
        }
        guard let kek = contents.keys[generation] else {
            guard let newest = contents.generations.last, generation < newest else {
                throw Self.stale(file, has: contents.generations, needs: generation, location)
            }
            return nil
        }
        state.withLock { state in
            state.keys = state.keys.filter { contents.keys[$0.key] != nil && $0.key >= generation }
            state.keys[generation] = kek
            if generation > state.generation || state.keys[state.generation] == nil { state.generation = generation }
        }
        return kek
    }

    /// Takes the store's current generation afresh (after an insert found it moved on).
    func refresh(_ link: PostgresLink) throws {
        for _ in 0..<3 {
            guard let (_, generation, _) = try Self.recorded(link) else { return }
            // Not in the file: rotated again between the record's read and the file's.
            guard try kek(of: generation) != nil else { continue }
            state.withLock { $0.generation = generation }
            return
        }
        throw Failure(.temporary, "the keyring of the store \(location) moved on while it was read; try again")
    }

    // MARK: Storing keys

    /// Stores the live `keys`, wrapped under the current generation; a stream that has a row keeps
    /// it. Each insert holds the keyring's record `FOR SHARE`, and inserts nothing once a rotation
    /// has moved the generation on (it is wrapped again under the new one and retried), so no key
    /// is ever stored under a generation a rotation has left behind.
    func insert(_ keys: [(stream: String, key: [UInt8])], at time: Int64, _ link: PostgresLink) throws {
        guard !keys.isEmpty else { return }
        for _ in 0..<8 {
            var streams: [String] = [], wrapped: [ByteBuffer] = []
            let (generation, kek) = current()
            for (stream, key) in keys {
                streams.append(stream)
                wrapped.append(ByteBuffer(bytes: try KeyWrapping.wrap(key, stream: stream, generation: generation, store: store, under: kek)))
            }
            let stored = try link.run(
                """
                WITH current AS (SELECT generation FROM reel_keyring WHERE generation = \(Int64(generation)) FOR SHARE)
                INSERT INTO reel_stream_keys (stream, key, generation, created_at)
                SELECT u.stream, u.key, c.generation, \(time) FROM unnest(\(streams)::text[], \(wrapped)::bytea[]) AS u(stream, key), current c
                ON CONFLICT (stream) DO NOTHING RETURNING stream
                """)
            // Nothing stored is a generation moved on (the CTE found no record) or rows that were
            // there already; something stored means the generation held and the rest were there.
            guard stored.isEmpty else { return }
            let now = try link.run("SELECT generation FROM reel_keyring").first.map { UInt64(try $0.decode(Int64.self)) }
            guard now != generation else { return }
            try refresh(link)
        }
        throw Failure(.temporary, "the store \(location) rotated its keyring over and over while a key was stored; try again")
    }

    // MARK: Rotating

    /// Makes the keys destroyed so far unrecoverable from every copy of the store: a new KEK in
    /// the file (beside the current one), then one transaction (holding the log's head and the
    /// keyring's record) that rewraps every live key under it and moves the record on, then the
    /// old KEK removed from the file. Returns the streams whose destroyed keys this covered (their
    /// `purge_pending` cleared once the old KEK is gone). Takes the keyring file's lock: rotations
    /// take turns.
    func rotate(_ link: PostgresLink) throws -> [StreamID] {
        try file.withLock {
            guard let (_, generation, _) = try Self.recorded(link) else {
                throw Failure.tampered("reel_keyring has no row (the schema was altered?)", location)
            }
            var contents = try Self.read(file, generation: generation, location)
            guard let current = contents.keys[generation] else { throw Self.stale(file, has: contents.generations, needs: generation, location) }
            let next = generation + 1
            let kek = SymmetricKey(size: .bits256)
            contents.keys = [generation: current, next: kek]
            try file.write(contents)
            let pending: [StreamID]
            do {
                pending = try rotateRows(link, from: generation, current: current, to: next, kek: kek)
            } catch {
                // Not committed (the record says `generation`, or another host's `next`): this next
                // KEK goes, so no one takes it for one that a rotation commits. Committed after all
                // (the record holds this KEK's check), or unknown (the record cannot be read): the
                // file stays, and the next open's repair settles it under the lock.
                if let (_, now, check) = try? Self.recorded(link),
                    !(now == next && KeyWrapping.check(of: kek, generation: next, store: store) == check)
                {
                    contents.keys = [generation: current]
                    try? file.write(contents)
                }
                throw error
            }
            state.withLock { $0 = (next, [next: kek]) }
            contents.keys = [next: kek]
            try file.write(contents)
            if !pending.isEmpty {
                try link.run("UPDATE reel_streams SET purge_pending = false WHERE stream = ANY(\(pending.map(\.rawValue)))")
            }
            return pending
        }
    }

    /// The rotation's transaction: every live key rewrapped from `generation` to `next`, the record
    /// moved on; returns the streams whose destroyed keys it covers.
    private func rotateRows(_ link: PostgresLink, from generation: UInt64, current: SymmetricKey, to next: UInt64, kek: SymmetricKey) throws -> [StreamID] {
        try link.transaction {
            try link.run("SET LOCAL lock_timeout = '10s'")
            _ = try link.run("SELECT 1 FROM reel_head FOR UPDATE")
            guard let row = try link.run("SELECT generation FROM reel_keyring FOR UPDATE").first, UInt64(try row.decode(Int64.self)) == generation else {
                throw Failure(.temporary, "the keyring of the store \(location) was rotated by another host meanwhile; try again")
            }
            let pending = try link.run("SELECT stream FROM reel_streams WHERE purge_pending ORDER BY stream").map { try StreamID(try $0.decode(String.self)) }
            var streams: [String] = [], wrapped: [ByteBuffer] = []
            for row in try link.run("SELECT stream, key, generation FROM reel_stream_keys") {
                let (stream, key, stored) = try row.decode((String, ByteBuffer, Int64?).self)
                guard stored.map(UInt64.init) == generation, let old = KeyWrapping.unwrap(Array(buffer: key), stream: stream, generation: generation, store: store, under: current) else {
                    throw Failure.tampered("the key of stream \(stream) does not open under the keyring's generation \(generation)", location)
                }
                streams.append(stream)
                wrapped.append(ByteBuffer(bytes: try KeyWrapping.wrap(old, stream: stream, generation: next, store: store, under: kek)))
            }
            try Self.rewrite(streams, wrapped, generation: next, link)
            let check = ByteBuffer(bytes: KeyWrapping.check(of: kek, generation: next, store: store))
            try link.run("UPDATE reel_keyring SET generation = \(Int64(next)), key_check = \(check), rotated_at = \(SealedEvents.nowMicroseconds())")
            return pending
        }
    }
}
