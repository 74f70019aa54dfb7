public import Pictures

/// An image as TMDb serves it, ready to decode or write to a file.
public struct FetchedImage: Sendable, Equatable {
    /// Where it came from (TMDb's image host carries no credential in its URLs).
    public let url: String
    /// The size fetched (`w342`, `original`, …).
    public let size: String
    public let format: PictureFormat
    /// Pixels, from the header.
    public let width: Int
    public let height: Int
    public let bytes: [UInt8]
    /// Served from the image cache (no network).
    public let fromCache: Bool
}
