import Synchronization

/// What one client did, for `--json` diagnostics, tests and the benchmark.
public struct FetchCounts: Sendable, Equatable {
    /// Answered from a fresh cache entry.
    public var cacheHits = 0
    /// Requests sent over the network (each retry counts).
    public var networkRequests = 0
    /// 304s that refreshed a cache entry.
    public var revalidated = 0
    public var retries = 0
    /// Stale entries served because TMDb failed or the client is offline.
    public var staleServed = 0
    /// Callers that joined an identical request in flight.
    public var joined = 0
    /// Titles answered from the summary cache without reading their JSON (also counted in
    /// `cacheHits` when fresh, in `staleServed` when served stale offline).
    public var summaryHits = 0
}

final class FetchCounters: Sendable {
    private let counts = Mutex(FetchCounts())

    func bump(_ field: WritableKeyPath<FetchCounts, Int>, by n: Int = 1) {
        counts.withLock { $0[keyPath: field] += n }
    }

    var snapshot: FetchCounts { counts.withLock { $0 } }
}
