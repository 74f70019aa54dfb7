import Foundation
import Testing
@testable import Catalog

/// The TMDb reference material the tests decode: `Fixtures/tmdb/` beside this file (copied from
/// the shared reference; see its README), found from this file's own path so the tests depend
/// neither on the working directory nor on where the repository is cloned.
enum TMDbReference {
    /// The repository root (this file is `<repo>/Tests/CatalogTests/SampleDecodingTests.swift`).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CatalogTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repo root

    static let directory: URL = repositoryRoot
        .appendingPathComponent("Tests/CatalogTests/Fixtures/tmdb")
        .standardizedFileURL

    static let samples: URL = directory.appendingPathComponent("samples")
    static let openAPI: URL = directory.appendingPathComponent("openapi-examples.json")

    /// Every `*.json` in `samples/`, sorted; empty when the folder cannot be listed.
    static var sampleFileNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    static func sample(_ name: String) throws -> Data {
        try Data(contentsOf: samples.appendingPathComponent(name))
    }

    /// The sample parsed loosely, for comparing what the models made of it with what it says.
    static func rawSample(_ name: String) throws -> Any {
        try JSONSerialization.jsonObject(with: sample(name), options: [.fragmentsAllowed])
    }
}

/// The Catalog model a captured response decodes as.
enum SampleModel: String, Sendable, CaseIterable {
    case languages, genreList, movieDetails, seriesDetails, moviePage, seriesPage, credits, videos, person, errorBody

    /// The model for a sample file, by its name; nil for a file nobody mapped yet (which the
    /// coverage test turns into a failure, so a new sample is never silently skipped).
    static func of(sample name: String) -> SampleModel? {
        let base = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        func starts(_ prefixes: String...) -> Bool { prefixes.contains { base == $0 || base.hasPrefix($0 + "-") } }
        if starts("configuration-languages") { return .languages }
        if base.hasPrefix("genre-"), base.hasSuffix("-list") { return .genreList }
        if starts("movie-details", "movie-latest") { return .movieDetails }
        if starts("tv-details", "tv-latest") { return .seriesDetails }
        if starts("movie-popular", "movie-top-rated", "movie-similar", "search-movie") { return .moviePage }
        if starts("tv-popular", "tv-top-rated", "tv-similar", "search-tv") { return .seriesPage }
        if starts("movie-credits", "tv-credits") { return .credits }
        if starts("movie-videos", "tv-videos") { return .videos }
        if starts("person-details") { return .person }
        if starts("invalid-api-key", "resource-not-found", "validation-error") { return .errorBody }
        return nil
    }
}

/// Loose readers for `JSONSerialization` output.
enum Raw {
    static func object(_ any: Any?) -> [String: Any] { any as? [String: Any] ?? [:] }
    static func array(_ any: Any?) -> [Any] { any as? [Any] ?? [] }
    /// A string as the models should see it: missing, null and `""` are all absent.
    static func text(_ any: Any?) -> String? {
        guard let s = any as? String, !s.isEmpty else { return nil }
        return s
    }
    static func int(_ any: Any?) -> Int? { (any as? NSNumber)?.intValue }
    static func double(_ any: Any?) -> Double? { (any as? NSNumber)?.doubleValue }
    static func isNull(_ any: Any?) -> Bool { any == nil || any is NSNull }
}

private func decode<T: Decodable>(_ type: T.Type, sample name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    try decodeAsTheClientDoes(T.self, Array(TMDbReference.sample(name)), sourceLocation: sourceLocation)
}

@Suite struct SampleDecodingTests {
    // MARK: - Coverage

    @Test func referenceFolderIsFoundFromFilePath() {
        #expect(TMDbReference.repositoryRoot.appendingPathComponent("Package.swift").path.hasSuffix("/Package.swift"))
        #expect(FileManager.default.fileExists(atPath: TMDbReference.repositoryRoot.appendingPathComponent("Package.swift").path))
        #expect(FileManager.default.fileExists(atPath: TMDbReference.samples.path), "no samples at \(TMDbReference.samples.path)")
        #expect(FileManager.default.fileExists(atPath: TMDbReference.openAPI.path))
    }

