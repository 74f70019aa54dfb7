import Ledger

/// Which saved titles to show and in what order.
public struct SavedListQuery: Sendable, Hashable {
    public enum Order: String, Sendable, Hashable, CaseIterable {
        case added, title, release, rating
        /// OMDb's scores: the IMDb rating, Metacritic's Metascore, Rotten Tomatoes' Tomatometer.
        case imdb, metascore, tomatometer

        /// The direction each key sorts in unless told otherwise, the same as `movies` has: the
        /// best rated and the newest released first; titles A to Z; the list in the order saved.
        public var descendsByDefault: Bool { self != .added && self != .title }

        /// Whether the order is by one of OMDb's scores.
        public var isOMDb: Bool { self == .imdb || self == .metascore || self == .tomatometer }
    }

    public var mediaType: MediaType?
    /// Only titles containing this text (case and accents ignored).
    public var search: String?
    public var order: Order = .added
    /// Last saved, Z, newest or best first.
    public var descending = false
    /// Only titles with all of these genres (names in the account's language, or TMDb ids).
    public var genres: [String] = []
    /// With several genres: titles with any of them.
    public var anyGenre = false
    public var asOf: AsOf?

    public init(
        mediaType: MediaType? = nil, search: String? = nil, order: Order = .added, descending: Bool = false, genres: [String] = [],
        anyGenre: Bool = false, asOf: AsOf? = nil
    ) {
        self.mediaType = mediaType
        self.search = search
        self.order = order
        self.descending = descending
        self.genres = genres
        self.anyGenre = anyGenre
        self.asOf = asOf
    }
}
