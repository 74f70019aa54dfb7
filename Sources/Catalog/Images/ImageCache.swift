import Foundation
import LMDB
import Synchronization

/// TMDb's images, in an LMDB environment of their own under the data directory (`images/`), so
/// they can be wiped apart from the answers and the ledger, and shared by every process.
///
/// Kept within a size cap (default 200 MB, `REEL_IMAGE_CACHE_MB`) by evicting the least recently
/// used, and never longer than TMDb's terms allow (six months from the fetch): older images are
/// not served and are removed by the next store. Entries are keyed `SIZE/FILE` (`w342/abc.jpg`):
/// no host, no credential (images need none). Only images TMDb serves are kept here, never an
/// account's own photo (that lives sealed in the ledger and dies with the account's key).
///
/// Databases: `images` (key → stored-at µs, 8 bytes big-endian, then the image's bytes), `used`
/// (key → last use µs, stored-at µs, byte count: 8 bytes each), `recency` (last use ++ key → ∅, in
/// order of use: eviction walks it from the start), `age` (stored-at ++ key → ∅: expiry walks it),
/// `totals` (`bytes` → the images' total size).
public final class ImageCache: Sendable {
    /// Six months (TMDb's terms): no image is served or kept longer after it was fetched.
    public static let maximumAge: Int64 = 183 * 86_400 * 1_000_000
    /// A lookup refreshes an image's last use at most this often (each refresh is a write).
    static let touchInterval: Int64 = 60 * 1_000_000
    public static let defaultCapBytes = 200 << 20
    public static let damageAdvice = "run 'reel cache clear --images'"

    public let path: String
    public let capBytes: Int
    private let environment: Environment
    private let images: Database<String, [UInt8]>
    private let used: Database<String, [UInt8]>
    private let recency: Database<[UInt8], [UInt8]>
    private let age: Database<[UInt8], [UInt8]>
    private let totals: Database<String, UInt64>
    private let damage: DamageSwitch

    /// The cap from `REEL_IMAGE_CACHE_MB` (a positive whole number of megabytes), else 200 MB.
    public static func capBytes(environment: [String: String]) -> Int {
        guard let text = environment["REEL_IMAGE_CACHE_MB"], let megabytes = Int(text), megabytes > 0, megabytes <= 1 << 20 else {
            return defaultCapBytes
        }
        return megabytes << 20
    }

    /// Opens (creating) the image cache in `directory`. Commits are not fsync'd: a power cut costs
    /// a refetch at most.
    public static func open(at directory: String, capBytes: Int = defaultCapBytes, onDamage: @escaping @Sendable (String) -> Void = { _ in }) throws -> ImageCache {
        let environment = try Environment.open(
            at: directory,
            configuration: .init(initialMapSize: 16 << 20, maximumMapSize: 1 << 38, maxDatabases: 8, durability: .unsafeNoSync)
        )
        environment.adviseOnDamage(damageAdvice)
        return ImageCache(
            path: directory, capBytes: capBytes, environment: environment, images: try environment.database(named: "images"),
            used: try environment.database(named: "used"), recency: try environment.database(named: "recency"),
            age: try environment.database(named: "age"), totals: try environment.database(named: "totals"), onDamage: onDamage)
    }

    private init(
        path: String, capBytes: Int, environment: Environment, images: Database<String, [UInt8]>, used: Database<String, [UInt8]>,
        recency: Database<[UInt8], [UInt8]>, age: Database<[UInt8], [UInt8]>, totals: Database<String, UInt64>,
        onDamage: @escaping @Sendable (String) -> Void
    ) {
        self.path = path
        self.capBytes = capBytes
        self.environment = environment
        self.images = images
        self.used = used
        self.recency = recency
        self.age = age
        self.totals = totals
        self.damage = DamageSwitch(what: "the image cache", advice: Self.damageAdvice, onDamage: onDamage)
    }