    @Test func everySampleFileIsMappedToAModel() {
        let names = TMDbReference.sampleFileNames
        #expect(names.count >= 22, "expected the 22 captured samples, found \(names)")
        let unmapped = names.filter { SampleModel.of(sample: $0) == nil }
        #expect(unmapped.isEmpty, "samples with no model mapping (add one to SampleModel.of): \(unmapped)")
        // Every kind of model is exercised by at least one capture.
        let used = Set(names.compactMap(SampleModel.of(sample:)))
        #expect(used == Set(SampleModel.allCases), "models without a sample: \(Set(SampleModel.allCases).subtracting(used))")
    }

    @Test func mappingFollowsTheNamingRules() {
        #expect(SampleModel.of(sample: "configuration-languages.json") == .languages)
        #expect(SampleModel.of(sample: "genre-movie-list.json") == .genreList)
        #expect(SampleModel.of(sample: "tv-details-complex.json") == .seriesDetails)
        #expect(SampleModel.of(sample: "search-tv-rick-and-morty.json") == .seriesPage)
        #expect(SampleModel.of(sample: "search-movie.json") == .moviePage)
        #expect(SampleModel.of(sample: "search-multi.json") == nil)
        #expect(SampleModel.of(sample: "movie-latest.json") == .movieDetails)
        #expect(SampleModel.of(sample: "validation-error.json") == .errorBody)
        #expect(SampleModel.of(sample: "movie-detailsX.json") == nil)
    }

    // MARK: - Every sample against its raw JSON

    /// Decodes each sample with its model and compares the result field by field with what the
    /// raw JSON says (`""` and null read as absent, numbers as numbers).
    @Test(arguments: TMDbReference.sampleFileNames)
    func sampleDecodesAndAgreesWithItsJSON(_ name: String) throws {
        let model = try #require(SampleModel.of(sample: name), "unmapped sample \(name)")
        let raw = try TMDbReference.rawSample(name)
        switch model {
        case .languages:
            let decoded = try decode([SpokenLanguage].self, sample: name)
            let rows = Raw.array(raw)
            #expect(decoded.count == rows.count)
            for (language, row) in zip(decoded, rows.map(Raw.object)) {
                #expect(language.code == row["iso_639_1"] as? String)
                #expect(language.englishName == Raw.text(row["english_name"]))
                #expect(language.name == (row["name"] as? String ?? ""))
                #expect(!language.displayName.isEmpty)
            }
        case .genreList:
            let decoded = try decode(GenreList.self, sample: name)
            let rows = Raw.array(Raw.object(raw)["genres"]).map(Raw.object)
            #expect(decoded.genres.map(\.id) == rows.compactMap { Raw.int($0["id"]) })
            #expect(decoded.genres.map(\.name) == rows.compactMap { $0["name"] as? String })
        case .movieDetails:
            let decoded = try decode(MovieDetails.self, sample: name)
            checkMovieDetails(decoded, Raw.object(raw))
        case .seriesDetails:
            let decoded = try decode(SeriesDetails.self, sample: name)
            checkSeriesDetails(decoded, Raw.object(raw))
        case .moviePage:
            let decoded = try decode(Page<MovieSummary>.self, sample: name)
            checkPage(decoded, Raw.object(raw), check: checkMovieSummary)
        case .seriesPage:
            let decoded = try decode(Page<SeriesSummary>.self, sample: name)
            checkPage(decoded, Raw.object(raw), check: checkSeriesSummary)
        case .credits:
            let decoded = try decode(Credits.self, sample: name)
            checkCredits(decoded, Raw.object(raw))
        case .videos:
            let decoded = try decode(VideoList.self, sample: name)
            let o = Raw.object(raw)
            #expect(decoded.id == Raw.int(o["id"]))
            let rows = Raw.array(o["results"]).map(Raw.object)
            #expect(decoded.results.count == rows.count)
            for (video, row) in zip(decoded.results, rows) {
                #expect(video.key == row["key"] as? String)
                #expect(video.id == Raw.text(row["id"]))
                #expect(video.site == row["site"] as? String)
                #expect(video.type == row["type"] as? String)
                #expect(video.official == (row["official"] as? Bool))
                #expect(video.language == Raw.text(row["iso_639_1"]))
                #expect(video.region == Raw.text(row["iso_3166_1"]))
                #expect(video.size == Raw.int(row["size"]))
            }
        case .person:
            let decoded = try decode(PersonDetails.self, sample: name)
            let o = Raw.object(raw)
            #expect(decoded.id == Raw.int(o["id"]))
            #expect(decoded.name == o["name"] as? String)
            #expect(decoded.alsoKnownAs == (o["also_known_as"] as? [String] ?? []))
            #expect(decoded.birthday?.description == Raw.text(o["birthday"]))
            #expect(decoded.deathday?.description == Raw.text(o["deathday"]))
            #expect(decoded.homepage == Raw.text(o["homepage"]))
            #expect(decoded.imdbID == Raw.text(o["imdb_id"]))
            #expect(decoded.placeOfBirth == Raw.text(o["place_of_birth"]))
            #expect(decoded.profilePath == Raw.text(o["profile_path"]))
            #expect(decoded.gender == Raw.int(o["gender"]) ?? 0)
            #expect(decoded.popularity == Raw.double(o["popularity"]) ?? 0)
            #expect((decoded.combinedCredits != nil) == (o["combined_credits"] != nil))
        case .errorBody:
            let decoded = try decode(TMDbErrorBody.self, sample: name)
            let o = Raw.object(raw)
            #expect(decoded.statusCode == Raw.int(o["status_code"]))
            #expect(decoded.statusMessage == Raw.text(o["status_message"]))
            #expect(decoded.errors == (o["errors"] as? [String] ?? []))
            #expect(decoded.message != nil, "an error body with nothing to say: \(name)")
        }
    }

