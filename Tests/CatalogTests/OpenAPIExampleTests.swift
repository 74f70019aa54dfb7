import Foundation
import Testing
@testable import Catalog

/// The official OpenAPI file's `Result` examples (each a JSON document stored as a string),
/// decoded with the models Reel uses for those endpoints.
@Suite struct OpenAPIExampleTests {
    enum Model: String, Sendable {
        case configuration, genreList, moviePage, seriesPage, personPage, multiPage
        case movieDetails, seriesDetails, videos, credits, person, combinedCredits, errorBody
    }

    struct Example: Sendable, CustomTestStringConvertible {
        let path: String
        let status: String
        let model: Model
        var testDescription: String { "\(path) \(status) → \(model.rawValue)" }
    }

    static let examples: [Example] = [
        .init(path: "/3/configuration", status: "200", model: .configuration),
        .init(path: "/3/genre/movie/list", status: "200", model: .genreList),
        .init(path: "/3/genre/tv/list", status: "200", model: .genreList),
        .init(path: "/3/discover/movie", status: "200", model: .moviePage),
        .init(path: "/3/search/movie", status: "200", model: .moviePage),
        .init(path: "/3/movie/{movie_id}/similar", status: "200", model: .moviePage),
        .init(path: "/3/movie/popular", status: "200", model: .moviePage),
        .init(path: "/3/movie/top_rated", status: "200", model: .moviePage),
        .init(path: "/3/discover/tv", status: "200", model: .seriesPage),
        .init(path: "/3/search/tv", status: "200", model: .seriesPage),
        .init(path: "/3/tv/{series_id}/similar", status: "200", model: .seriesPage),
        .init(path: "/3/tv/popular", status: "200", model: .seriesPage),
        .init(path: "/3/tv/top_rated", status: "200", model: .seriesPage),
        .init(path: "/3/search/person", status: "200", model: .personPage),
        .init(path: "/3/search/multi", status: "200", model: .multiPage),
        .init(path: "/3/movie/{movie_id}", status: "200", model: .movieDetails),
        .init(path: "/3/movie/latest", status: "200", model: .movieDetails),
        .init(path: "/3/tv/{series_id}", status: "200", model: .seriesDetails),
        .init(path: "/3/tv/latest", status: "200", model: .seriesDetails),
        .init(path: "/3/movie/{movie_id}/videos", status: "200", model: .videos),
        .init(path: "/3/tv/{series_id}/videos", status: "200", model: .videos),
        .init(path: "/3/movie/{movie_id}/credits", status: "200", model: .credits),
        .init(path: "/3/tv/{series_id}/credits", status: "200", model: .credits),
        .init(path: "/3/person/{person_id}", status: "200", model: .person),
        .init(path: "/3/person/{person_id}/combined_credits", status: "200", model: .combinedCredits),
        .init(path: "/3/authentication", status: "401", model: .errorBody),
        .init(path: "/3/authentication", status: "200", model: .errorBody),
    ]

    /// The parsed OpenAPI document, read once.
    nonisolated(unsafe) static let document: [String: Any]? = {
        guard let data = try? Data(contentsOf: TMDbReference.openAPI) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }()

    /// `paths[P].get.responses[CODE].content["application/json"].examples.Result.value`.
    static func exampleText(_ path: String, _ status: String) throws -> String {
        let document = try #require(Self.document, "cannot read \(TMDbReference.openAPI.path)")
        let paths = try #require(document["paths"] as? [String: Any])
        let item = try #require(paths[path] as? [String: Any], "no path \(path)")
        let get = try #require(item["get"] as? [String: Any])
        let responses = try #require(get["responses"] as? [String: Any])
        let response = try #require(responses[status] as? [String: Any], "no \(status) response for \(path)")
        let content = try #require(response["content"] as? [String: Any])
        let json = try #require(content["application/json"] as? [String: Any])
        let examples = try #require(json["examples"] as? [String: Any])
        let result = try #require(examples["Result"] as? [String: Any])
        return try #require(result["value"] as? String, "the example is not a JSON string")
    }

    static func exampleData(_ path: String, _ status: String = "200") throws -> Data {
        Data(try exampleText(path, status).utf8)
    }

