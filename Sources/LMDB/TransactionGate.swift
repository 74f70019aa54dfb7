#if canImport(Glibc)
import Glibc
#endif

/// Counts the transactions alive in this process so the map can be resized when none is.
///
/// `mdb_env_set_mapsize` is only safe with no transaction live in the process, yet LMDB itself only
/// refuses when a *write* transaction is live: a live read transaction is silently invalidated.
/// Every transaction enters the gate; a resize waits until the count is zero and holds new
/// transactions back meanwhile. A thread that already holds a transaction of this environment
/// (nested reads are allowed with `MDB_NOTLS`) enters without waiting, since the resize cannot
/// have started while its outer transaction is live.
final class TransactionGate: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var live = 0
    private var resizing = false
    private var depthKey = pthread_key_t()

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        pthread_key_create(&depthKey, nil)
    }

    deinit {
        pthread_key_delete(depthKey)
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// How many transactions of this environment the calling thread holds.
    var threadDepth: Int {
        Int(bitPattern: pthread_getspecific(depthKey))
    }

    private func setThreadDepth(_ depth: Int) {
        pthread_setspecific(depthKey, UnsafeRawPointer(bitPattern: depth))
    }

    func enter() {
        let depth = threadDepth
        pthread_mutex_lock(mutex)
        if depth == 0 {
            while resizing { pthread_cond_wait(condition, mutex) }
        }
        live += 1
        pthread_mutex_unlock(mutex)
        setThreadDepth(depth + 1)
    }

    func leave() {
        setThreadDepth(threadDepth - 1)
        pthread_mutex_lock(mutex)
        live -= 1
        if live == 0 && resizing { pthread_cond_broadcast(condition) }
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` while no transaction is live in the process.
    ///
    /// A thread that holds a transaction itself would wait for itself forever, so it gets an error.
    func exclusive<T>(_ function: String, _ body: () throws -> T) throws -> T {
        guard threadDepth == 0 else {
            throw LMDBError(
                code: .badTxn, function: function,
                message: "the map must be resized, but this thread holds a transaction of the environment")
        }
        pthread_mutex_lock(mutex)
        while resizing { pthread_cond_wait(condition, mutex) }
        resizing = true
        while live > 0 { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
        defer {
            pthread_mutex_lock(mutex)
            resizing = false
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }
}
