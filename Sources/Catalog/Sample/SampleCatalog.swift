import Foundation
import JSONKit
public import Ledger
import Synchronization

/// The bundled sample catalog: facts indexed by id, and the TMDb-shaped JSON built from them for
/// a language. The embedded default when no credentials are configured, and what `fake-tmdb`
/// serves.
public final class SampleCatalog: Sendable {
    typealias Movie = SampleFacts.Movie
    typealias Series = SampleFacts.Series
    typealias Person = SampleFacts.Person

    /// The catalog compiled into Reel. Each kind of fact is read from its JSON when first needed.
    public static let bundled = SampleCatalog(
        movies: SampleShelf(json: SampleData.movies, index: SampleData.moviesIndex, name: "movies", fact: Movie.init, id: \.id),
        series: SampleShelf(json: SampleData.series, index: SampleData.seriesIndex, name: "series", fact: Series.init, id: \.id),
        people: SampleShelf(json: SampleData.people, index: SampleData.peopleIndex, name: "people", fact: Person.init, id: \.id),
        syntheticMovies: 0)

    /// Whether the sample catalog has text in the language of `tag` (it has English and German,
    /// as its genre names do); for any other language it answers in English.
    public static func speaks(_ tag: String) -> Bool {
        let language = SampleLanguage(tag)
        return language.isEnglish || language.isGerman
    }

    /// Ids from here on are synthetic movies (see `withSyntheticMovies`).
    public static let syntheticBase = 90_000_000

    /// One credit of a person: (media type, title id, cast or crew fact).
    typealias Credit = (MediaType, Int, SampleFacts.CastFact?, SampleFacts.CrewFact?)

    private let movieShelf: SampleShelf<Movie>
    private let seriesShelf: SampleShelf<Series>
    private let peopleShelf: SampleShelf<Person>
    /// Every credit of each person, gathered from the titles on first use.
    private let credits = Mutex<[Int: [Credit]]?>(nil)
    /// How many synthetic movies exist beyond the real ones, for benchmarks.
    public let syntheticMovies: Int

    var movies: [Movie] { movieShelf.facts.all }
    var series: [Series] { seriesShelf.facts.all }
    var people: [Person] { peopleShelf.facts.all }

    private init(movies: SampleShelf<Movie>, series: SampleShelf<Series>, people: SampleShelf<Person>, syntheticMovies: Int) {
        movieShelf = movies
        seriesShelf = series
        peopleShelf = people
        self.syntheticMovies = syntheticMovies
    }

    /// The same catalog plus `count` generated movies with ids `syntheticBase + 1 …`, so a
    /// benchmark can ask for a thousand distinct titles.
    public func withSyntheticMovies(_ count: Int) -> SampleCatalog {
        SampleCatalog(movies: movieShelf, series: seriesShelf, people: peopleShelf, syntheticMovies: count)
    }

    /// Every credit of `personID`.
    private func credits(of personID: Int) -> [Credit] {
        credits.withLock { stored in
            if let stored { return stored[personID] ?? [] }
            var all: [Int: [Credit]] = [:]
            for m in movies {
                for c in m.cast { all[c.person, default: []].append((.movie, m.id, c, nil)) }
                for c in m.crew { all[c.person, default: []].append((.movie, m.id, nil, c)) }
            }
            for s in series {
                for c in s.cast { all[c.person, default: []].append((.tv, s.id, c, nil)) }
                for c in s.crew { all[c.person, default: []].append((.tv, s.id, nil, c)) }
                for p in s.created_by { all[p, default: []].append((.tv, s.id, nil, .init(person: p, job: "Creator", department: "Writing"))) }
            }
            stored = all
            return all[personID] ?? []
        }
    }

    public var movieCount: Int { movies.count }
    public var seriesCount: Int { series.count }
    public var personCount: Int { people.count }
    public var movieIDs: [Int] { movies.map(\.id) }
    public var seriesIDs: [Int] { series.map(\.id) }
    public var personIDs: [Int] { people.map(\.id) }

