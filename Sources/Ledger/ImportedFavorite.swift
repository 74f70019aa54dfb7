/// A title to import, with when it was first saved where it comes from.
public struct ImportedFavorite: Sendable, Hashable {
    public let key: MediaKey
    /// Microseconds since 1970-01-01T00:00:00Z.
    public let addedAt: Int64

    public init(key: MediaKey, addedAt: Int64) {
        self.key = key
        self.addedAt = addedAt
    }
}
