import Foundation

/// Runs blocking work (a child process, a pipe read, a poll with sleeps) on a thread of its own:
/// blocking one of the concurrency pool's threads (two on a 2-core machine) slows every test
/// running beside it, and timing checks elsewhere (the TMDb rate limiter's) then fail.
public func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
