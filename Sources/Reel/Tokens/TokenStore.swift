import EventLog
import Failures
import LMDB
import Ledger
import Synchronization

/// The account tokens of a data directory, in their own small LMDB environment, `tokens/`
/// (`Schemas/token-store-layout.md`): apart from the ledger, as the key store and the caches
/// are, so the HTTP service's per-request check reads a few pages of a small file, and an
/// operator can remove every token at once by removing the directory.
///
/// Two databases: `tokens` (the secret's digest → the record, `TokenRecord`) and `token-ids`
/// (id → digest), plus `meta` (`format`). Every change is one durable write transaction; every
/// read is one read transaction of the file as it is now, so a revocation made by another
/// process counts from its commit on (a token found is answered again only while no write has
/// been committed since, `record(for:)`).
///
/// One store per data directory per process (LMDB opens a file once per process), kept open
/// for the process's life; when the directory's file is replaced or removed (an operator
/// removing a damaged store), the next call opens what is there now, or finds no store.
final class TokenStore: Sendable {
    static let format = "reel-tokens/1"
    static let databaseNames = ["tokens", "token-ids", "meta"]

    let directory: String
    private let environment: Environment
    /// Which `data.mdb` the environment has open, to see it replaced or removed.
    private let identity: Environment.FileIdentity
    /// Digest → record.
    private let records: Database<[UInt8], [UInt8]>
    /// Id → digest.
    private let ids: Database<String, [UInt8]>

    private static let opened = Mutex<[String: TokenStore]>([:])

    /// Records found lately, with the store's last transaction id read before they were: one is
    /// answered again without a read transaction or a GCM open while that id is still the last
    /// (LMDB keeps it in the lock file every process shares, so a revocation by another process
    /// ends the reuse at its commit). Unknown tokens are never kept; bounded, emptied when full.
    private let recent = Mutex<[[UInt8]: Found]>([:])
    private struct Found {
        let record: TokenRecord
        let handle: AccountHandle
        let transaction: Int
    }
    static let recentCapacity = 4_096

    /// `tokens/` in `dataDirectory`.
    static func directory(in dataDirectory: String) -> String { dataDirectory + "/tokens" }

    /// What to do about a damaged store, at the end of the line that reports it.
    static func damageAdvice(_ directory: String) -> String {
        "remove \(directory) to start afresh (every token is then gone: make new ones with 'reel token create')"
    }

    /// The store of `dataDirectory`: the one this process has open, else opened now; when there is
    /// none, made if `create`, else `nil` (nothing is made). A damaged store is a `.tampered`
    /// failure naming its file.
    static func open(in dataDirectory: String, create: Bool) throws -> TokenStore? {
        let directory = directory(in: dataDirectory)
        let now = Environment.fileIdentity(ofDirectory: directory)
        if let store = opened.withLock({ $0[directory] }), store.identity == now { return store }
        guard create || now != nil else { return nil }
        return try opened.withLock { opened in
            let previous = opened[directory]
            if let previous, previous.identity == Environment.fileIdentity(ofDirectory: directory) { return previous }
            let store = try guarding(directory) { try TokenStore(directory: directory, replacing: previous != nil) }
            opened[directory] = store
            return store
        }
    }

    /// Opens (creating) the environment; `replacing`: this process has the directory's old file
    /// open, which LMDB's registry would hand back.
    private init(directory: String, replacing: Bool) throws {
        self.directory = directory
        let configuration = Environment.Configuration(initialMapSize: 1 << 20, maximumMapSize: 1 << 30, maxDatabases: 4)
        try Environment.createDirectory(directory)
        environment =
            replacing
            ? try Environment.reopen(at: directory, configuration: configuration) : try Environment.open(at: directory, configuration: configuration)
        // Damage LMDB meets as an assertion or a fault ends the process: say what to do then too.
        environment.adviseOnDamage(Self.damageAdvice(directory))
        identity = try environment.fileIdentity
        records = try Self.database("tokens", of: environment)
        ids = try Self.database("token-ids", of: environment)
        let meta: Database<String, [UInt8]> = try Self.database("meta", of: environment)
        let format = Array(Self.format.utf8)
        let found = try environment.read { txn in try txn.get(meta, "format") }
        if found == nil {
            try environment.write { txn in
                if try txn.get(meta, "format") == nil { try txn.put(meta, "format", format) }
            }
        } else if found != format {
            throw Failure(
                .tampered,
                "the token store \(directory) is not one this Reel reads (format '\(String(decoding: found ?? [], as: UTF8.self))', expected '\(Self.format)'); \(Self.damageAdvice(directory))"
            )
        }
    }

    /// The named database, opened without a write when it exists (a store made by another
    /// process), created when it does not (a store being made).
    private static func database<K, V>(_ name: String, of environment: Environment) throws -> Database<K, V> {
        do {
            return try environment.database(named: name, create: false)
        } catch LMDBError.Code.notFound {
            return try environment.database(named: name, create: true)
        }
    }

    // MARK: - Reading