    private func checkPage<Item>(_ page: Page<Item>, _ raw: [String: Any], check: ([String: Any], Item) -> Void) {
        #expect(page.page == Raw.int(raw["page"]))
        #expect(page.totalPages == Raw.int(raw["total_pages"]))
        #expect(page.totalResults == Raw.int(raw["total_results"]))
        #expect(page.lastReachablePage == min(page.totalPages, 500))
        let rows = Raw.array(raw["results"]).map(Raw.object)
        #expect(page.results.count == rows.count)
        for (item, row) in zip(page.results, rows) { check(row, item) }
    }

    private func checkMovieSummary(_ row: [String: Any], _ m: MovieSummary) {
        #expect(m.id == Raw.int(row["id"]))
        #expect(m.title == row["title"] as? String)
        #expect(m.originalTitle == Raw.text(row["original_title"]))
        #expect(m.originalLanguage == Raw.text(row["original_language"]))
        #expect(m.overview == Raw.text(row["overview"]), "movie \(m.id): overview \"\" must read as nil")
        #expect(m.releaseDate?.description == Raw.text(row["release_date"]), "movie \(m.id): release_date")
        #expect(m.genreIDs == (row["genre_ids"] as? [Int] ?? []))
        #expect(m.posterPath == Raw.text(row["poster_path"]), "movie \(m.id): poster_path")
        #expect(m.backdropPath == Raw.text(row["backdrop_path"]), "movie \(m.id): backdrop_path")
        #expect(m.popularity == Raw.double(row["popularity"]) ?? 0)
        #expect(m.voteAverage == Raw.double(row["vote_average"]) ?? 0)
        #expect(m.voteCount == Raw.int(row["vote_count"]) ?? 0)
        #expect(m.adult == (row["adult"] as? Bool ?? false))
    }

