/// What `reel cache stats` tells about the image cache.
public struct ImageCacheStatistics: Sendable, Equatable {
    public var path: String
    public var capBytes: Int
    public var images = 0
    /// The images' own bytes (what the cap limits).
    public var bytes = 0
    /// The file's size on disk (LMDB does not shrink its file; freed pages are reused).
    public var fileBytes = 0
    /// Older than six months (not served; removed by the next store).
    public var expired = 0
    public var oldestStoredAt: Int64?
    public var newestStoredAt: Int64?
    public var lastUsedAt: Int64?

    public init(path: String, capBytes: Int) {
        self.path = path
        self.capBytes = capBytes
    }
}