    func movie(_ id: Int) -> Movie? {
        if let m = movieShelf.fact(id) { return m }
        guard id > Self.syntheticBase, id <= Self.syntheticBase + syntheticMovies else { return nil }
        let n = id - Self.syntheticBase
        // Titles, years and genres that vary as real ones do (in length too), so a screen of them
        // differs from the next as a real list's would (the terminal app's benchmark counts bytes).
        let words = ["Silent", "Harbor", "Last", "Summer", "Iron", "Garden", "Midnight", "Express", "Broken", "Crown", "Distant", "Shore", "Paper", "Moon"]
        let title = "\(words[n % 14]) \(words[(n / 14 + 3) % 14])" + (n % 3 == 0 ? " of the \(words[(n / 7) % 14])" : "") + " \(n)"
        let genres = [[18], [28, 12], [35], [80, 53], [878], [16, 10751], [27], [10749, 18]][n % 8]
        return Movie(
            id: id, imdb_id: Self.syntheticIMDbID(id), title: title, original_title: title,
            original_language: "en", release_date: "\(1950 + n % 75)-01-01", genre_ids: genres, runtime: 90 + n % 60,
            status: "Released", tagline: "", budget: 0, revenue: 0, vote_average: Double(n % 100) / 10,
            vote_count: n % 1000, popularity: Double(n % 500), poster_path: nil, backdrop_path: nil,
            origin_country: ["US"], spoken_languages: ["en"], production_countries: [], production_companies: [],
            overview: "A generated title for benchmarks.", translations: [:], videos: [], cast: [], crew: [], similar: [],
            omdb: nil
        )
    }

    func series(_ id: Int) -> Series? { seriesShelf.fact(id) }
    func person(_ id: Int) -> Person? { peopleShelf.fact(id) }

    /// A person's profile image path: TMDb's when the facts have one, else the path of their
    /// generated art (`SampleImages.profilePath`), so every sample person has a photo to show.
    func profilePath(_ p: Person) -> String { p.profile_path ?? SampleImages.profilePath(personID: p.id) }

    /// A title's poster and backdrop paths: TMDb's when the facts have them, else the paths of
    /// their generated art (`SampleImages.artPath`), so every sample title has pictures to show.
    func posterPath(_ m: Movie) -> String { m.poster_path ?? SampleImages.artPath(.movie, id: m.id, kind: .poster) }
    func backdropPath(_ m: Movie) -> String { m.backdrop_path ?? SampleImages.artPath(.movie, id: m.id, kind: .backdrop) }
    func posterPath(_ s: Series) -> String { s.poster_path ?? SampleImages.artPath(.tv, id: s.id, kind: .poster) }
    func backdropPath(_ s: Series) -> String { s.backdrop_path ?? SampleImages.artPath(.tv, id: s.id, kind: .backdrop) }

    // MARK: - Shapes

    func title(_ m: Movie, _ lang: SampleLanguage) -> String { SampleLanguage.text(lang.pick(m.translations)?.title, else: m.title) }
    func name(_ s: Series, _ lang: SampleLanguage) -> String { SampleLanguage.text(lang.pick(s.translations)?.name, else: s.name) }

    func movieSummary(_ m: Movie, _ lang: SampleLanguage) -> [String: JSONValue] {
        [
            "adult": false, "backdrop_path": .string(backdropPath(m)),
            "genre_ids": .array(m.genre_ids.map { .integer(Int64($0)) }), "id": .integer(Int64(m.id)),
            "original_language": .string(m.original_language), "original_title": .string(m.original_title),
            "overview": .string(SampleLanguage.text(lang.pick(m.translations)?.overview, else: m.overview)),
            "popularity": .double(m.popularity), "poster_path": .string(posterPath(m)),
            "release_date": .string(m.release_date), "title": .string(title(m, lang)), "video": false,
            "vote_average": .double(m.vote_average), "vote_count": .integer(Int64(m.vote_count)),
        ]
    }

    func seriesSummary(_ s: Series, _ lang: SampleLanguage) -> [String: JSONValue] {
        [
            "adult": false, "backdrop_path": .string(backdropPath(s)),
            "genre_ids": .array(s.genre_ids.map { .integer(Int64($0)) }), "id": .integer(Int64(s.id)),
            "origin_country": .array(s.origin_country.map(JSONValue.string)),
            "original_language": .string(s.original_language), "original_name": .string(s.original_name),
            "overview": .string(SampleLanguage.text(lang.pick(s.translations)?.overview, else: s.overview)),
            "popularity": .double(s.popularity), "poster_path": .string(posterPath(s)),
            "first_air_date": .string(s.first_air_date), "name": .string(name(s, lang)),
            "vote_average": .double(s.vote_average), "vote_count": .integer(Int64(s.vote_count)),
        ]
    }

