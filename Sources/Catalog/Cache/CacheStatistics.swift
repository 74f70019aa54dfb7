/// What `reel cache stats` reports.
public struct CacheStatistics: Sendable, Equatable {
    public struct Group: Sendable, Equatable {
        public var entries = 0
        public var fresh = 0
        public var bytes = 0
    }

    public let path: String
    public var entries = 0
    public var fresh = 0
    public var bytes = 0
    public var oldestStoredAt: Int64?
    public var newestStoredAt: Int64?
    /// Per endpoint kind (`details`, `genres`, ...).
    public var byEndpoint: [String: Group] = [:]
    /// Size of the cache's data file on disk.
    public var fileBytes = 0
    /// Title summaries kept beside the details answers (see `ResponseCache`), and how many of
    /// them are fresh. Not counted in `entries`.
    public var summaries = 0
    public var freshSummaries = 0

    public var stale: Int { entries - fresh }

    public init(path: String) { self.path = path }
}