    static func raw(_ path: String, _ status: String = "200") throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: exampleData(path, status)) as? [String: Any])
    }

    static func decode<T: Decodable>(_ type: T.Type, _ path: String, _ status: String = "200") throws -> T {
        try decodeAsTheClientDoes(T.self, Array(exampleData(path, status)))
    }

    @Test func theDocumentIsTheOfficialV3Spec() throws {
        let document = try #require(Self.document)
        #expect((document["openapi"] as? String)?.hasPrefix("3.") == true)
        let paths = try #require(document["paths"] as? [String: Any])
        for example in Self.examples { #expect(paths[example.path] != nil, "\(example.path)") }
    }

    @Test(arguments: examples)
    func exampleDecodes(_ example: Example) throws {
        let raw = try Self.raw(example.path, example.status)
        let rows = Raw.array(raw["results"]).map(Raw.object)
        let rawIDs = rows.compactMap { Raw.int($0["id"]) }
        switch example.model {
        case .configuration:
            let c = try Self.decode(APIConfiguration.self, example.path)
            #expect(c.images.secureBaseURL == "https://image.tmdb.org/t/p/")
            #expect(c.images.posterSizes.contains("w500"))
            #expect(c.changeKeys.count == Raw.array(raw["change_keys"]).count)
        case .genreList:
            let g = try Self.decode(GenreList.self, example.path)
            #expect(g.genres.map(\.id) == Raw.array(raw["genres"]).compactMap { Raw.int(Raw.object($0)["id"]) })
            #expect(!g.genres.isEmpty)
        case .moviePage:
            let p = try Self.decode(Page<MovieSummary>.self, example.path)
            #expect(p.results.map(\.id) == rawIDs)
            #expect(p.totalResults == Raw.int(raw["total_results"]) && p.totalPages == Raw.int(raw["total_pages"]))
            for (m, row) in zip(p.results, rows) {
                #expect(m.releaseDate?.description == Raw.text(row["release_date"]))
                #expect(m.posterPath == Raw.text(row["poster_path"]))
                #expect(m.genreIDs == (row["genre_ids"] as? [Int] ?? []))
            }
        case .seriesPage:
            let p = try Self.decode(Page<SeriesSummary>.self, example.path)
            #expect(p.results.map(\.id) == rawIDs)
            for (s, row) in zip(p.results, rows) {
                #expect(s.firstAirDate?.description == Raw.text(row["first_air_date"]))
                #expect(s.originCountry == (row["origin_country"] as? [String] ?? []))
                #expect(s.adult == (row["adult"] as? Bool ?? false), "adult is absent from discover/tv rows")
            }
        case .personPage:
            let p = try Self.decode(Page<PersonSummary>.self, example.path)
            #expect(p.results.map(\.id) == rawIDs)
            for (person, row) in zip(p.results, rows) {
                let known = Raw.array(row["known_for"]).map(Raw.object)
                let media = known.filter { ["movie", "tv"].contains($0["media_type"] as? String ?? "") }
                #expect(person.knownFor.map(\.id) == media.compactMap { Raw.int($0["id"]) })
            }
        case .multiPage:
            let p = try Self.decode(Page<MultiSearchResult>.self, example.path)
            #expect(p.results.count == rows.count)
            for (result, row) in zip(p.results, rows) {
                switch (result, row["media_type"] as? String) {
                case (.movie(let m), "movie"): #expect(m.id == Raw.int(row["id"]))
                case (.series(let s), "tv"): #expect(s.id == Raw.int(row["id"]))
                case (.person(let person), "person"): #expect(person.id == Raw.int(row["id"]))
                case (.unknown(let kind), let rawKind): #expect(!["movie", "tv", "person"].contains(kind) && kind == (rawKind ?? ""))
                default: Issue.record("\(result) decoded from a \(row["media_type"] ?? "nil") row")
                }
            }
        case .movieDetails:
            let m = try Self.decode(MovieDetails.self, example.path)
            #expect(m.id == Raw.int(raw["id"]))
            #expect(m.releaseDate?.description == Raw.text(raw["release_date"]))
            #expect(m.runtime == Raw.int(raw["runtime"]).flatMap { $0 > 0 ? $0 : nil })
        case .seriesDetails:
            let s = try Self.decode(SeriesDetails.self, example.path)
            #expect(s.id == Raw.int(raw["id"]))
            #expect(s.firstAirDate?.description == Raw.text(raw["first_air_date"]))
            #expect(s.seasons.count == Raw.array(raw["seasons"]).count)
        case .videos:
            let v = try Self.decode(VideoList.self, example.path)
            #expect(v.id == Raw.int(raw["id"]))
            #expect(v.results.map(\.key) == rows.compactMap { $0["key"] as? String })
        case .credits:
            let c = try Self.decode(Credits.self, example.path)
            #expect(c.id == Raw.int(raw["id"]))
            #expect(c.cast.count == Raw.array(raw["cast"]).count)
            #expect(c.crew.count == Raw.array(raw["crew"]).count)
        case .person:
            let p = try Self.decode(PersonDetails.self, example.path)
            #expect(p.id == Raw.int(raw["id"]))
            #expect(p.birthday?.description == Raw.text(raw["birthday"]))
            #expect(p.deathday == nil)
        case .combinedCredits:
            let c = try Self.decode(CombinedCredits.self, example.path)
            let known: (Any) -> Bool = { ["movie", "tv"].contains(Raw.object($0)["media_type"] as? String ?? "") }
            #expect(c.cast.count == Raw.array(raw["cast"]).filter(known).count)
            #expect(c.crew.count == Raw.array(raw["crew"]).filter(known).count)
        case .errorBody:
            let e = try Self.decode(TMDbErrorBody.self, example.path, example.status)
            #expect(e.statusCode == Raw.int(raw["status_code"]))
            #expect(e.statusMessage == Raw.text(raw["status_message"]))
        }
    }

    // MARK: - Facts from the examples

    @Test func authenticationFailureIsCode7() throws {
        let e = try Self.decode(TMDbErrorBody.self, "/3/authentication", "401")
        #expect(e.statusCode == 7)
        #expect(e.message == "Invalid API key: You must be granted a valid key.")
        let ok = try Self.decode(TMDbErrorBody.self, "/3/authentication", "200")
        #expect(ok.statusCode == 1)
    }

    @Test func germanGenreNamesAgreeWithTheSampleCatalog() throws {
        // The examples are in German; the sample catalog's German names come from them.
        let movie = try Self.decode(GenreList.self, "/3/genre/movie/list")
        let tv = try Self.decode(GenreList.self, "/3/genre/tv/list")
        #expect(movie.name(of: 35) == "Komödie")
        #expect(Dictionary(uniqueKeysWithValues: movie.genres.map { ($0.id, $0.name) })
            == Dictionary(uniqueKeysWithValues: SampleGenres.movie.map { ($0.id, $0.de) }))
        #expect(Dictionary(uniqueKeysWithValues: tv.genres.map { ($0.id, $0.name) })
            == Dictionary(uniqueKeysWithValues: SampleGenres.tv.map { ($0.id, $0.de) }))
    }

    @Test func configurationMatchesTheSampleCatalogs() throws {
        let official = try Self.decode(APIConfiguration.self, "/3/configuration")
        let answer = SampleResponder(catalog: .bundled).respond(path: "/configuration", query: [])
        let sample = try JSONDecoder().decode(APIConfiguration.self, from: Data(answer.body))
        #expect(official == sample)
        #expect(official.changeKeys.count == 53)
    }

    @Test func latestRecordsAreEmpty() throws {
        let movie = try Self.decode(MovieDetails.self, "/3/movie/latest")
        #expect(movie.releaseDate == nil && movie.runtime == nil && movie.imdbID == nil && movie.homepage == nil)
        #expect(movie.posterPath == nil && movie.overview == nil)
        let series = try Self.decode(SeriesDetails.self, "/3/tv/latest")
        #expect(series.firstAirDate == nil)
        #expect(series.lastAirDate == TMDbDate(year: 2023, month: 4, day: 21))
        #expect(series.lastEpisodeToAir?.runtime == nil)
        #expect(series.seasons.first?.airDate == nil)
        #expect(series.createdBy.isEmpty && series.networks.isEmpty)
        #expect(series.inProduction)
    }

    @Test func fightClubInTheExamples() throws {
        let details = try Self.decode(MovieDetails.self, "/3/movie/{movie_id}")
        #expect(details.id == 550 && details.title == "Fight Club")
        #expect(details.genres.map(\.id) == [18, 53, 35])
        let search = try Self.decode(Page<MovieSummary>.self, "/3/search/movie")
        #expect(search.results.first?.id == 550)
        let credits = try Self.decode(Credits.self, "/3/movie/{movie_id}/credits")
        #expect(credits.cast.contains { $0.id == 287 && $0.character == "Tyler Durden" })
        #expect(credits.directors.map(\.name) == ["David Fincher"])
        let videos = try Self.decode(VideoList.self, "/3/movie/{movie_id}/videos")
        #expect(videos.id == 550)
        #expect(videos.trailers.allSatisfy { $0.watchURL != nil })
    }

    @Test func tomHanks() throws {
        let person = try Self.decode(PersonDetails.self, "/3/person/{person_id}")
        #expect(person.id == 31 && person.name == "Tom Hanks")
        #expect(person.birthday == TMDbDate(year: 1956, month: 7, day: 9))
        let search = try Self.decode(Page<PersonSummary>.self, "/3/search/person")
        #expect(search.results.first?.knownFor.count == 3)
        #expect(search.results.first?.knownFor.allSatisfy(\.isMovie) == true)
        let credits = try Self.decode(CombinedCredits.self, "/3/person/{person_id}/combined_credits")
        #expect(credits.id == 31)
        #expect(credits.cast.contains { $0.media.isMovie } && credits.cast.contains { !$0.media.isMovie })
        let films = credits.filmography
        #expect(Set(films.map { "\($0.media.isMovie)-\($0.media.id)" }).count == films.count, "each title once")
        let dated = films.compactMap(\.media.date)
        #expect(dated == dated.sorted(by: >), "newest first")
        if let firstUndated = films.firstIndex(where: { $0.media.date == nil }) {
            #expect(films[firstUndated...].allSatisfy { $0.media.date == nil }, "undated titles go last")
        }
    }

    @Test func multiSearchMixesMoviesAndSeries() throws {
        let page = try Self.decode(Page<MultiSearchResult>.self, "/3/search/multi")
        #expect(page.results.first.map { if case .movie(let m) = $0 { m.id == 11 } else { false } } == true)
        #expect(page.results.contains { if case .series = $0 { true } else { false } })
        #expect(page.results.allSatisfy { $0.media != nil })
    }
}