    /// A title's details in `lang` cut down to a list row's summary, straight from the facts:
    /// what decoding its details answer gives (a test checks every title), without building and
    /// decoding that answer. Nil for an id the catalog does not have (TMDb's 404).
    func summary(_ key: MediaKey, _ lang: SampleLanguage) -> DetailsSummary? {
        func text(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }
        func named(_ ids: [Int], _ mediaType: MediaType) -> [Genre] {
            let table = mediaType == .movie ? SampleGenres.movie : SampleGenres.tv
            return ids.compactMap { id in table.first { $0.id == id }.map { Genre(id: id, name: lang.isGerman ? $0.de : $0.en) } }
        }
        guard let id = Int(exactly: key.id) else { return nil }
        switch key.mediaType {
        case .movie:
            guard let m = movie(id) else { return nil }
            return DetailsSummary(
                key: key, title: title(m, lang), originalTitle: text(m.original_title), date: TMDbDate(parsing: m.release_date),
                genres: named(m.genre_ids, .movie), voteAverage: m.vote_average, voteCount: m.vote_count,
                popularity: m.popularity, posterPath: posterPath(m), imdbID: text(m.imdb_id))
        case .tv:
            guard let s = series(id) else { return nil }
            return DetailsSummary(
                key: key, title: name(s, lang), originalTitle: text(s.original_name), date: TMDbDate(parsing: s.first_air_date),
                genres: named(s.genre_ids, .tv), voteAverage: s.vote_average, voteCount: s.vote_count,
                popularity: s.popularity, posterPath: posterPath(s), imdbID: text(s.imdb_id))
        }
    }

    func genres(_ ids: [Int], _ mediaType: MediaType, _ lang: SampleLanguage) -> JSONValue {
        let table = mediaType == .movie ? SampleGenres.movie : SampleGenres.tv
        return .array(ids.compactMap { id in
            table.first { $0.id == id }.map { ["id": .integer(Int64(id)), "name": .string(lang.isGerman ? $0.de : $0.en)] }
        })
    }

    func genreList(_ mediaType: MediaType, _ lang: SampleLanguage) -> JSONValue {
        let table = mediaType == .movie ? SampleGenres.movie : SampleGenres.tv
        return ["genres": genres(table.map(\.id), mediaType, lang)]
    }

    /// Genre ids whose name in `lang` (or English) is `name`, case-insensitively.
    public func genreIDs(named name: String, _ mediaType: MediaType) -> [Int] {
        let table = mediaType == .movie ? SampleGenres.movie : SampleGenres.tv
        return table.filter { $0.en.lowercased() == name.lowercased() || $0.de.lowercased() == name.lowercased() }.map(\.id)
    }

    private func companies(_ list: [SampleFacts.Company]) -> JSONValue {
        .array(list.map { ["id": .integer(Int64($0.id)), "logo_path": .null, "name": .string($0.name), "origin_country": .string($0.origin_country)] })
    }

    private func countries(_ codes: [String]) -> JSONValue {
        .array(codes.map { ["iso_3166_1": .string($0), "name": .string(SampleNames.countries[$0] ?? $0)] })
    }

    private func spoken(_ codes: [String]) -> JSONValue {
        .array(codes.map { code in
            let names = SampleNames.language(code)
            return ["english_name": .string(names.english), "iso_639_1": .string(code), "name": .string(names.native)]
        })
    }

    func movieDetails(_ m: Movie, _ lang: SampleLanguage, appending: Set<String>, videoLanguages: [String]?) -> JSONValue {
        var o = movieSummary(m, lang)
        o.removeValue(forKey: "genre_ids")
        let t = lang.pick(m.translations)
        o["belongs_to_collection"] = .null
        o["budget"] = .integer(Int64(m.budget))
        o["genres"] = genres(m.genre_ids, .movie, lang)
        o["homepage"] = ""
        o["imdb_id"] = .init(m.imdb_id.map(JSONValue.string))
        o["origin_country"] = .array(m.origin_country.map(JSONValue.string))
        o["production_companies"] = companies(m.production_companies)
        o["production_countries"] = countries(m.production_countries)
        o["revenue"] = .integer(Int64(m.revenue))
        o["runtime"] = m.runtime.map { .integer(Int64($0)) } ?? .integer(0)
        o["spoken_languages"] = spoken(m.spoken_languages)
        o["status"] = .string(m.status)
        o["tagline"] = .string(SampleLanguage.text(t?.tagline, else: m.tagline))
        if appending.contains("credits") { o["credits"] = credits(.movie, m.id, cast: m.cast, crew: m.crew, includeID: false) }
        if appending.contains("videos") { o["videos"] = videos(m.videos, lang, include: videoLanguages, id: nil) }
        if appending.contains("similar") { o["similar"] = page(similarMovies(m, lang), page: 1) }
        if appending.contains("external_ids") { o["external_ids"] = externalIDs(.movie, imdbID: m.imdb_id, id: nil) }
        return .object(o)
    }