    /// Runs `body` unless the cache is off; damage it meets turns the cache off, told once.
    private func guarded<T>(_ off: T, _ body: () throws -> T) throws -> T { try damage.guarded(off, body) }

    /// The image stored under `key`, unless it is older than six months; a hit counts as a use.
    public func lookup(_ key: String, now: Int64) throws -> CachedImage? {
        let found: (CachedImage, Int64)? = try guarded(nil) {
            try environment.read { txn in
                guard let record = try txn.get(used, key).flatMap(UseRecord.init(decoding:)) else { return nil }
                return try txn.withValue(images, key) { bytes -> (CachedImage, Int64)? in
                    guard let bytes, bytes.count >= 8 else { return nil }
                    let storedAt = Int64(bitPattern: UInt64(bigEndianBytes: bytes.prefix(8)))
                    guard now - storedAt < Self.maximumAge else { return nil }
                    return (CachedImage(key: key, storedAt: storedAt, bytes: Array(bytes.dropFirst(8))), record.lastUsed)
                }
            }
        }
        guard let (image, lastUsed) = found else { return nil }
        if now - lastUsed >= Self.touchInterval { try touch(key, now: now) }
        return image
    }

    /// Whether an image is stored under `key` (whatever its age), without counting a use.
    public func contains(_ key: String) throws -> Bool {
        try guarded(false) { try environment.read { txn in try txn.contains(used, key) } }
    }

    private func touch(_ key: String, now: Int64) throws {
        try guarded(()) {
            try environment.write { txn in
                guard var record = try txn.get(used, key).flatMap(UseRecord.init(decoding:)) else { return }
                _ = try txn.delete(recency, Self.indexKey(record.lastUsed, key))
                record.lastUsed = now
                try txn.put(recency, Self.indexKey(now, key), [])
                try txn.put(used, key, record.encoded)
            }
        }
    }

    /// Stores `bytes` under `key`, then removes what is older than six months and, least recently
    /// used first, what no longer fits under the cap. An image larger than the cap is not kept.
    public func store(_ key: String, bytes: [UInt8], now: Int64) throws {
        guard bytes.count <= capBytes else { return }
        try guarded(()) {
            try environment.write { txn in
                var total = try txn.get(totals, "bytes") ?? 0
                try remove(key, from: txn, total: &total)
                try txn.put(images, key, UInt64(bitPattern: now).bigEndianBytes + bytes)
                try txn.put(used, key, UseRecord(lastUsed: now, storedAt: now, byteCount: UInt64(bytes.count)).encoded)
                try txn.put(recency, Self.indexKey(now, key), [])
                try txn.put(age, Self.indexKey(now, key), [])
                total += UInt64(bytes.count)
                try expire(txn, now: now, total: &total)
                try evict(txn, keeping: key, total: &total)
                try txn.put(totals, "bytes", total)
            }
        }
    }

    /// Removes what is older than six months (from the start of `age`).
    private func expire(_ txn: Transaction, now: Int64, total: inout UInt64) throws {
        while let first = try txn.withCursor(age, { try $0.first().map { Array($0.key) } }),
              let (storedAt, key) = Self.splitIndexKey(first), now - storedAt >= Self.maximumAge {
            try remove(key, from: txn, total: &total)
        }
    }

    /// Removes the least recently used until the total fits the cap (never `keeping`).
    private func evict(_ txn: Transaction, keeping: String, total: inout UInt64) throws {
        while total > UInt64(capBytes) {
            let victim = try txn.withCursor(recency) { cursor -> String? in
                var entry = try cursor.first()
                while let current = entry {
                    if let (_, key) = Self.splitIndexKey(Array(current.key)), key != keeping { return key }
                    entry = try cursor.next()
                }
                return nil
            }
            guard let victim else { return }
            try remove(victim, from: txn, total: &total)
        }
    }

