import LMDB
import Synchronization

/// What a cache does about damage met by a read or a write: it is only a cache, so it turns off
/// for the rest of the process (nothing more is read from it or written into it) and says so once.
final class DamageSwitch: Sendable {
    private let damaged = Atomic<Bool>(false)
    /// The cache's name and the advice, for the one line: `the image cache`, `run '…'`.
    private let what: String
    private let advice: String
    private let onDamage: @Sendable (String) -> Void

    init(what: String, advice: String, onDamage: @escaping @Sendable (String) -> Void) {
        self.what = what
        self.advice = advice
        self.onDamage = onDamage
    }

    /// Runs `body` unless the cache is off (then `off`); damage it meets turns the cache off.
    func guarded<T>(_ off: T, _ body: () throws -> T) throws -> T {
        guard !damaged.load(ordering: .relaxed) else { return off }
        do {
            return try body()
        } catch let error as LMDBError where error.code.meansDamage {
            if !damaged.exchange(true, ordering: .relaxed) {
                onDamage("\(what) is damaged (\(error.message)); going on without it; \(advice)")
            }
            return off
        }
    }
}
