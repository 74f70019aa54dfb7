import Catalog
import Ledger

/// What a list row needs to know about a movie or series: the catalog's facts in the account's
/// language, one shape for both media types, from a details answer (the catalog's summary of it,
/// which its cache keeps) or a list row.
public typealias TitleSummary = DetailsSummary

extension TitleSummary {
    public var year: Int? { date?.year }

    /// `Fight Club (1999)`, or the bare title when the date is unknown.
    public var label: String { year.map { "\(title) (\($0))" } ?? title }

    /// Whether the genre list has `wanted`: a genre id ("18") or a name, ignoring case and accents.
    public func hasGenre(_ wanted: String) -> Bool {
        if let id = Int(wanted) { return genres.contains { $0.id == id } }
        let folded = TextFolding.fold(wanted)
        return genres.contains { TextFolding.fold($0.name) == folded }
    }

    /// Whether the title (or the original title) contains `text`, ignoring case and accents.
    public func matches(_ text: String) -> Bool {
        TextFolding.contains(title, text) || originalTitle.map { TextFolding.contains($0, text) } == true
    }
}

extension TitleSummary {
    /// A list row, its genre ids named from `genres` (ids the list does not know are kept as ids).
    public init?(_ row: MediaSummary, genres: GenreList?) {
        func named(_ ids: [Int]) -> [Genre] { ids.map { Genre(id: $0, name: genres?.name(of: $0) ?? "#\($0)") } }
        switch row {
        case .movie(let m):
            guard let key = try? MediaKey(.movie, Int64(m.id)) else { return nil }
            self.init(key: key, title: m.title, originalTitle: m.originalTitle, date: m.releaseDate, genres: named(m.genreIDs),
                      voteAverage: m.voteAverage, voteCount: m.voteCount, popularity: m.popularity, posterPath: m.posterPath)
        case .series(let s):
            guard let key = try? MediaKey(.tv, Int64(s.id)) else { return nil }
            self.init(key: key, title: s.name, originalTitle: s.originalName, date: s.firstAirDate, genres: named(s.genreIDs),
                      voteAverage: s.voteAverage, voteCount: s.voteCount, popularity: s.popularity, posterPath: s.posterPath)
        }
    }
}