    func seriesDetails(_ s: Series, _ lang: SampleLanguage, appending: Set<String>, videoLanguages: [String]?) -> JSONValue {
        var o = seriesSummary(s, lang)
        o.removeValue(forKey: "genre_ids")
        let t = lang.pick(s.translations)
        o["created_by"] = .array(s.created_by.compactMap { id in
            person(id).map { p in
                [
                    "id": .integer(Int64(p.id)), "credit_id": .string(Self.creditID("creator", s.id, p.id)),
                    "name": .string(p.name), "original_name": .string(p.name), "gender": .integer(Int64(p.gender)),
                    "profile_path": .string(profilePath(p)),
                ]
            }
        })
        o["episode_run_time"] = .array(s.episode_run_time.map { .integer(Int64($0)) })
        o["genres"] = genres(s.genre_ids, .tv, lang)
        o["homepage"] = ""
        o["in_production"] = .bool(s.in_production)
        o["languages"] = .array(s.languages.map(JSONValue.string))
        o["last_air_date"] = .init(s.last_air_date.map(JSONValue.string))
        o["last_episode_to_air"] = .null
        o["next_episode_to_air"] = .null
        o["networks"] = companies(s.networks)
        o["number_of_episodes"] = .integer(Int64(s.number_of_episodes))
        o["number_of_seasons"] = .integer(Int64(s.number_of_seasons))
        o["production_companies"] = companies(s.production_companies)
        o["production_countries"] = countries(s.production_countries)
        o["seasons"] = []
        o["spoken_languages"] = spoken(s.spoken_languages)
        o["status"] = .string(s.status)
        o["tagline"] = .string(SampleLanguage.text(t?.tagline, else: s.tagline))
        o["type"] = .string(s.type)
        if appending.contains("credits") { o["credits"] = credits(.tv, s.id, cast: s.cast, crew: s.crew, includeID: false) }
        if appending.contains("videos") { o["videos"] = videos(s.videos, lang, include: videoLanguages, id: nil) }
        if appending.contains("similar") { o["similar"] = page(similarSeries(s, lang), page: 1) }
        if appending.contains("external_ids") { o["external_ids"] = externalIDs(.tv, imdbID: s.imdb_id, id: nil) }
        return .object(o)
    }

    func similarMovies(_ m: Movie, _ lang: SampleLanguage) -> [JSONValue] {
        m.similar.compactMap { movie($0) }.map { .object(movieSummary($0, lang)) }
    }

    func similarSeries(_ s: Series, _ lang: SampleLanguage) -> [JSONValue] {
        s.similar.compactMap { series($0) }.map { .object(seriesSummary($0, lang)) }
    }

    /// A title's credits; `includeID` false for the appended form, which has no `id`. Credit ids
    /// are the same wherever a credit shows (title credits, appended credits, combined credits).
    func credits(_ mediaType: MediaType, _ titleID: Int, cast: [SampleFacts.CastFact], crew: [SampleFacts.CrewFact], includeID: Bool) -> JSONValue {
        func base(_ p: Person) -> [String: JSONValue] {
            [
                "adult": false, "gender": .integer(Int64(p.gender)), "id": .integer(Int64(p.id)),
                "known_for_department": .string(p.known_for_department), "name": .string(p.name),
                "original_name": .string(p.name), "popularity": .double(p.popularity),
                "profile_path": .string(profilePath(p)),
            ]
        }
        var castRows: [JSONValue] = []
        for (order, c) in cast.enumerated() {
            guard let p = person(c.person) else { continue }
            var row = base(p)
            row["character"] = .string(c.character)
            row["credit_id"] = .string(Self.creditID("cast", titleID, p.id, c.character))
            row["order"] = .integer(Int64(order))
            castRows.append(.object(row))
        }
        var crewRows: [JSONValue] = []
        for c in crew {
            guard let p = person(c.person) else { continue }
            var row = base(p)
            row["job"] = .string(c.job)
            row["department"] = .string(c.department)
            row["credit_id"] = .string(Self.creditID("crew", titleID, p.id, c.job))
            crewRows.append(.object(row))
        }
        var o: [String: JSONValue] = ["cast": .array(castRows), "crew": .array(crewRows)]
        if includeID { o["id"] = .integer(Int64(titleID)) }
        return .object(o)
    }

