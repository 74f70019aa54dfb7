import Foundation
import HTTPTypes
import Synchronization

/// A budget per key (a token, a client's address): a token bucket of `burst` requests refilled at
/// `rate` a second.
/// A request over budget is 429 with `Retry-After` (whole seconds until one request is free).
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }
    private let rate: Double
    private let burst: Double
    /// What is counted, as the refusal names it ("requests for this token").
    private let counted: String
    private let buckets = Mutex([String: Bucket]())

    init(rate: Double, burst: Double, counting counted: String = "requests for this token") {
        self.rate = rate
        self.burst = burst
        self.counted = counted
    }

    /// Takes one request from `key`'s bucket, or throws the 429 problem.
    func admit(_ key: String, now: ContinuousClock.Instant = .now) throws {
        let wait = buckets.withLock { buckets -> Double? in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            let elapsed = Double((now - bucket.updated).components.attoseconds) / 1e18 + Double((now - bucket.updated).components.seconds)
            bucket.tokens = min(burst, bucket.tokens + max(0, elapsed) * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
            bucket.tokens -= 1
            return nil
        }
        if let wait {
            let seconds = max(1, Int(wait.rounded(.up)))
            throw Problem(.tooManyRequests, kind: "rateLimited", "too many \(counted): try again in \(seconds) s", headers: [.retryAfter: String(seconds)])
        }
    }
}