    private func checkSeriesSummary(_ row: [String: Any], _ s: SeriesSummary) {
        #expect(s.id == Raw.int(row["id"]))
        #expect(s.name == row["name"] as? String)
        #expect(s.originalName == Raw.text(row["original_name"]))
        #expect(s.overview == Raw.text(row["overview"]), "series \(s.id): overview \"\" must read as nil")
        #expect(s.firstAirDate?.description == Raw.text(row["first_air_date"]), "series \(s.id): first_air_date")
        #expect(s.genreIDs == (row["genre_ids"] as? [Int] ?? []))
        #expect(s.originCountry == (row["origin_country"] as? [String] ?? []))
        #expect(s.posterPath == Raw.text(row["poster_path"]), "series \(s.id): poster_path")
        #expect(s.backdropPath == Raw.text(row["backdrop_path"]), "series \(s.id): backdrop_path")
        #expect(s.popularity == Raw.double(row["popularity"]) ?? 0)
        #expect(s.voteAverage == Raw.double(row["vote_average"]) ?? 0)
        #expect(s.voteCount == Raw.int(row["vote_count"]) ?? 0)
    }

    private func checkMovieDetails(_ m: MovieDetails, _ o: [String: Any]) {
        #expect(m.id == Raw.int(o["id"]))
        #expect(m.title == o["title"] as? String)
        #expect(m.imdbID == Raw.text(o["imdb_id"]))
        #expect(m.releaseDate?.description == Raw.text(o["release_date"]))
        let runtime = Raw.int(o["runtime"])
        #expect(m.runtime == ((runtime ?? 0) > 0 ? runtime : nil), "runtime 0 or null is unknown")
        #expect(m.homepage == Raw.text(o["homepage"]))
        #expect(m.tagline == Raw.text(o["tagline"]))
        #expect(m.overview == Raw.text(o["overview"]))
        #expect(m.posterPath == Raw.text(o["poster_path"]))
        #expect(m.backdropPath == Raw.text(o["backdrop_path"]))
        #expect(m.genres.map(\.id) == Raw.array(o["genres"]).compactMap { Raw.int(Raw.object($0)["id"]) })
        #expect(m.budget == Raw.int(o["budget"]) ?? 0)
        #expect(m.revenue == Raw.int(o["revenue"]) ?? 0)
        #expect(m.voteAverage == Raw.double(o["vote_average"]) ?? 0)
        #expect(m.popularity == Raw.double(o["popularity"]) ?? 0)
        #expect(m.originCountry == (o["origin_country"] as? [String] ?? []))
        #expect(m.productionCountries.map(\.code) == Raw.array(o["production_countries"]).compactMap { Raw.object($0)["iso_3166_1"] as? String })
        #expect(m.productionCompanies.count == Raw.array(o["production_companies"]).count)
        #expect(m.spokenLanguages.map(\.code) == Raw.array(o["spoken_languages"]).compactMap { Raw.object($0)["iso_639_1"] as? String })
        #expect((m.collection == nil) == Raw.isNull(o["belongs_to_collection"]))
        #expect(m.videos == nil && m.credits == nil && m.similar == nil, "nothing was appended")
    }

