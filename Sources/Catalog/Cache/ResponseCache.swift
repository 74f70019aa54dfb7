import Foundation
import LMDB
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// TMDb answers in their own LMDB environment (so the cache can be wiped without touching the
/// ledger). Keyed by the request without credentials; a key longer than LMDB allows is stored
/// under a hash and the full key is kept in the entry to tell collisions apart.
///
/// Beside the answers (`responses`), a second database (`summaries`) keeps a compact binary
/// summary of each details answer a list needed, under the same key and with the same
/// freshness, so a list of thousands of titles is one read transaction and no JSON.
public final class ResponseCache: Sendable {
    public let path: String
    private let environment: Environment
    private let entries: Database<String, [UInt8]>
    private let summaries: Database<String, [UInt8]>
    /// OMDb's scores of each title asked for (`OMDbScores`), by IMDb id.
    private let omdbScores: Database<String, [UInt8]>

    /// What to do about a damaged cache, at the end of the line that reports it.
    public static let damageAdvice = "run 'reel cache clear'"

    /// Opens (creating) the cache in `directory`. Commits are not fsync'd: losing the last few
    /// entries in a power cut costs a refetch, never the ledger.
    ///
    /// A damaged file (see `DataFileCheck`) is an `LMDBError` whose code `meansDamage`. Damage
    /// found later by a read or a write turns the cache off for the rest of the process (it is only
    /// a cache: nothing more is read from it or written into it) and is told once to `onDamage`.
    public static func open(at directory: String, onDamage: @escaping @Sendable (String) -> Void = { _ in }) throws -> ResponseCache {
        let environment = try Environment.open(
            at: directory,
            configuration: .init(initialMapSize: 16 << 20, maximumMapSize: 1 << 36, maxDatabases: 4, durability: .unsafeNoSync)
        )
        // Damage LMDB meets as an assertion or a fault ends the process: say what to do then too.
        environment.adviseOnDamage(damageAdvice)
        return ResponseCache(
            path: directory, environment: environment,
            entries: try environment.database(named: "responses"), summaries: try environment.database(named: "summaries"),
            omdbScores: try environment.database(named: "omdb-scores"), onDamage: onDamage
        )
    }

    /// What `clear(at:)` did.
    public struct Cleared: Sendable {
        /// How many answers the cache held (0 when it was damaged or there was none).
        public let answers: Int
        /// Why the old cache was unreadable, when it was.
        public let damage: String?
    }

    /// Forgets every answer and summary by removing the cache's files and making an empty cache,
    /// so it works on a damaged cache too (a clear through LMDB would walk the damaged pages). The
    /// old file is read only to count its answers, with `pread` (`DataFileCheck`), never mapped. A
    /// process that has the cache open meanwhile goes on with the removed file, unseen by others.
    /// Without a cache, nothing is made. Call it before this process opens the cache.
    public static func clear(at directory: String) throws -> Cleared {
        var answers = 0
        var damage: String?
        do {
            guard let check = try DataFileCheck.check(directory: directory) else { return Cleared(answers: 0, damage: nil) }
            if let count = check.entries(ofDatabaseNamed: "responses") { answers = count } else { damage = "its pages do not parse" }
        } catch let error as LMDBError where error.code.meansDamage {
            damage = error.message
        }
        for name in ["data.mdb", "lock.mdb"] {
            guard unlink(directory + "/" + name) == 0 || errno == ENOENT else {
                let code = errno
                throw LMDBError(code: .init(rawValue: code), function: "unlink", message: "\(directory)/\(name): \(String(cString: strerror(code)))")
            }
        }
        _ = try open(at: directory)
        return Cleared(answers: damage == nil ? answers : 0, damage: damage)
    }

    private init(
        path: String, environment: Environment, entries: Database<String, [UInt8]>, summaries: Database<String, [UInt8]>,
        omdbScores: Database<String, [UInt8]>, onDamage: @escaping @Sendable (String) -> Void
    ) {
        self.omdbScores = omdbScores
        self.path = path
        self.environment = environment
        self.entries = entries
        self.summaries = summaries
        self.damage = DamageSwitch(what: "the TMDb response cache", advice: Self.damageAdvice, onDamage: onDamage)
    }

    private let damage: DamageSwitch

    /// Runs `body` unless the cache is off; damage it meets turns the cache off, told once.
    private func guarded<T>(_ off: T, _ body: () throws -> T) throws -> T { try damage.guarded(off, body) }

