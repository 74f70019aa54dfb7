public import Ledger

/// The TMDb v3 requests the viewer needs, built in one place with TMDb's path and parameter names.
extension CatalogRequest {
    /// Sub-requests folded into a details request with `append_to_response`.
    public enum Appendix: String, Sendable, CaseIterable, Comparable {
        case credits, similar, videos
        /// The title's ids elsewhere: the IMDb id OMDb is asked by.
        case externalIDs = "external_ids"

        public static func < (a: Appendix, b: Appendix) -> Bool { a.rawValue < b.rawValue }
    }

    static func tmdbPath(_ mediaType: MediaType) -> String { mediaType == .movie ? "movie" : "tv" }

    public static var configuration: CatalogRequest { CatalogRequest(.configuration, path: "/configuration") }

    public static var authentication: CatalogRequest { CatalogRequest(.authentication, path: "/authentication") }

    public static func genres(_ mediaType: MediaType, language: String) -> CatalogRequest {
        CatalogRequest(.genres, path: "/genre/\(tmdbPath(mediaType))/list", query: [("language", language)])
    }

    public static func details(_ mediaType: MediaType, id: Int, language: String, appending: Set<Appendix> = []) -> CatalogRequest {
        let append = appending.sorted().map(\.rawValue).joined(separator: ",")
        return CatalogRequest(.details, path: detailsPath(mediaType, id: id), query: [
            ("language", language), ("append_to_response", append.isEmpty ? nil : append),
        ])
    }

    /// `details` of each of `keys`, in order, with their `external_ids` (the IMDb id a list's
    /// OMDb scores are found by): their shared query is built once.
    static func details(of keys: [MediaKey], language: String) -> [CatalogRequest] {
        guard let first = keys.first else { return [] }
        let shared = details(first.mediaType, id: Int(first.id), language: language, appending: [.externalIDs])
        let encoded = shared.query.map(\.encoded).joined(separator: "&")
        return keys.map { CatalogRequest(.details, path: detailsPath($0.mediaType, id: Int($0.id)), sortedQuery: shared.query, encodedQuery: encoded) }
    }

    private static func detailsPath(_ mediaType: MediaType, id: Int) -> String { "/\(tmdbPath(mediaType))/\(id)" }

    public static func similar(_ mediaType: MediaType, id: Int, page: Int = 1, language: String) -> CatalogRequest {
        CatalogRequest(.similar, path: "/\(tmdbPath(mediaType))/\(id)/similar", query: [("language", language), ("page", String(page))])
    }

    public static func videos(_ mediaType: MediaType, id: Int, language: String) -> CatalogRequest {
        CatalogRequest(.videos, path: "/\(tmdbPath(mediaType))/\(id)/videos", query: [("language", language)])
    }

    public static func credits(_ mediaType: MediaType, id: Int, language: String) -> CatalogRequest {
        CatalogRequest(.credits, path: "/\(tmdbPath(mediaType))/\(id)/credits", query: [("language", language)])
    }

    public static func person(_ id: Int, language: String, withCredits: Bool = true) -> CatalogRequest {
        CatalogRequest(.person, path: "/person/\(id)", query: [
            ("language", language), ("append_to_response", withCredits ? "combined_credits" : nil),
        ])
    }

    public static func personCredits(_ id: Int, language: String) -> CatalogRequest {
        CatalogRequest(.person, path: "/person/\(id)/combined_credits", query: [("language", language)])
    }

    public enum Kind: String, Sendable { case movie, tv, person, multi }

    public static func search(_ kind: Kind, query text: String, page: Int = 1, language: String, year: Int? = nil) -> CatalogRequest {
        var query: [(String, String?)] = [("query", text), ("page", String(page)), ("language", language), ("include_adult", "false")]
        switch kind {
        case .movie: query.append(("year", year.map(String.init)))
        case .tv: query.append(("first_air_date_year", year.map(String.init)))
        case .person, .multi: break
        }
        return CatalogRequest(.search, path: "/search/\(kind.rawValue)", query: query)
    }

    /// TMDb's titles with an IMDb id (`/find/{id}?external_source=imdb_id`).
    public static func find(imdbID: String, language: String) -> CatalogRequest {
        CatalogRequest(.find, path: "/find/\(imdbID)", query: [("external_source", "imdb_id"), ("language", language)])
    }

    public enum Chart: String, Sendable { case popular, topRated = "top_rated" }

    public static func chart(_ chart: Chart, _ mediaType: MediaType, page: Int = 1, language: String, region: String? = nil) -> CatalogRequest {
        CatalogRequest(.list, path: "/\(tmdbPath(mediaType))/\(chart.rawValue)", query: [
            ("language", language), ("page", String(page)), ("region", mediaType == .movie ? region : nil),
        ])
    }
}