    /// The record `secret` names, with its handle opened by the secret; `nil` when there is none.
    /// One read transaction, or none when the record was found since the store's last commit. A
    /// record that is there but is not this secret's is damage.
    func record(for secret: TokenSecret) throws -> (TokenRecord, AccountHandle)? {
        let digest = secret.digest
        if let kept = recent.withLock({ $0[digest] }), try guarded({ try environment.lastTransactionID() }) == kept.transaction,
            TokenSecret.constantTimeEqual(kept.record.digest, digest)
        {
            return (kept.record, kept.handle)
        }
        guard let (record, handle, transaction) = try readRecord(digest, secret) else { return nil }
        recent.withLock { recent in
            if recent.count >= Self.recentCapacity { recent.removeAll(keepingCapacity: true) }
            recent[digest] = Found(record: record, handle: handle, transaction: transaction)
        }
        return (record, handle)
    }

    /// `record(for:)`'s read: one read transaction (whose commit id it returns) and the handle's
    /// GCM open.
    private func readRecord(_ digest: [UInt8], _ secret: TokenSecret) throws -> (TokenRecord, AccountHandle, Int)? {
        let (stored, transaction): (TokenRecord??, Int) = try guarded {
            try environment.read { txn in
                (try txn.get(records, digest).map { TokenRecord(bytes: $0) }, try txn.id())
            }
        }
        guard let stored else { return nil }
        // The lookup above is an exact match on a SHA-256 digest: its time can tell at most how
        // many leading bytes of some stored digest the digest of a guess shares, which brings no
        // one nearer a secret (that needs a preimage). The decision itself compares the whole
        // digest in constant time, and the record's sealed handle must open with this secret
        // (GCM's tag check is constant-time too).
        guard let record = stored, TokenSecret.constantTimeEqual(record.digest, digest) else {
            throw damaged("a record does not decode, or lies under another token's key")
        }
        guard let handle = record.handle(openedWith: secret) else {
            throw damaged("the record of token \(record.id) does not authenticate")
        }
        return (record, handle, transaction)
    }

    /// Whether the token `id` of the account `stream` is there, not revoked and not expired at `time`. One read
    /// transaction, by the id (no secret needed).
    ///
    /// Also returns the id of the transaction read: the commit whose state the answer is of.
    /// That, not `lastTransaction()`, is what the answer vouches for: LMDB writes a commit's
    /// meta page (which `lastTransaction()` reads) before it hands the commit to new readers, so
    /// a read begun in between is of the commit before, while the last transaction is already
    /// the new one.
    func isLive(id: String, stream: StreamID, at time: Int64) throws -> (live: Bool, transaction: Int) {
        try guarded {
            try environment.read { txn in
                guard let digest = try txn.get(ids, id), let record = try Self.record(digest, id: id, txn, records) else { return (false, try txn.id()) }
                // Not revoked, and within its kind's lifetime: a browser session's event stream
                // ends when the session does.
                return (record.stream == stream && record.isAccepted(at: time), try txn.id())
            }
        }
    }

    /// The id of the store's last committed write transaction, by this process or another (LMDB
    /// keeps it in the lock file every process shares: no read transaction, no disk read).
    func lastTransaction() throws -> Int {
        try guarded { try environment.lastTransactionID() }
    }

    /// Which file the store has open.
    var fileIdentity: Environment.FileIdentity { identity }