    private func checkSeriesDetails(_ s: SeriesDetails, _ o: [String: Any]) {
        #expect(s.id == Raw.int(o["id"]))
        #expect(s.name == o["name"] as? String)
        #expect(s.firstAirDate?.description == Raw.text(o["first_air_date"]))
        #expect(s.lastAirDate?.description == Raw.text(o["last_air_date"]))
        #expect(s.homepage == Raw.text(o["homepage"]))
        #expect(s.tagline == Raw.text(o["tagline"]))
        #expect(s.episodeRunTime == (o["episode_run_time"] as? [Int] ?? []))
        #expect(s.numberOfSeasons == Raw.int(o["number_of_seasons"]))
        #expect(s.numberOfEpisodes == Raw.int(o["number_of_episodes"]))
        #expect(s.inProduction == (o["in_production"] as? Bool ?? false))
        #expect(s.status == Raw.text(o["status"]))
        #expect(s.type == Raw.text(o["type"]))
        #expect(s.genres.map(\.id) == Raw.array(o["genres"]).compactMap { Raw.int(Raw.object($0)["id"]) })
        #expect(s.originCountry == (o["origin_country"] as? [String] ?? []))
        #expect(s.languages == (o["languages"] as? [String] ?? []))
        let creators = Raw.array(o["created_by"]).map(Raw.object)
        #expect(s.createdBy.map(\.id) == creators.compactMap { Raw.int($0["id"]) })
        #expect(s.createdBy.map(\.profilePath) == creators.map { Raw.text($0["profile_path"]) })
        #expect(s.networks.map(\.name) == Raw.array(o["networks"]).compactMap { Raw.object($0)["name"] as? String })
        let seasons = Raw.array(o["seasons"]).map(Raw.object)
        #expect(s.seasons.count == seasons.count)
        for (season, row) in zip(s.seasons, seasons) {
            #expect(season.id == Raw.int(row["id"]))
            #expect(season.seasonNumber == Raw.int(row["season_number"]))
            #expect(season.episodeCount == Raw.int(row["episode_count"]))
            #expect(season.airDate?.description == Raw.text(row["air_date"]), "season \(season.seasonNumber): air_date")
            #expect(season.posterPath == Raw.text(row["poster_path"]))
            #expect(season.overview == Raw.text(row["overview"]))
            #expect(season.voteAverage == Raw.double(row["vote_average"]), "season vote_average is optional")
        }
        func checkEpisode(_ episode: Episode?, _ raw: Any?) {
            guard !Raw.isNull(raw) else {
                #expect(episode == nil)
                return
            }
            let e = Raw.object(raw)
            guard let episode else {
                Issue.record("episode missing")
                return
            }
            #expect(episode.id == Raw.int(e["id"]))
            #expect(episode.name == (e["name"] as? String ?? ""))
            #expect(episode.seasonNumber == Raw.int(e["season_number"]))
            #expect(episode.episodeNumber == Raw.int(e["episode_number"]))
            #expect(episode.airDate?.description == Raw.text(e["air_date"]))
            #expect(episode.runtime == Raw.int(e["runtime"]), "episode runtime null reads as nil")
            #expect(episode.episodeType == Raw.text(e["episode_type"]))
        }
        checkEpisode(s.lastEpisodeToAir, o["last_episode_to_air"])
        checkEpisode(s.nextEpisodeToAir, o["next_episode_to_air"])
        #expect(s.videos == nil && s.credits == nil && s.similar == nil)
    }

    private func checkCredits(_ c: Credits, _ o: [String: Any]) {
        #expect(c.id == Raw.int(o["id"]))
        let cast = Raw.array(o["cast"]).map(Raw.object)
        let crew = Raw.array(o["crew"]).map(Raw.object)
        #expect(c.cast.count == cast.count)
        #expect(c.crew.count == crew.count)
        for (credit, row) in zip(c.cast, cast) {
            #expect(credit.id == Raw.int(row["id"]))
            #expect(credit.name == row["name"] as? String)
            #expect(credit.character == Raw.text(row["character"]))
            #expect(credit.order == Raw.int(row["order"]))
            #expect(credit.creditID == Raw.text(row["credit_id"]))
            #expect(credit.profilePath == Raw.text(row["profile_path"]), "\(credit.name): profile_path null reads as nil")
            #expect(credit.gender == Raw.int(row["gender"]) ?? 0)
        }
        for (credit, row) in zip(c.crew, crew) {
            #expect(credit.id == Raw.int(row["id"]))
            #expect(credit.job == (row["job"] as? String ?? ""))
            #expect(credit.department == (row["department"] as? String ?? ""))
            #expect(credit.profilePath == Raw.text(row["profile_path"]))
        }
        #expect(c.directors.map(\.id) == crew.filter { $0["job"] as? String == "Director" }.compactMap { Raw.int($0["id"]) })
    }

