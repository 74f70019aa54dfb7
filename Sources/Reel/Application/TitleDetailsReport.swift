import Catalog
import Ledger

/// A movie's or series' details in the account's language, one shape for both, built from the
/// catalog's answers, and whether the account saved it. Its texts are TMDb's as they came (a
/// front end makes them safe for where it shows them), so its fields can be replaced.
public struct TitleDetailsReport: Sendable {
    public typealias Date = TMDbDate

    public struct Similar: Sendable {
        public var key: MediaKey
        public var title: String
        public var year: Int?
        /// TMDb's path of its poster (`/abc.jpg`), if it has one.
        public var posterPath: String?
        /// When the account saved it; `nil`: not saved.
        public var savedAt: Int64?
    }

    /// One of the cast, in billing order, with the TMDb person id a front end opens them by.
    public struct CastMember: Sendable {
        public var id: Int
        public var name: String
        public var character: String?
    }

    public var key: MediaKey
    public var language: String
    public var title: String
    public var originalTitle: String?
    public var date: Date?
    /// Series: the last air date.
    public var endDate: Date?
    public var genres: [String]
    public var overview: String?
    public var tagline: String?
    public var voteAverage: Double
    public var voteCount: Int
    public var popularity: Double
    /// Minutes (series: per episode).
    public var runtime: Int?
    public var seasons: Int?
    public var episodes: Int?
    public var status: String?
    public var originalLanguage: String?
    public var spokenLanguages: [String]
    public var companies: [String]
    /// `Directed by` (movies) or `Created by` (series), then `Starring` (the first five of the cast).
    public var people: [(role: String, names: [String])]
    /// The first ten of the cast, with their ids (`people` names the first five).
    public var cast: [CastMember]
    public var trailers: [(name: String, url: String)]
    public var posterURL: String?
    public var backdropURL: String?
    /// TMDb's paths of the poster and backdrop (for `Application.image`), nil when it has none.
    public var posterPath: String?
    public var backdropPath: String?
    public var similar: [Similar]
    /// When the account saved the title; `nil`: not saved.
    public var savedAt: Int64?
    /// The IMDb id TMDb links the title to (`external_ids`), which OMDb is asked by.
    public var imdbID: String?
    /// OMDb's facts, when it had them (`omdbStatus` says why not otherwise).
    public var omdb: OMDbFacts?
    /// What asking OMDb came to (`OMDbFacts.status(of:)`): `found`, `missing`, `budget-spent`, … `off`.
    public var omdbStatus = "off"

    /// The details of `key` from `client`, with similar titles when asked for; `saved` tells
    /// which of them the account saved, and when.
    static func fetch(_ key: MediaKey, language: String, similar wantSimilar: Bool, saved: [MediaKey: Int64], from client: CatalogClient)
        async throws -> TitleDetailsReport
    {
        let savedAt = saved[key]
        let images = try await client.configuration().images
        var appending: Set<CatalogRequest.Appendix> = [.credits, .videos, .externalIDs]
        if wantSimilar { appending.insert(.similar) }
        switch key.mediaType {
        case .movie:
            let m = try await client.movie(Int(key.id), language: language, appending: appending)
            let directors: [String] = m.credits?.directors.map(\.name) ?? []
            let cast: [String] = m.credits.map { Array($0.cast.prefix(5)).map(\.name) } ?? []
            let members = Self.members(m.credits)
            let trailers: [(name: String, url: String)] = (m.videos?.trailers ?? []).compactMap { v in v.watchURL.map { (v.name, $0) } }
            let similar: [Similar] = (m.similar?.results ?? []).compactMap { s in
                guard let k = try? MediaKey(.movie, Int64(s.id)) else { return nil }
                return Similar(key: k, title: s.title, year: s.releaseDate?.year, posterPath: s.posterPath, savedAt: saved[k])
            }
            return TitleDetailsReport(
                key: key, language: language, title: m.title, originalTitle: m.originalTitle, date: m.releaseDate, endDate: nil,
                genres: m.genres.map(\.name), overview: m.overview, tagline: m.tagline, voteAverage: m.voteAverage,
                voteCount: m.voteCount, popularity: m.popularity, runtime: m.runtime, seasons: nil, episodes: nil,
                status: m.status, originalLanguage: m.originalLanguage, spokenLanguages: m.spokenLanguages.map(\.displayName),
                companies: m.productionCompanies.map(\.name),
                people: [("Directed by", directors), ("Starring", cast)], cast: members, trailers: trailers,
                posterURL: images.url(m.posterPath, kind: .poster, size: "w500"),
                backdropURL: images.url(m.backdropPath, kind: .backdrop, size: "w1280"),
                posterPath: m.posterPath, backdropPath: m.backdropPath, similar: similar, savedAt: savedAt, imdbID: m.imdbID
            )
        case .tv:
            let s = try await client.series(Int(key.id), language: language, appending: appending)
            let creators: [String] = s.createdBy.map(\.name)
            let cast: [String] = s.credits.map { Array($0.cast.prefix(5)).map(\.name) } ?? []
            let members = Self.members(s.credits)
            let trailers: [(name: String, url: String)] = (s.videos?.trailers ?? []).compactMap { v in v.watchURL.map { (v.name, $0) } }
            let similar: [Similar] = (s.similar?.results ?? []).compactMap { r in
                guard let k = try? MediaKey(.tv, Int64(r.id)) else { return nil }
                return Similar(key: k, title: r.name, year: r.firstAirDate?.year, posterPath: r.posterPath, savedAt: saved[k])
            }
            return TitleDetailsReport(
                key: key, language: language, title: s.name, originalTitle: s.originalName, date: s.firstAirDate, endDate: s.lastAirDate,
                genres: s.genres.map(\.name), overview: s.overview, tagline: s.tagline, voteAverage: s.voteAverage,
                voteCount: s.voteCount, popularity: s.popularity, runtime: s.episodeRunTime.first, seasons: s.numberOfSeasons,
                episodes: s.numberOfEpisodes, status: s.status, originalLanguage: s.originalLanguage,
                spokenLanguages: s.spokenLanguages.map(\.displayName), companies: (s.networks + s.productionCompanies).map(\.name),
                people: [("Created by", creators), ("Starring", cast)], cast: members, trailers: trailers,
                posterURL: images.url(s.posterPath, kind: .poster, size: "w500"),
                backdropURL: images.url(s.backdropPath, kind: .backdrop, size: "w1280"),
                posterPath: s.posterPath, backdropPath: s.backdropPath, similar: similar, savedAt: savedAt, imdbID: s.imdbID
            )
        }
    }

    /// The first ten of `credits`' cast.
    private static func members(_ credits: Credits?) -> [CastMember] {
        (credits?.cast ?? []).prefix(10).map { CastMember(id: $0.id, name: $0.name, character: $0.character) }
    }
}
