/// An image as the cache keeps it: the bytes TMDb sent (JPEG or PNG) and when they were fetched.
public struct CachedImage: Sendable, Equatable {
    /// `SIZE/FILE`, e.g. `w342/abc.jpg`.
    public let key: String
    /// Microseconds since 1970.
    public let storedAt: Int64
    public let bytes: [UInt8]
}