    private func remove(_ key: String, from txn: Transaction, total: inout UInt64) throws {
        guard let record = try txn.get(used, key).flatMap(UseRecord.init(decoding:)) else { return }
        _ = try txn.delete(images, key)
        _ = try txn.delete(used, key)
        _ = try txn.delete(recency, Self.indexKey(record.lastUsed, key))
        _ = try txn.delete(age, Self.indexKey(record.storedAt, key))
        total -= min(total, record.byteCount)
    }

    /// How many images, how many bytes, the oldest and newest fetch.
    public func statistics(now: Int64) throws -> ImageCacheStatistics {
        var stats = ImageCacheStatistics(path: path, capBytes: capBytes)
        try environment.read { txn in
            stats.bytes = Int(try txn.get(totals, "bytes") ?? 0)
            try txn.withCursor(used) { cursor in
                var entry = try cursor.first()
                while let current = entry {
                    if let record = UseRecord(decoding: Array(current.value)) {
                        stats.images += 1
                        if now - record.storedAt >= Self.maximumAge { stats.expired += 1 }
                        stats.oldestStoredAt = min(stats.oldestStoredAt ?? record.storedAt, record.storedAt)
                        stats.newestStoredAt = max(stats.newestStoredAt ?? record.storedAt, record.storedAt)
                        stats.lastUsedAt = max(stats.lastUsedAt ?? record.lastUsed, record.lastUsed)
                    }
                    entry = try cursor.next()
                }
            }
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/data.mdb")
        stats.fileBytes = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        return stats
    }

    /// Forgets every image by removing the cache's files (so a damaged cache clears too);
    /// answers how many images there were (0 when unreadable or absent).
    public static func clear(at directory: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: directory + "/data.mdb") else { return 0 }
        let count: Int
        do {
            count = try DataFileCheck.check(directory: directory)?.entries(ofDatabaseNamed: "used") ?? 0
        } catch {
            count = 0
        }
        try Environment.removeTree(directory)
        return count
    }

    /// `stamp` (8 bytes big-endian, so byte order is time order) then the key's UTF-8.
    static func indexKey(_ stamp: Int64, _ key: String) -> [UInt8] {
        UInt64(bitPattern: stamp).bigEndianBytes + Array(key.utf8)
    }

    static func splitIndexKey(_ bytes: [UInt8]) -> (Int64, String)? {
        guard bytes.count > 8 else { return nil }
        return (Int64(bitPattern: UInt64(bigEndianBytes: bytes.prefix(8))), String(decoding: bytes.dropFirst(8), as: UTF8.self))
    }
}

/// An image's bookkeeping in `used`: last use, fetch time and size (8 bytes big-endian each).
struct UseRecord {
    var lastUsed: Int64
    var storedAt: Int64
    var byteCount: UInt64

    init(lastUsed: Int64, storedAt: Int64, byteCount: UInt64) {
        self.lastUsed = lastUsed
        self.storedAt = storedAt
        self.byteCount = byteCount
    }

    init?(decoding bytes: [UInt8]) {
        guard bytes.count == 24 else { return nil }
        lastUsed = Int64(bitPattern: UInt64(bigEndianBytes: bytes[0..<8]))
        storedAt = Int64(bitPattern: UInt64(bigEndianBytes: bytes[8..<16]))
        byteCount = UInt64(bigEndianBytes: bytes[16..<24])
    }

    var encoded: [UInt8] {
        UInt64(bitPattern: lastUsed).bigEndianBytes + UInt64(bitPattern: storedAt).bigEndianBytes + byteCount.bigEndianBytes
    }
}

extension UInt64 {
    var bigEndianBytes: [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: self >> (56 - 8 * $0)) } }

    init<C: Collection>(bigEndianBytes bytes: C) where C.Element == UInt8 {
        var value: UInt64 = 0
        for byte in bytes.prefix(8) { value = value << 8 | UInt64(byte) }
        self = value
    }
}
