import Dispatch
import Synchronization

/// Work started on another thread now, its result collected later (read-ahead for replays).
final class Prefetch<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () throws -> T) {
        DispatchQueue.global().async { [self] in
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
            done.signal()
        }
    }

    /// Waits for the work and returns its result or rethrows its error.
    func value() throws -> T {
        done.wait()
        return try result.withLock { $0! }.get()
    }
}