    // MARK: - Facts worth naming

    @Test func fightClubDetails() throws {
        let m = try decode(MovieDetails.self, sample: "movie-details.json")
        #expect(m.id == 550)
        #expect(m.title == "Fight Club")
        #expect(m.imdbID == "tt0137523")
        #expect(m.releaseDate == TMDbDate(year: 1999, month: 10, day: 15))
        #expect(m.runtime == 139)
        #expect(m.genres == [Genre(id: 18, name: "Drama")])
        #expect(m.collection == nil)
        #expect(m.tagline == "Mischief. Mayhem. Soap.")
        #expect(m.originCountry == [], "origin_country is absent from this 2024 capture")
        #expect(m.productionCountries.map(\.code) == ["DE", "US"])
        #expect(m.spokenLanguages.first?.displayName == "English")
        #expect(m.budget == 63_000_000)
        #expect(m.status == "Released")
    }

    @Test func latestMovieIsAnUnfilledRecord() throws {
        let m = try decode(MovieDetails.self, sample: "movie-latest.json")
        #expect(m.title == "Better Than Me")
        #expect(m.releaseDate == nil, "release_date \"\" is no date")
        #expect(m.runtime == nil, "runtime 0 is unknown")
        #expect(m.imdbID == nil)
        #expect(m.posterPath == nil && m.backdropPath == nil)
        #expect(m.homepage == nil && m.overview == nil && m.tagline == nil)
        #expect(m.genres.isEmpty && m.spokenLanguages.isEmpty && m.productionCompanies.isEmpty)
        #expect(m.popularity == 0 && m.voteAverage == 0, "integer literal 0 decodes as a Double")
    }

    @Test func gameOfThronesDetails() throws {
        let s = try decode(SeriesDetails.self, sample: "tv-details.json")
        #expect(s.id == 1399)
        #expect(s.name == "Game of Thrones")
        #expect(s.episodeRunTime == [], "today's TMDb sends []")
        #expect(s.numberOfSeasons == 8)
        #expect(s.seasons.first?.seasonNumber == 0, "specials are season 0")
        #expect(s.lastEpisodeToAir?.episodeType == "finale")
        #expect(s.lastEpisodeToAir?.runtime == 80)
        #expect(s.nextEpisodeToAir == nil)
        #expect(s.createdBy.map(\.name) == ["David Benioff", "D.B. Weiss"])
        #expect(s.networks.first?.name == "HBO")
        #expect(s.genres.map(\.id).contains(10765))
        #expect(s.status == "Ended")
        let older = try decode(SeriesDetails.self, sample: "tv-latest.json")
        #expect(older.episodeRunTime == [60])
        #expect(older.seasons.allSatisfy { $0.voteAverage == nil }, "seasons without vote_average")
    }

    @Test func complexSeriesNullsAndEmptyStrings() throws {
        let s = try decode(SeriesDetails.self, sample: "tv-details-complex.json")
        #expect(s.id == 2)
        #expect(s.homepage == nil && s.tagline == nil)
        #expect(s.type == "Miniseries")
        #expect(s.lastEpisodeToAir?.runtime == nil)
        #expect(s.seasons.first?.airDate == nil)
        #expect(s.seasons.first?.posterPath == nil)
        #expect(s.seasons.last?.airDate == TMDbDate(year: 2002, month: 12, day: 14))
        #expect(s.createdBy.last?.profilePath == nil)
    }

