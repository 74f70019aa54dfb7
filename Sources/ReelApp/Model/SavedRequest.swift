public import Reel

/// The saved list the Saved tab asks the core for (`Application.savedList`, as `reel saved`):
/// its order, genres, and a point in the past. The filter-as-you-type is applied to the rows
/// that come back, without asking again.
public struct SavedRequest: Sendable, Equatable {
    public var order: SavedListQuery.Order = .added
    public var descending = false
    /// Only titles with all of these genres (their names in the account's language).
    public var genres: [String] = []
    /// With several genres: titles with any of them.
    public var anyGenre = false
    /// The stream version the list is shown as of; `nil`: now.
    public var asOf: UInt64?

    public init(
        order: SavedListQuery.Order = .added, descending: Bool = false, genres: [String] = [], anyGenre: Bool = false, asOf: UInt64? = nil
    ) {
        self.order = order
        self.descending = descending
        self.genres = genres
        self.anyGenre = anyGenre
        self.asOf = asOf
    }

    /// The core's query for it.
    public var query: SavedListQuery {
        SavedListQuery(order: order, descending: descending, genres: genres, anyGenre: anyGenre, asOf: asOf.map { .streamVersion($0) })
    }

    /// The genres in words, as Movies names its own: `Comedy`, `Comedy + Drama (any)`; `nil`: none.
    public var genresName: String? {
        guard !genres.isEmpty else { return nil }
        return genres.joined(separator: " + ") + (genres.count > 1 ? (anyGenre ? " (any)" : " (all)") : "")
    }

    /// The order in words: `by title, A to Z`, `by rating, best first`.
    public var orderName: String {
        switch (order, descending) {
        case (.added, false): "in the order saved"
        case (.added, true): "last saved first"
        case (.title, false): "by title, A to Z"
        case (.title, true): "by title, Z to A"
        case (.release, false): "by release, oldest first"
        case (.release, true): "by release, newest first"
        case (.rating, false): "by rating, lowest first"
        case (.rating, true): "by rating, best first"
        case (.imdb, false): "by IMDb rating, lowest first"
        case (.imdb, true): "by IMDb rating, best first"
        case (.metascore, false): "by Metascore, lowest first"
        case (.metascore, true): "by Metascore, best first"
        case (.tomatometer, false): "by Tomatometer, lowest first"
        case (.tomatometer, true): "by Tomatometer, best first"
        }
    }
}