    /// Videos in the requested language, or in `include_video_language`'s list when given
    /// (`null` there means videos with no language).
    func videos(_ list: [SampleFacts.VideoFact], _ lang: SampleLanguage, include: [String]?, id: Int?) -> JSONValue {
        let wanted = Set((include ?? [lang.language]).map { $0.lowercased() })
        let rows: [JSONValue] = list.filter { v in
            let code = String(v.language.split(separator: "-").first ?? "").lowercased()
            return wanted.contains(code) || (code.isEmpty && wanted.contains("null"))
        }.map { v in
            let parts = v.language.split(separator: "-").map(String.init)
            return [
                "iso_639_1": .string(parts.first ?? ""), "iso_3166_1": .string(parts.count > 1 ? parts[1] : ""),
                "name": .string(v.name), "key": .string(v.key), "site": .string(v.site), "size": .integer(Int64(v.size)),
                "type": .string(v.type), "official": .bool(v.official), "published_at": .string(v.published_at),
                "id": .string(Self.creditID("video", 0, 0, v.key)),
            ]
        }
        var o: [String: JSONValue] = ["results": .array(rows)]
        if let id { o["id"] = .integer(Int64(id)) }
        return .object(o)
    }

    func personSummary(_ p: Person, _ lang: SampleLanguage) -> [String: JSONValue] {
        let knownFor = personMedia(p.id, lang).sorted { ($0.popularity, $0.id) > ($1.popularity, $1.id) }.prefix(3)
        return [
            "adult": false, "gender": .integer(Int64(p.gender)), "id": .integer(Int64(p.id)),
            "known_for_department": .string(p.known_for_department), "name": .string(p.name),
            "original_name": .string(p.name), "popularity": .double(p.popularity),
            "profile_path": .string(profilePath(p)),
            "known_for": .array(knownFor.map(\.json)),
        ]
    }

    struct MediaRow {
        let id: Int
        let popularity: Double
        let json: JSONValue
    }

    /// Each title a person is credited on, once, as a list item with `media_type`.
    private func personMedia(_ personID: Int, _ lang: SampleLanguage) -> [MediaRow] {
        var seen = Set<String>()
        var rows: [MediaRow] = []
        for (mediaType, titleID, _, _) in credits(of: personID) where seen.insert("\(mediaType)-\(titleID)").inserted {
            if let row = mediaRow(mediaType, titleID, lang, extra: [:]) { rows.append(row) }
        }
        return rows
    }

    private func mediaRow(_ mediaType: MediaType, _ titleID: Int, _ lang: SampleLanguage, extra: [String: JSONValue]) -> MediaRow? {
        var o: [String: JSONValue]
        let popularity: Double
        switch mediaType {
        case .movie:
            guard let m = movie(titleID) else { return nil }
            o = movieSummary(m, lang)
            o["media_type"] = "movie"
            popularity = m.popularity
        case .tv:
            guard let s = series(titleID) else { return nil }
            o = seriesSummary(s, lang)
            o["media_type"] = "tv"
            popularity = s.popularity
        }
        o.merge(extra) { _, new in new }
        return MediaRow(id: titleID, popularity: popularity, json: .object(o))
    }

    func combinedCredits(_ personID: Int, _ lang: SampleLanguage, id: Int?) -> JSONValue {
        var cast: [JSONValue] = []
        var crew: [JSONValue] = []
        for (mediaType, titleID, castFact, crewFact) in credits(of: personID) {
            if let c = castFact,
               let row = mediaRow(mediaType, titleID, lang, extra: [
                   "character": .string(c.character), "credit_id": .string(Self.creditID("cast", titleID, personID, c.character)),
               ]) {
                cast.append(row.json)
            }
            if let c = crewFact,
               let row = mediaRow(mediaType, titleID, lang, extra: [
                   "job": .string(c.job), "department": .string(c.department),
                   "credit_id": .string(Self.creditID("crew", titleID, personID, c.job)),
               ]) {
                crew.append(row.json)
            }
        }
        var o: [String: JSONValue] = ["cast": .array(cast), "crew": .array(crew)]
        if let id { o["id"] = .integer(Int64(id)) }
        return .object(o)
    }