    @Test func searchResultsWithUnknownDates() throws {
        let rick = try decode(Page<SeriesSummary>.self, sample: "search-tv-rick-and-morty.json")
        #expect(rick.results.map(\.id) == [60625, 202282])
        #expect(rick.results[0].firstAirDate == TMDbDate(year: 2013, month: 12, day: 2))
        #expect(rick.results[1].firstAirDate == nil, "first_air_date \"\"")
        #expect(rick.results[1].backdropPath == nil, "backdrop_path null")
        let similar = try decode(Page<MovieSummary>.self, sample: "movie-similar.json")
        #expect(similar.results.contains { $0.posterPath == nil && $0.backdropPath == nil })
        let popular = try decode(Page<MovieSummary>.self, sample: "movie-popular.json")
        #expect(popular.results.count == 20)
        #expect(popular.totalPages > 500 && popular.lastReachablePage == 500)
    }

    @Test func fightClubCredits() throws {
        let c = try decode(Credits.self, sample: "movie-credits.json")
        #expect(c.id == 550)
        #expect(c.directors.map(\.name) == ["David Fincher"])
        let pitt = try #require(c.cast.first { $0.id == 287 })
        #expect(pitt.name == "Brad Pitt")
        #expect(pitt.character == "Tyler Durden")
        #expect(pitt.order == 1)
        #expect(c.cast.first?.name == "Edward Norton")
    }

    @Test func fightClubTrailersOfficialFirstThenNewest() throws {
        let v = try decode(VideoList.self, sample: "movie-videos.json")
        #expect(v.id == 550)
        #expect(v.trailers.map(\.key) == ["dfeUzm6KF4g", "BdJKm16Co6M", "6JnN1DmbqoU"])
        #expect(v.trailers.first?.watchURL == "https://www.youtube.com/watch?v=dfeUzm6KF4g")
    }

    @Test func bradPitt() throws {
        let p = try decode(PersonDetails.self, sample: "person-details.json")
        #expect(p.id == 287)
        #expect(p.name == "Brad Pitt")
        #expect(p.birthday == TMDbDate(year: 1963, month: 12, day: 18))
        #expect(p.deathday == nil && p.homepage == nil)
        #expect(p.gender == 2)
        #expect(p.alsoKnownAs.count == 16)
        #expect(p.combinedCredits == nil)
    }

    @Test func errorBodies() throws {
        let key = try decode(TMDbErrorBody.self, sample: "invalid-api-key.json")
        #expect(key.statusCode == 7)
        #expect(key.message == "Invalid API key: You must be granted a valid key.")
        let missing = try decode(TMDbErrorBody.self, sample: "resource-not-found.json")
        #expect(missing.statusCode == 34, "no `success` key in this one")
        #expect(missing.errors.isEmpty)
        let validation = try decode(TMDbErrorBody.self, sample: "validation-error.json")
        #expect(validation.statusCode == nil && validation.statusMessage == nil)
        #expect(validation.errors == ["query must be provided"])
        #expect(validation.message == "query must be provided")
    }

    @Test func genreListsAgreeWithTheSampleCatalogsEnglishNames() throws {
        let movie = try decode(GenreList.self, sample: "genre-movie-list.json")
        let tv = try decode(GenreList.self, sample: "genre-tv-list.json")
        #expect(movie.genres.count == 19 && tv.genres.count == 16)
        #expect(movie.name(of: 28) == "Action" && tv.name(of: 28) == nil, "28 is movie-only")
        #expect(tv.name(of: 10759) == "Action & Adventure" && movie.name(of: 10759) == nil)
        #expect(movie.genres.map(\.id) == SampleGenres.movie.map(\.id))
        #expect(movie.genres.map(\.name) == SampleGenres.movie.map(\.en))
        #expect(tv.genres.map(\.id) == SampleGenres.tv.map(\.id))
        #expect(tv.genres.map(\.name) == SampleGenres.tv.map(\.en))
    }

    @Test func configurationLanguages() throws {
        let languages = try decode([SpokenLanguage].self, sample: "configuration-languages.json")
        #expect(languages.count == 187)
        #expect(languages.first { $0.code == "de" }?.name == "Deutsch")
        let bislama = try #require(languages.first { $0.code == "bi" })
        #expect(bislama.name == "" && bislama.displayName == "Bislama", "an empty native name shows the English one")
    }
}
