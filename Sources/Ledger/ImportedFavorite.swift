/// A title to import, with when it was first saved where it comes from.
public struct ImportedFavorite: Sendable, Hashable {
    public let key: MediaKey
    /// Microseconds since 1970-01-01T00:00:00Z.
    public let addedAt: Int64

    public init(key: MediaKey, addedAt: Int64) {
        self.key = key
        self.addedAt = addedAt
    }

    /// What an import names as where its titles come from: another Reel ledger's export, or the
    /// apps whose lists `reel account import` reads (`events/favorite-imported.v1.schema.json`).
    public static let sources: Set<String> = ["reel", "letterboxd", "imdb", "trakt"]

    /// Refuses a source Reel does not import from.
    public static func check(source: String) throws(DomainError) {
        guard sources.contains(source) else { throw .invalidImportSource(source) }
    }
}