    func personDetails(_ p: Person, _ lang: SampleLanguage, appending: Set<String>) -> JSONValue {
        var o: [String: JSONValue] = [
            "adult": false, "also_known_as": .array(p.also_known_as.map(JSONValue.string)),
            "biography": .string(SampleLanguage.text(lang.pick(p.translations)?.biography, else: p.biography)),
            "birthday": .init(p.birthday.map(JSONValue.string)), "deathday": .init(p.deathday.map(JSONValue.string)),
            "gender": .integer(Int64(p.gender)), "homepage": .init(p.homepage.map(JSONValue.string)),
            "id": .integer(Int64(p.id)), "imdb_id": .init(p.imdb_id.map(JSONValue.string)),
            "known_for_department": .string(p.known_for_department), "name": .string(p.name),
            "place_of_birth": .init(p.place_of_birth.map(JSONValue.string)), "popularity": .double(p.popularity),
            "profile_path": .string(profilePath(p)),
        ]
        if appending.contains("combined_credits") { o["combined_credits"] = combinedCredits(p.id, lang, id: nil) }
        return .object(o)
    }

    /// The first page of a list, TMDb-style, for appended `similar`.
    func page(_ rows: [JSONValue], page: Int) -> JSONValue {
        let size = SampleResponder.pageSize
        let start = (page - 1) * size
        let slice = start < rows.count ? Array(rows[start..<min(rows.count, start + size)]) : []
        return [
            "page": .integer(Int64(page)), "results": .array(slice),
            "total_pages": .integer(Int64((rows.count + size - 1) / size)), "total_results": .integer(Int64(rows.count)),
        ]
    }

    static let configuration = configuration(imageBaseURL: nil)

    /// TMDb's `/configuration`, with images at `imageBaseURL` (both `base_url` and
    /// `secure_base_url`) instead of TMDb's image host: the fake server names itself, so a client
    /// that follows the configuration fetches the sample art from it.
    static func configuration(imageBaseURL: String?) -> JSONValue {
        [
            "images": [
                "base_url": .string(imageBaseURL ?? "http://image.tmdb.org/t/p/"),
                "secure_base_url": .string(imageBaseURL ?? "https://image.tmdb.org/t/p/"),
                "backdrop_sizes": ["w300", "w780", "w1280", "original"],
                "logo_sizes": ["w45", "w92", "w154", "w185", "w300", "w500", "original"],
                "poster_sizes": ["w92", "w154", "w185", "w342", "w500", "w780", "original"],
                "profile_sizes": ["w45", "w185", "h632", "original"],
                "still_sizes": ["w92", "w185", "w300", "original"],
            ],
            "change_keys": .array([
                "adult", "air_date", "also_known_as", "alternative_titles", "biography", "birthday", "budget", "cast",
                "certifications", "character_names", "created_by", "crew", "deathday", "episode", "episode_number",
                "episode_run_time", "freebase_id", "freebase_mid", "general", "genres", "guest_stars", "homepage", "images",
                "imdb_id", "languages", "name", "network", "origin_country", "original_name", "original_title", "overview",
                "parts", "place_of_birth", "plot_keywords", "production_code", "production_companies", "production_countries",
                "releases", "revenue", "runtime", "season", "season_number", "season_regular", "spoken_languages", "status",
                "tagline", "title", "translations", "tvdb_id", "tvrage_id", "type", "video", "videos",
            ].map(JSONValue.string)),
        ]
    }

    /// A stable 24-hex-digit id (the shape of TMDb's credit and video ids) for a generated row.
    static func creditID(_ kind: String, _ titleID: Int, _ personID: Int, _ detail: String = "") -> String {
        func fnv(_ text: String, _ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        let text = "\(kind)|\(titleID)|\(personID)|\(detail)"
        let a = String(fnv(text, 0xcbf2_9ce4_8422_2325), radix: 16)
        let b = String(fnv(text, 0x84222325cbf29ce4) & 0xFFFF_FFFF, radix: 16)
        return String(repeating: "0", count: 16 - a.count) + a + String(repeating: "0", count: 8 - b.count) + b
    }
}
