import JSONKit
import Ledger

/// The join between the sample catalog's TMDb facts and OMDb's: IMDb ids as TMDb gives them
/// (`external_ids`, `/find`), and OMDb's facts by IMDb id.
extension SampleCatalog {
    /// A synthetic movie's IMDb id: `tt` and its TMDb id (`tt90000001`), a shape real IMDb ids
    /// (seven or eight digits, none yet from 90 000 000) do not take.
    static func syntheticIMDbID(_ id: Int) -> String { "tt\(id)" }

    /// The TMDb id of a synthetic movie's IMDb id, when `imdbID` is one (`tt` + a synthetic id).
    static func syntheticID(_ imdbID: String) -> Int? {
        guard imdbID.hasPrefix("tt"), let id = Int(imdbID.dropFirst(2)), id > syntheticBase, syntheticIMDbID(id) == imdbID else { return nil }
        return id
    }

    /// OMDb's facts about the title with IMDb id `imdbID`: as written for a sample title, generated
    /// for a synthetic movie, nil for an id the catalog does not have. A plain search of 121 titles
    /// (a microsecond), not an index to keep.
    func omdbFact(imdbID: String) -> SampleOMDbFact? {
        if let id = Self.syntheticID(imdbID) {
            guard let m = movie(id) else { return nil }
            return SampleOMDbFact.synthetic(m, n: id - Self.syntheticBase)
        }
        if let m = movies.first(where: { $0.imdb_id == imdbID }) { return m.omdb }
        return series.first { $0.imdb_id == imdbID }?.omdb
    }

    /// Every sample title's OMDb facts (synthetic movies' are made on request, not listed).
    var omdbFacts: [SampleOMDbFact] { movies.compactMap(\.omdb) + series.compactMap(\.omdb) }

    /// TMDb's `external_ids` of a title: its IMDb id, the other services' ids null (the sample
    /// catalog does not know them). `id` is the title's when asked for on its own
    /// (`/movie/ID/external_ids`), absent when appended to details, as TMDb does.
    func externalIDs(_ mediaType: MediaType, imdbID: String?, id: Int?) -> JSONValue {
        var o: [String: JSONValue] = [
            "imdb_id": .init(imdbID.map(JSONValue.string)), "wikidata_id": .null, "facebook_id": .null,
            "instagram_id": .null, "twitter_id": .null,
        ]
        if mediaType == .tv {
            for key in ["freebase_mid", "freebase_id", "tvdb_id", "tvrage_id"] { o[key] = .null }
        }
        if let id { o["id"] = .integer(Int64(id)) }
        return .object(o)
    }
}
