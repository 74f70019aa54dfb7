import Foundation
import LMDB
import Synchronization

/// OMDb's daily request budget (a free key allows 1,000 requests a day, reset at midnight UTC),
/// counted per key per UTC day in a small LMDB environment beside the response cache, shared by
/// every process: taking a request is one write transaction, and LMDB's writers take turns, so
/// two processes never both take the last one. `reel cache clear` leaves it (clearing the cache
/// must not hand out a new day's budget).
///
/// Keys are a slot (`OMDbBudgetSlot`: a salted hash of the key, never the key) and a day number.
/// Bulk work (filling a saved list) stops short of the limit, so what the user is looking at
/// (one title's details) always has requests left: `bulkCeiling`.
///
/// When the store cannot be opened or is damaged, requests are counted in this process only.
public final class OMDbBudget: Sendable {
    public enum Priority: Sendable, Equatable {
        /// What the user is looking at: may spend the whole budget.
        case interactive
        /// Filling lists: stops at `bulkCeiling(of:)`.
        case bulk
    }

    /// What one day of a slot holds.
    public struct Usage: Sendable, Equatable {
        public let used: Int
        public let limit: Int
        /// The UTC day (days since 1970).
        public let day: Int64
        /// When the day ends (microseconds since 1970, UTC): the next midnight.
        public var resetsAt: Int64 { (day + 1) * OMDbBudget.microsecondsPerDay }
        public var left: Int { max(0, limit - used) }
        public var bulkLeft: Int { max(0, OMDbBudget.bulkCeiling(of: limit) - used) }
    }

    public static let microsecondsPerDay: Int64 = 86_400_000_000

    /// The UTC day of `now` (microseconds since 1970).
    public static func day(of now: Int64) -> Int64 { now >= 0 ? now / microsecondsPerDay : (now + 1) / microsecondsPerDay - 1 }

    /// How much of `limit` bulk work may use: all but a tenth (at least one request) kept for
    /// what the user is looking at.
    public static func bulkCeiling(of limit: Int) -> Int { max(0, limit - max(1, limit / 10)) }

    public let path: String?
    private let environment: Environment?
    private let counts: Database<String, UInt32>?
    private let damage: DamageSwitch
    /// Counts kept in this process when the store is absent or turned off by damage.
    private let local = Mutex<[String: UInt32]>([:])
    /// Set when a write failed for another reason than damage (a full disk): said once.
    private let writeFailed = Atomic<Bool>(false)
    private let onProblem: @Sendable (String) -> Void

    /// Opens (creating) the store in `directory`; throws when it cannot (see `inProcess`).
    public static func open(at directory: String, onDamage: @escaping @Sendable (String) -> Void = { _ in }) throws -> OMDbBudget {
        try Environment.createDirectory(directory)
        let environment = try Environment.open(
            at: directory, configuration: .init(initialMapSize: 1 << 20, maximumMapSize: 1 << 30, maxDatabases: 2, durability: .unsafeNoSync))
        environment.adviseOnDamage("remove \(directory) (the day's count starts again)")
        return OMDbBudget(path: directory, environment: environment, counts: try environment.database(named: "counts"), onDamage: onDamage)
    }

    /// A budget counted in this process alone (the store could not be opened).
    public static func inProcess() -> OMDbBudget { OMDbBudget(path: nil, environment: nil, counts: nil, onDamage: { _ in }) }

    private init(path: String?, environment: Environment?, counts: Database<String, UInt32>?, onDamage: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.environment = environment
        self.counts = counts
        damage = DamageSwitch(what: "the OMDb budget store", advice: "requests are counted in this process only", onDamage: onDamage)
        onProblem = onDamage
    }

    public var isShared: Bool { environment != nil }

    /// Takes one request from `slot`'s budget for `day`: false (nothing taken) when the day's
    /// count has reached `limit`, or for bulk work `bulkCeiling(of: limit)`.
    public func take(slot: String, day: Int64, limit: Int, priority: Priority) -> Bool {
        let ceiling = priority == .interactive ? limit : Self.bulkCeiling(of: limit)
        let key = Self.key(slot, day)
        if let taken = stored({ txn, counts in
            let used = Int(try txn.get(counts, key) ?? 0)
            guard used < ceiling else { return false }
            if used == 0 { try Self.forgetOtherDays(of: slot, keeping: key, txn, counts) }
            try txn.put(counts, key, UInt32(used + 1))
            return true
        }) {
            return taken
        }
        return local.withLock { local in
            let used = Int(local[key] ?? 0)
            guard used < ceiling else { return false }
            local[key] = UInt32(used + 1)
            return true
        }
    }

    /// Records that OMDb said the day's limit is reached ("Request limit reached!"): the day's
    /// count becomes at least `limit`, for every process.
    public func markSpent(slot: String, day: Int64, limit: Int) {
        let key = Self.key(slot, day)
        let value = UInt32(clamping: limit)
        if stored({ txn, counts in
            if Int(try txn.get(counts, key) ?? 0) < limit { try txn.put(counts, key, value) }
            return true
        }) != nil { return }
        local.withLock { $0[key] = max($0[key] ?? 0, value) }
    }

    /// The day's count of `slot`.
    public func usage(slot: String, day: Int64, limit: Int) -> Usage {
        let key = Self.key(slot, day)
        var used = 0
        if let environment, let counts, let count = try? damage.guarded(nil, { try environment.read { try $0.get(counts, key) } }) {
            used = Int(count)
        } else {
            used = Int(local.withLock { $0[key] } ?? 0)
        }
        return Usage(used: used, limit: limit, day: day)
    }

    /// Runs `body` in a write transaction of the store; nil when there is no store, it is off,
    /// or the write failed (said once: this process then counts alone).
    private func stored(_ body: (Transaction, Database<String, UInt32>) throws -> Bool) -> Bool? {
        guard let environment, let counts else { return nil }
        do {
            return try damage.guarded(nil) { try environment.write { txn in try body(txn, counts) } }
        } catch {
            if !writeFailed.exchange(true, ordering: .relaxed) {
                onProblem("the OMDb budget store \(path ?? "") cannot be written (\(error)); requests are counted in this process only")
            }
            return nil
        }
    }

    private static func key(_ slot: String, _ day: Int64) -> String { "\(slot) \(day)" }

    /// Removes the slot's counts of other days (at its first request of a day): the store holds
    /// one entry per key in use.
    private static func forgetOtherDays(of slot: String, keeping key: String, _ txn: Transaction, _ counts: Database<String, UInt32>) throws {
        let prefix = slot + " "
        var stale: [String] = []
        try txn.withCursor(counts) { cursor in
            var entry = try cursor.seek(atLeast: prefix)
            while let current = entry, let name = try? current.decodeKey(as: String.self), name.hasPrefix(prefix) {
                if name != key { stale.append(name) }
                entry = try cursor.next()
            }
        }
        for name in stale { _ = try txn.delete(counts, name) }
    }
}
