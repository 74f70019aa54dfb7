import Foundation
import JSONKit
import Ledger

/// Answers TMDb v3 requests from a `SampleCatalog` with TMDb's paths, query semantics and error
/// bodies: 20 results a page, pages 1…500, `sort_by`, `with_genres` (`,` all / `|` any),
/// `with_people`, years, search by query, `language` with English fallback, `append_to_response`
/// (`external_ids` among them: the IMDb id that joins a title to OMDb's facts, which
/// `SampleOMDbResponder` answers). Shared by the in-process sample transport and the `fake-tmdb` server.
public struct SampleResponder: Sendable {
    public struct Answer: Sendable {
        public let status: Int
        public let body: [UInt8]
    }

    public static let pageSize = 20

    public let catalog: SampleCatalog

    public init(catalog: SampleCatalog) { self.catalog = catalog }

    // TMDb's own error bodies, byte for byte as captured.
    public static let resourceNotFound = Answer(status: 404, body: Array(#"{"success":false,"status_code":34,"status_message":"The resource you requested could not be found."}"#.utf8))
    public static let invalidID = Answer(status: 404, body: Array(#"{"success":false,"status_code":6,"status_message":"Invalid id: The pre-requisite id is invalid or not found."}"#.utf8))
    public static let invalidPage = Answer(status: 400, body: Array(#"{"success":false,"status_code":22,"status_message":"Invalid page: Pages start at 1 and max at 500. They are expected to be an integer."}"#.utf8))
    public static let queryMissing = Answer(status: 422, body: Array(#"{"errors":["query must be provided"]}"#.utf8))
    public static let tooManyAppended = Answer(status: 400, body: Array(#"{"success":false,"status_code":27,"status_message":"Too many append to response objects: The maximum number of remote calls is 20."}"#.utf8))
    public static let invalidAPIKey = Answer(status: 401, body: Array(#"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}"#.utf8))

    /// `/configuration` naming `imageBaseURL` as the image host (`http://127.0.0.1:PORT/t/p/`), for
    /// a server that serves the sample art itself.
    public static func configuration(imageBaseURL: String) -> Answer {
        Answer(status: 200, body: SampleCatalog.configuration(imageBaseURL: imageBaseURL).encoded())
    }

    /// `path` is below the API root (`/movie/550`, no `/3`).
    public func respond(path: String, query: [QueryItem]) -> Answer {
        var params: [String: String] = [:]
        for item in query where params[item.name] == nil { params[item.name] = item.value }
        let lang = SampleLanguage(params["language"])
        let parts = path.split(separator: "/").map(String.init)
        guard let first = parts.first else { return Self.resourceNotFound }
        switch (first, parts.count) {
        case ("configuration", 1): return ok(SampleCatalog.configuration)
        case ("authentication", 1): return ok(["success": true, "status_code": 1, "status_message": "Success."])
        case ("genre", 3) where parts[2] == "list":
            guard let mediaType = MediaType(rawValue: parts[1]) else { return Self.resourceNotFound }
            return ok(catalog.genreList(mediaType, lang))
        case ("discover", 2):
            guard let mediaType = MediaType(rawValue: parts[1]) else { return Self.resourceNotFound }
            return discover(mediaType, params, lang)
        case ("search", 2):
            return search(parts[1], params, lang)
        case ("find", 2):
            guard params["external_source"] == "imdb_id" else {
                return Answer(status: 400, body: Array(#"{"success":false,"status_code":5,"status_message":"Invalid parameters: Your request parameters are incorrect."}"#.utf8))
            }
            return ok(find(imdbID: parts[1], lang))
        case ("movie", 2), ("tv", 2):
            let mediaType: MediaType = first == "movie" ? .movie : .tv
            if parts[1] == "popular" || parts[1] == "top_rated" { return chart(parts[1], mediaType, params, lang) }
            return details(mediaType, parts[1], params, lang)
        case ("movie", 3), ("tv", 3):
            return subresource(first == "movie" ? .movie : .tv, parts[1], parts[2], params, lang)
        case ("person", 2):
            guard let id = Self.id(parts[1]) else { return Self.invalidID }
            guard let p = catalog.person(id) else { return Self.resourceNotFound }
            guard let appending = appendix(params) else { return Self.tooManyAppended }
            return ok(catalog.personDetails(p, lang, appending: appending))
        case ("person", 3) where parts[2] == "combined_credits":
            guard let id = Self.id(parts[1]) else { return Self.invalidID }
            guard catalog.person(id) != nil else { return Self.resourceNotFound }
            return ok(catalog.combinedCredits(id, lang, id: id))
        default:
            return Self.resourceNotFound
        }
    }

    /// `/find/IMDBID?external_source=imdb_id`: the movie or series with that IMDb id (a synthetic
    /// movie's too), each with its `media_type`, in TMDb's lists by kind.
    private func find(imdbID: String, _ lang: SampleLanguage) -> JSONValue {
        var movies = catalog.movies.filter { $0.imdb_id == imdbID }
        if movies.isEmpty, let id = SampleCatalog.syntheticID(imdbID), let m = catalog.movie(id) { movies = [m] }
        let series = catalog.series.filter { $0.imdb_id == imdbID }
        func tagged(_ o: [String: JSONValue], _ type: JSONValue) -> JSONValue { .object(o.merging(["media_type": type]) { _, new in new }) }
        return [
            "movie_results": .array(movies.map { tagged(catalog.movieSummary($0, lang), "movie") }),
            "tv_results": .array(series.map { tagged(catalog.seriesSummary($0, lang), "tv") }),
            "person_results": [], "tv_episode_results": [], "tv_season_results": [],
        ]
    }

    private func ok(_ value: JSONValue) -> Answer { Answer(status: 200, body: value.encoded()) }

    private static func id(_ text: String) -> Int? {
        guard let n = Int(text), n > 0, n <= Int(Int32.max) else { return nil }
        return n
    }

    private func appendix(_ params: [String: String]) -> Set<String>? {
        let names = (params["append_to_response"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return names.count > 20 ? nil : Set(names)
    }

    private func videoLanguages(_ params: [String: String]) -> [String]? {
        params["include_video_language"].map { $0.split(separator: ",").map { String($0).lowercased() } }
    }

    private func details(_ mediaType: MediaType, _ idText: String, _ params: [String: String], _ lang: SampleLanguage) -> Answer {
        guard let id = Self.id(idText) else { return Self.invalidID }
        guard let appending = appendix(params) else { return Self.tooManyAppended }
        switch mediaType {
        case .movie:
            guard let m = catalog.movie(id) else { return Self.resourceNotFound }
            return ok(catalog.movieDetails(m, lang, appending: appending, videoLanguages: videoLanguages(params)))
        case .tv:
            guard let s = catalog.series(id) else { return Self.resourceNotFound }
            return ok(catalog.seriesDetails(s, lang, appending: appending, videoLanguages: videoLanguages(params)))
        }
    }

    private func subresource(_ mediaType: MediaType, _ idText: String, _ name: String, _ params: [String: String], _ lang: SampleLanguage) -> Answer {
        guard let id = Self.id(idText) else { return Self.invalidID }
        switch mediaType {
        case .movie:
            guard let m = catalog.movie(id) else { return Self.resourceNotFound }
            switch name {
            case "similar": return paged(catalog.similarMovies(m, lang), params)
            case "videos": return ok(catalog.videos(m.videos, lang, include: videoLanguages(params), id: id))
            case "credits": return ok(catalog.credits(.movie, id, cast: m.cast, crew: m.crew, includeID: true))
            case "external_ids": return ok(catalog.externalIDs(.movie, imdbID: m.imdb_id, id: id))
            default: return Self.resourceNotFound
            }
        case .tv:
            guard let s = catalog.series(id) else { return Self.resourceNotFound }
            switch name {
            case "similar": return paged(catalog.similarSeries(s, lang), params)
            case "videos": return ok(catalog.videos(s.videos, lang, include: videoLanguages(params), id: id))
            case "credits": return ok(catalog.credits(.tv, id, cast: s.cast, crew: s.crew, includeID: true))
            case "external_ids": return ok(catalog.externalIDs(.tv, imdbID: s.imdb_id, id: id))
            default: return Self.resourceNotFound
            }
        }
    }

    /// Pages `rows` by `page` (1…500; other values get TMDb's error 22).
    private func paged(_ rows: [JSONValue], _ params: [String: String]) -> Answer {
        var page = 1
        if let text = params["page"] {
            guard let n = Int(text), (1...Page<MovieSummary>.maximumPage).contains(n) else { return Self.invalidPage }
            page = n
        }
        return ok(catalog.page(rows, page: page))
    }

    private func chart(_ name: String, _ mediaType: MediaType, _ params: [String: String], _ lang: SampleLanguage) -> Answer {
        let byRating = name == "top_rated"
        switch mediaType {
        case .movie:
            let list = catalog.movies.filter { !byRating || $0.vote_count >= 300 }.sorted {
                byRating ? ($0.vote_average, $0.vote_count) > ($1.vote_average, $1.vote_count) : ($0.popularity, $0.id) > ($1.popularity, $1.id)
            }
            return paged(list.map { .object(catalog.movieSummary($0, lang)) }, params)
        case .tv:
            let list = catalog.series.filter { !byRating || $0.vote_count >= 300 }.sorted {
                byRating ? ($0.vote_average, $0.vote_count) > ($1.vote_average, $1.vote_count) : ($0.popularity, $0.id) > ($1.popularity, $1.id)
            }
            return paged(list.map { .object(catalog.seriesSummary($0, lang)) }, params)
        }
    }

    /// `28,12` = all of them, `28|12` = any of them.
    private static func idFilter(_ text: String?) -> ((Set<Int>) -> Bool)? {
        guard let text, !text.isEmpty else { return nil }
        if text.contains("|") {
            let any = Set(text.split(separator: "|").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) })
            return { !$0.isDisjoint(with: any) }
        }
        let all = Set(text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        return { all.isSubset(of: $0) }
    }

    private static func year(_ date: String) -> Int? { TMDbDate(parsing: date)?.year }

    private func discover(_ mediaType: MediaType, _ params: [String: String], _ lang: SampleLanguage) -> Answer {
        let genreFilter = Self.idFilter(params["with_genres"])
        let minimumVotes = params["vote_count.gte"].flatMap(Int.init) ?? 0
        let sort = (params["sort_by"] ?? "popularity.desc").split(separator: ".").map(String.init)
        let field = sort.first ?? "popularity"
        let descending = sort.count < 2 || sort[1] != "asc"
        func ordered<T>(_ a: T, _ b: T, _ key: (T) -> (Double, String), _ id: (T) -> Int) -> Bool {
            let (x, y) = (key(a), key(b))
            if x != y { return descending ? x > y : x < y }
            return id(a) < id(b)
        }
        switch mediaType {
        case .movie:
            let peopleFilter = Self.idFilter(params["with_people"])
            let year = (params["primary_release_year"] ?? params["year"]).flatMap(Int.init)
            let list = catalog.movies.filter { m in
                (genreFilter?(Set(m.genre_ids)) ?? true)
                    && (peopleFilter?(Set(m.cast.map(\.person) + m.crew.map(\.person))) ?? true)
                    && (year == nil || Self.year(m.release_date) == year)
                    && m.vote_count >= minimumVotes
            }
            let key: (SampleFacts.Movie) -> (Double, String) = { m in
                switch field {
                case "primary_release_date", "release_date": (0, m.release_date)
                case "title": (0, catalog.title(m, lang).lowercased())
                case "original_title": (0, m.original_title.lowercased())
                case "vote_average": (m.vote_average, "")
                case "vote_count": (Double(m.vote_count), "")
                case "revenue": (Double(m.revenue), "")
                default: (m.popularity, "")
                }
            }
            let sorted = list.sorted { ordered($0, $1, key, \.id) }
            return paged(sorted.map { .object(catalog.movieSummary($0, lang)) }, params)
        case .tv:
            let year = params["first_air_date_year"].flatMap(Int.init)
            let list = catalog.series.filter { s in
                (genreFilter?(Set(s.genre_ids)) ?? true)
                    && (year == nil || Self.year(s.first_air_date) == year)
                    && s.vote_count >= minimumVotes
            }
            let key: (SampleFacts.Series) -> (Double, String) = { s in
                switch field {
                case "first_air_date": (0, s.first_air_date)
                case "name": (0, catalog.name(s, lang).lowercased())
                case "original_name": (0, s.original_name.lowercased())
                case "vote_average": (s.vote_average, "")
                case "vote_count": (Double(s.vote_count), "")
                default: (s.popularity, "")
                }
            }
            let sorted = list.sorted { ordered($0, $1, key, \.id) }
            return paged(sorted.map { .object(catalog.seriesSummary($0, lang)) }, params)
        }
    }

    /// Case- and accent-insensitive: every word of the query must appear in one of the names.
    static func matches(_ query: [String], _ names: [String]) -> Bool {
        let folded = names.map(TextFolding.fold)
        return folded.contains { name in query.allSatisfy { name.contains($0) } }
    }

    private func search(_ kind: String, _ params: [String: String], _ lang: SampleLanguage) -> Answer {
        guard ["movie", "tv", "person", "multi"].contains(kind) else { return Self.resourceNotFound }
        guard let text = params["query"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return Self.queryMissing }
        let words = TextFolding.fold(text).split(separator: " ").map(String.init)
        var rows: [(Double, Int, JSONValue)] = []
        if kind == "movie" || kind == "multi" {
            let year = (params["year"] ?? params["primary_release_year"]).flatMap(Int.init)
            for m in catalog.movies where Self.matches(words, [m.title, m.original_title, catalog.title(m, lang)])
                && (year == nil || Self.year(m.release_date) == year) {
                var o = catalog.movieSummary(m, lang)
                if kind == "multi" { o["media_type"] = "movie" }
                rows.append((m.popularity, m.id, .object(o)))
            }
        }
        if kind == "tv" || kind == "multi" {
            let year = params["first_air_date_year"].flatMap(Int.init)
            for s in catalog.series where Self.matches(words, [s.name, s.original_name, catalog.name(s, lang)])
                && (year == nil || Self.year(s.first_air_date) == year) {
                var o = catalog.seriesSummary(s, lang)
                if kind == "multi" { o["media_type"] = "tv" }
                rows.append((s.popularity, s.id, .object(o)))
            }
        }
        if kind == "person" || kind == "multi" {
            for p in catalog.people where Self.matches(words, [p.name] + p.also_known_as) {
                var o = catalog.personSummary(p, lang)
                if kind == "multi" { o["media_type"] = "person" }
                rows.append((p.popularity, p.id, .object(o)))
            }
        }
        rows.sort { ($0.0, -$0.1) > ($1.0, -$1.1) }
        return paged(rows.map(\.2), params)
    }
}