    /// Every token's record, oldest first (then by id). One read transaction.
    func all() throws -> [TokenRecord] {
        let found: [TokenRecord] = try guarded {
            try environment.read { txn in
                var found: [TokenRecord] = []
                try txn.withCursor(ids) { cursor in
                    var entry = try cursor.first()
                    while let current = entry {
                        let id = try? current.decodeKey(as: String.self)
                        let digest = Array(current.value)
                        guard let id, let record = try Self.record(digest, id: id, txn, records) else {
                            throw damaged("the id index names a record that is missing or not its own")
                        }
                        found.append(record)
                        entry = try cursor.next()
                    }
                }
                return found
            }
        }
        return found.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// The record under `digest` when it is the token `id`'s, else `nil`.
    private static func record(_ digest: [UInt8], id: String, _ txn: Transaction, _ records: Database<[UInt8], [UInt8]>) throws -> TokenRecord? {
        guard digest.count == 32 else { return nil }
        let record = try txn.get(records, digest).flatMap { TokenRecord(bytes: $0) }
        guard let record, record.id == id, record.digest == digest else { return nil }
        return record
    }

    // MARK: - Changing

    /// Stores a new token (of `kind`) of `handle`'s account `stream`, made at `time`: a new secret
    /// and an id no other token has. Returns the record and the secret (which is not stored).
    func issue(_ kind: TokenKind = .token, for handle: AccountHandle, stream: StreamID, at time: Int64) throws -> (TokenRecord, TokenSecret) {
        try guarded {
            try environment.write { txn in try Self.issue(kind, for: handle, stream: stream, at: time, txn, records, ids) }
        }
    }

    private static func issue(
        _ kind: TokenKind, for handle: AccountHandle, stream: StreamID, at time: Int64, _ txn: Transaction,
        _ records: Database<[UInt8], [UInt8]>, _ ids: Database<String, [UInt8]>
    ) throws -> (TokenRecord, TokenSecret) {
        let secret = TokenSecret.random()
        var id = TokenID.random()
        while try txn.contains(ids, id) { id = TokenID.random() }
        // 256 random bits drawn twice would be a broken generator: never overwrite.
        guard try !txn.contains(records, secret.digest) else {
            throw Failure(.storage, "the random generator gave a token secret that exists already; nothing was made")
        }
        let record = try TokenRecord(secret: secret, kind: kind, id: id, handle: handle, stream: stream, createdAt: time)
        try txn.put(records, record.digest, record.bytes)
        try txn.put(ids, id, record.digest)
        return (record, secret)
    }

    /// Spends the sign-in link `secret` at `time` and makes a session for its account, in one
    /// write transaction: of two browsers opening the same link, one gets the session. `nil`
    /// when the secret is no live link (unknown, another kind, spent, revoked or expired).
    func spend(link secret: TokenSecret, at time: Int64) throws -> (session: TokenRecord, secret: TokenSecret, handle: AccountHandle)? {
        let digest = secret.digest
        return try guarded {
            try environment.write { txn in
                guard let bytes = try txn.get(records, digest) else { return nil }
                guard let link = TokenRecord(bytes: bytes), TokenSecret.constantTimeEqual(link.digest, digest) else {
                    throw damaged("a record does not decode, or lies under another token's key")
                }
                guard let handle = link.handle(openedWith: secret) else { throw damaged("the record of token \(link.id) does not authenticate") }
                guard link.kind == .link, link.isAccepted(at: time) else { return nil }
                try txn.put(records, digest, link.revoked(at: time).bytes)
                let (session, sessionSecret) = try Self.issue(.session, for: handle, stream: link.stream, at: time, txn, records, ids)
                return (session, sessionSecret, handle)
            }
        }
    }

    /// Revokes the token `id` at `time` (one revoked already keeps its first time); `nil` when
    /// there is no such token.
    func revoke(id: String, at time: Int64) throws -> TokenRecord? {
        try guarded {
            try environment.write { txn in
                guard let digest = try txn.get(ids, id) else { return nil }
                guard let record = try Self.record(digest, id: id, txn, records) else {
                    throw damaged("the id index names a record that is missing or not its own")
                }
                let revoked = record.revoked(at: time)
                if revoked != record { try txn.put(records, digest, revoked.bytes) }
                return revoked
            }
        }
    }

    /// Revokes every live token of the account `stream` at `time`; returns how many.
    @discardableResult
    func revokeAll(of stream: StreamID, at time: Int64) throws -> Int {
        try guarded {
            try environment.write { txn in
                let live = try records(of: stream, txn).filter { $0.revokedAt == nil }
                for record in live { try txn.put(records, record.digest, record.revoked(at: time).bytes) }
                return live.count
            }
        }
    }

    /// Removes every token of the account `stream`, records and ids; returns how many.
    @discardableResult
    func removeAll(of stream: StreamID) throws -> Int {
        try guarded {
            try environment.write { txn in
                let doomed = try records(of: stream, txn)
                for record in doomed {
                    _ = try txn.delete(records, record.digest)
                    _ = try txn.delete(ids, record.id)
                }
                return doomed.count
            }
        }
    }

    /// Removes the token `id`, if there is one.
    func remove(id: String) throws {
        try guarded {
            try environment.write { txn in
                if let digest = try txn.get(ids, id) { _ = try txn.delete(records, digest) }
                _ = try txn.delete(ids, id)
            }
        }
    }

    /// The records of `stream`, read in `txn` (a scan: deletions are rare, tokens few).
    private func records(of stream: StreamID, _ txn: Transaction) throws -> [TokenRecord] {
        var found: [TokenRecord] = []
        try txn.withCursor(records) { cursor in
            var entry = try cursor.first()
            while let current = entry {
                guard let record = TokenRecord(bytes: current.value), record.digest.elementsEqual(current.key) else {
                    throw damaged("a record does not decode, or lies under another token's key")
                }
                if record.stream == stream { found.append(record) }
                entry = try cursor.next()
            }
        }
        return found
    }

    // MARK: - Damage

    /// Runs `body`; damage LMDB reports becomes one line naming the file, with what to do.
    private func guarded<T>(_ body: () throws -> T) throws -> T {
        try Self.guarding(directory, body)
    }

    private static func guarding<T>(_ directory: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LMDBError where error.code.meansDamage {
            throw damaged(directory, error.message)
        }
    }

    /// The failure for a store found damaged: `why`, naming the file when `why` does not.
    private func damaged(_ why: String) -> Failure { Self.damaged(directory, why) }

    static func damaged(_ directory: String, _ why: String) -> Failure {
        let file = directory + "/data.mdb"
        let what = why.contains("data.mdb") ? "the token store is damaged (\(why))" : "the token store \(file) is damaged (\(why))"
        return Failure(.tampered, "\(what); \(damageAdvice(directory))")
    }
}