    public func lookup(_ key: String) throws -> CachedResponse? {
        let stored = Self.storageKey(key)
        return try guarded(nil) {
            try environment.read { txn in
                try txn.withValue(entries, stored) { bytes -> CachedResponse? in
                    guard let bytes, let entry = CachedResponse(decoding: bytes), entry.key == key else { return nil }
                    return entry
                }
            }
        }
    }

    public func store(_ entry: CachedResponse) throws {
        let stored = Self.storageKey(entry.key)
        let bytes = entry.encoded()
        try guarded(()) { try environment.write { txn in try txn.put(entries, stored, bytes) } }
    }

    /// The summaries stored under `keys` (details request keys), whatever their age, in the order
    /// of `keys` (nil where there is none), read in one transaction.
    public func summaries(_ keys: [String]) throws -> [CachedSummary?] {
        try guarded(keys.map { _ in nil }) {
            try environment.read { txn in
                try keys.map { key in
                    try txn.withValue(summaries, Self.storageKey(key)) { bytes in bytes.flatMap { CachedSummary(decoding: $0, of: key) } }
                }
            }
        }
    }

    /// Stores `entries` in one write transaction.
    public func store(_ entries: [CachedSummary]) throws {
        guard !entries.isEmpty else { return }
        let encoded = entries.map { (Self.storageKey($0.key), $0.encoded()) }
        try guarded(()) {
            try environment.write { txn in
                for (key, bytes) in encoded { try txn.put(summaries, key, bytes) }
            }
        }
    }

    /// A number that changes with every write to the cache, by this process or another (the
    /// environment's last committed transaction): an answer made of what the cache held stays
    /// the same while this does (and while what it used is fresh). -1 when it cannot be read.
    public func generation() -> Int {
        (try? environment.info().lastTransactionID) ?? -1
    }

    /// The OMDb scores stored for `imdbIDs`, whatever their age, in order (nil where none), read
    /// in one transaction.
    public func omdbScores(_ imdbIDs: [String]) throws -> [OMDbScores?] {
        try guarded(imdbIDs.map { _ in nil }) {
            try environment.read { txn in
                try imdbIDs.map { id in
                    try txn.withValue(omdbScores, id) { bytes in bytes.flatMap { OMDbScores(decoding: $0, imdbID: id) } }
                }
            }
        }
    }

    /// Stores an OMDb answer and its scores in one write transaction.
    public func store(_ entry: CachedResponse, scores: OMDbScores) throws {
        let stored = Self.storageKey(entry.key)
        let bytes = entry.encoded()
        let compact = scores.encoded()
        try guarded(()) {
            try environment.write { txn in
                try txn.put(entries, stored, bytes)
                try txn.put(omdbScores, scores.imdbID, compact)
            }
        }
    }

    /// Removes every answer and every summary; answers how many answers there were.
    @discardableResult
    public func clear() throws -> Int {
        try environment.write { txn in
            let n = try txn.count(entries)
            try txn.clear(entries)
            try txn.clear(summaries)
            try txn.clear(omdbScores)
            return n
        }
    }

    public func statistics(now: Int64) throws -> CacheStatistics {
        var stats = CacheStatistics(path: path)
        try environment.read { txn in
            try txn.withCursor(entries) { cursor in
                var entry = try cursor.first()
                while let current = entry {
                    if let response = CachedResponse(decoding: current.value) {
                        stats.entries += 1
                        stats.bytes += response.body.count
                        let fresh = response.isFresh(at: now)
                        if fresh { stats.fresh += 1 }
                        stats.oldestStoredAt = min(stats.oldestStoredAt ?? response.storedAt, response.storedAt)
                        stats.newestStoredAt = max(stats.newestStoredAt ?? response.storedAt, response.storedAt)
                        var group = stats.byEndpoint[response.endpoint] ?? .init()
                        group.entries += 1
                        group.bytes += response.body.count
                        if fresh { group.fresh += 1 }
                        stats.byEndpoint[response.endpoint] = group
                    }
                    entry = try cursor.next()
                }
            }
            try txn.withCursor(summaries) { cursor in
                var entry = try cursor.first()
                while let current = entry {
                    if let summary = CachedSummary(decoding: current.value) {
                        stats.summaries += 1
                        if summary.isFresh(at: now) { stats.freshSummaries += 1 }
                    }
                    entry = try cursor.next()
                }
            }
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/data.mdb")
        stats.fileBytes = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        return stats
    }

    /// LMDB keys are at most 511 bytes; longer request keys are stored under an FNV-1a digest.
    static func storageKey(_ key: String) -> String {
        guard key.utf8.count > 400 else { return key }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "#" + String(repeating: "0", count: 16 - hex.count) + hex + "#" + String(decoding: Array(key.utf8.prefix(300)), as: UTF8.self)
    }
}
