import Foundation
import Ledger
import ReelTestSupport
import Testing
@testable import Catalog

private func decode<T: Decodable>(_ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    try decodeAsTheClientDoes(T.self, Array(json.utf8), sourceLocation: sourceLocation)
}

/// `{"id":1,"title":"T", …extra}` as a movie list item or details.
private func movieJSON(_ extra: String = "") -> String {
    #"{"id":1,"title":"T""# + (extra.isEmpty ? "" : "," + extra) + "}"
}

private func seriesJSON(_ extra: String = "") -> String {
    #"{"id":2,"name":"S""# + (extra.isEmpty ? "" : "," + extra) + "}"
}

// MARK: - TMDb's real-world shapes (notes.md §2, §9)

@Suite struct TolerantDecodingTests {
    @Test func emptyDatesAreNil() throws {
        #expect(try decode(MovieSummary.self, movieJSON(#""release_date":"""#)).releaseDate == nil)
        #expect(try decode(MovieSummary.self, movieJSON(#""release_date":null"#)).releaseDate == nil)
        #expect(try decode(MovieSummary.self, movieJSON()).releaseDate == nil)
        #expect(try decode(MovieSummary.self, movieJSON(#""release_date":"2020-02-29""#)).releaseDate?.description == "2020-02-29")
        #expect(try decode(MovieDetails.self, movieJSON(#""release_date":"""#)).releaseDate == nil)
        #expect(try decode(SeriesSummary.self, seriesJSON(#""first_air_date":"""#)).firstAirDate == nil)
        #expect(try decode(SeriesDetails.self, seriesJSON(#""first_air_date":"","last_air_date":null"#)).firstAirDate == nil)
        let person = try decode(PersonDetails.self, #"{"id":3,"name":"P","birthday":"","deathday":null}"#)
        #expect(person.birthday == nil && person.deathday == nil)
    }

    @Test func unknownRuntimeIsNil() throws {
        #expect(try decode(MovieDetails.self, movieJSON(#""runtime":0"#)).runtime == nil)
        #expect(try decode(MovieDetails.self, movieJSON(#""runtime":null"#)).runtime == nil)
        #expect(try decode(MovieDetails.self, movieJSON()).runtime == nil)
        #expect(try decode(MovieDetails.self, movieJSON(#""runtime":139"#)).runtime == 139)
        let episode = try decode(Episode.self, #"{"id":9,"name":"E","runtime":null,"season_number":1,"episode_number":2}"#)
        #expect(episode.runtime == nil && episode.seasonNumber == 1 && episode.episodeNumber == 2)
    }

    @Test func missingListsAreEmpty() throws {
        let movie = try decode(MovieDetails.self, movieJSON())
        #expect(movie.originCountry == [] && movie.genres == [] && movie.spokenLanguages == [])
        #expect(movie.productionCompanies == [] && movie.productionCountries == [])
        #expect(try decode(MovieDetails.self, movieJSON(#""origin_country":null"#)).originCountry == [])
        #expect(try decode(MovieDetails.self, movieJSON(#""origin_country":["US"]"#)).originCountry == ["US"])
        let series = try decode(SeriesSummary.self, seriesJSON())
        #expect(series.originCountry == [] && series.genreIDs == [])
        let details = try decode(SeriesDetails.self, seriesJSON(#""episode_run_time":null,"seasons":null"#))
        #expect(details.episodeRunTime == [] && details.seasons == [] && details.createdBy == [] && details.networks == [])
        #expect(try decode(MovieSummary.self, movieJSON(#""genre_ids":[]"#)).genreIDs == [])
    }

    @Test func integerLiteralsDecodeAsDoubles() throws {
        let movie = try decode(MovieSummary.self, movieJSON(#""vote_average":5,"popularity":0,"vote_count":12"#))
        #expect(movie.voteAverage == 5.0)
        #expect(movie.popularity == 0.0)
        #expect(movie.voteCount == 12)
        #expect(try decode(MovieDetails.self, movieJSON(#""vote_average":7"#)).voteAverage == 7.0)
        #expect(try decode(SeriesDetails.self, seriesJSON(#""vote_average":8"#)).voteAverage == 8.0)
        #expect(try decode(MovieSummary.self, movieJSON()).voteAverage == 0, "missing reads as 0")
        #expect(try decode(Season.self, #"{"id":1,"season_number":1,"vote_average":6}"#).voteAverage == 6.0)
    }

    @Test func emptyStringsAndNullsAreAbsent() throws {
        let movie = try decode(MovieDetails.self, movieJSON(#""homepage":"","tagline":"","overview":"","imdb_id":null,"poster_path":null,"backdrop_path":"""#))
        #expect(movie.homepage == nil && movie.tagline == nil && movie.overview == nil)
        #expect(movie.imdbID == nil && movie.posterPath == nil && movie.backdropPath == nil)
        let company = try decode(ProductionCompany.self, #"{"id":1,"name":"C","logo_path":null,"origin_country":""}"#)
        #expect(company.logoPath == nil && company.originCountry == nil)
        let language = try decode(SpokenLanguage.self, #"{"iso_639_1":"xx","name":""}"#)
        #expect(language.englishName == nil && language.displayName == "xx", "older captures lack english_name")
        #expect(try decode(SpokenLanguage.self, #"{"iso_639_1":"de","name":"Deutsch"}"#).displayName == "Deutsch")
        #expect(try decode(SpokenLanguage.self, #"{"iso_639_1":"de","name":"Deutsch","english_name":"German"}"#).displayName == "German")
    }

    @Test func errorBodiesInEveryShape() throws {
        let noSuccess = try decode(TMDbErrorBody.self, #"{"status_message":"The resource you requested could not be found.","status_code":34}"#)
        #expect(noSuccess.statusCode == 34 && noSuccess.errors.isEmpty)
        let withSuccess = try decode(TMDbErrorBody.self, #"{"success":false,"status_code":6,"status_message":"Invalid id"}"#)
        #expect(withSuccess.statusCode == 6 && withSuccess.message == "Invalid id")
        let validation = try decode(TMDbErrorBody.self, #"{"errors":["query must be provided","page must be less than or equal to 500"]}"#)
        #expect(validation.statusCode == nil)
        #expect(validation.message == "query must be provided; page must be less than or equal to 500")
        let both = try decode(TMDbErrorBody.self, #"{"status_code":22,"status_message":"Invalid page","errors":["x"]}"#)
        #expect(both.message == "Invalid page", "the status message wins")
        let empty = try decode(TMDbErrorBody.self, "{}")
        #expect(empty.message == nil && empty.statusCode == nil)
        #expect(try decode(TMDbErrorBody.self, #"{"status_message":"","errors":[]}"#).message == nil)
    }

    @Test func wrongTypesStillThrow() {
        #expect(throws: DecodingError.self) { try decode(MovieSummary.self, #"{"id":"550","title":"Fight Club"}"#) }
        #expect(throws: DecodingError.self) { try decode(MovieDetails.self, #"{"id":"550","title":"Fight Club"}"#) }
        #expect(throws: DecodingError.self) { try decode(MovieSummary.self, #"{"title":"Fight Club"}"#) }
        #expect(throws: DecodingError.self) { try decode(MovieSummary.self, #"{"id":550}"#) }
        #expect(throws: DecodingError.self) { try decode(MovieSummary.self, #"{"id":550,"title":12}"#) }
        #expect(throws: DecodingError.self) { try decode(MovieSummary.self, movieJSON(#""poster_path":5"#)) }
        #expect(throws: DecodingError.self) { try decode(MovieSummary.self, movieJSON(#""vote_average":"5""#)) }
        #expect(throws: DecodingError.self) { try decode(MovieSummary.self, movieJSON(#""genre_ids":["28"]"#)) }
        #expect(throws: DecodingError.self) { try decode(MovieSummary.self, movieJSON(#""release_date":19991015"#)) }
        #expect(throws: DecodingError.self) { try decode(MovieDetails.self, movieJSON(#""runtime":"139""#)) }
        #expect(throws: DecodingError.self) { try decode(SeriesSummary.self, #"{"id":2.5,"name":"S"}"#) }
        #expect(throws: DecodingError.self) { try decode(TMDbErrorBody.self, #"{"status_code":"7"}"#) }
        #expect(throws: DecodingError.self) {
            try decode(Page<MovieSummary>.self, #"{"page":1,"results":[{"id":1,"title":"A"},{"id":"2","title":"B"}]}"#)
        }
    }

    @Test func pagesDefaultWhatIsMissing() throws {
        let page = try decode(Page<MovieSummary>.self, #"{"results":[{"id":1,"title":"A"}]}"#)
        #expect(page.page == 1 && page.totalPages == 0 && page.totalResults == 0 && page.results.count == 1)
        let big = try decode(Page<MovieSummary>.self, #"{"page":3,"results":[],"total_pages":42471,"total_results":849412}"#)
        #expect(big.lastReachablePage == 500)
        #expect(try decode(Page<MovieSummary>.self, #"{"page":1,"results":null,"total_pages":3}"#).lastReachablePage == 3)
    }
}

// MARK: - Mixed lists

@Suite struct MixedMediaTests {
    static let multi = #"""
    {"page":1,"total_pages":1,"total_results":5,"results":[
      {"media_type":"movie","id":550,"title":"Fight Club","release_date":"1999-10-15","popularity":61.4},
      {"media_type":"tv","id":1399,"name":"Game of Thrones","first_air_date":"2011-04-17","origin_country":["US"]},
      {"media_type":"person","id":287,"name":"Brad Pitt","known_for":[
        {"media_type":"movie","id":550,"title":"Fight Club"},
        {"media_type":"collection","id":10,"name":"Some Collection"},
        {"media_type":"tv","id":1399,"name":"Game of Thrones"},
        {"media_type":"person","id":1,"name":"Someone"}
      ]},
      {"media_type":"collection","id":10,"name":"Star Wars Collection"},
      {"id":11,"title":"no media type"}
    ]}
    """#

    @Test func multiSearchKeepsUnknownKindsAsUnknown() throws {
        let page = try decode(Page<MultiSearchResult>.self, Self.multi)
        #expect(page.results.count == 5)
        guard page.results.count == 5 else { return }
        if case .movie(let m) = page.results[0] { #expect(m.id == 550 && m.releaseDate?.year == 1999) } else { Issue.record("not a movie") }
        if case .series(let s) = page.results[1] { #expect(s.id == 1399 && s.originCountry == ["US"]) } else { Issue.record("not a series") }
        if case .person(let p) = page.results[2] {
            #expect(p.id == 287)
            #expect(p.knownFor.map(\.id) == [550, 1399], "collections and people are dropped from known_for, order kept")
            #expect(p.knownFor.map(\.isMovie) == [true, false])
        } else {
            Issue.record("not a person")
        }
        #expect(page.results[3] == .unknown(mediaType: "collection"))
        #expect(page.results[4] == .unknown(mediaType: ""))
        #expect(page.results.compactMap(\.media).map(\.id) == [550, 1399])
    }

    @Test func combinedCreditsSkipUnknownKinds() throws {
        let json = #"""
        {"id":287,"cast":[
          {"media_type":"movie","id":550,"title":"Fight Club","character":"Tyler Durden","credit_id":"c1","release_date":"1999-10-15"},
          {"media_type":"collection","id":10,"name":"A collection","character":"?"},
          {"media_type":"tv","id":1399,"name":"Game of Thrones","character":"","episode_count":3,"first_air_date":"2011-04-17"}
        ],"crew":[
          {"media_type":"movie","id":550,"title":"Fight Club","job":"Producer","department":"Production"},
          {"media_type":"podcast","id":7,"name":"A podcast","job":"Host"}
        ]}
        """#
        let credits = try decode(CombinedCredits.self, json)
        #expect(credits.id == 287)
        #expect(credits.cast.map(\.media.id) == [550, 1399])
        #expect(credits.cast[0].character == "Tyler Durden" && credits.cast[0].creditID == "c1")
        #expect(credits.cast[1].character == nil && credits.cast[1].episodeCount == 3)
        #expect(credits.crew.map(\.media.id) == [550])
        #expect(credits.crew[0].job == "Producer" && credits.crew[0].department == "Production")
        // Fight Club is in cast and crew: once in the filmography, newest first.
        #expect(credits.filmography.map(\.media.id) == [1399, 550])
    }

    @Test func filmographyOrder() throws {
        let json = #"""
        {"cast":[
          {"media_type":"movie","id":1,"title":"B undated","release_date":""},
          {"media_type":"movie","id":2,"title":"Old","release_date":"1990-01-01"},
          {"media_type":"tv","id":2,"name":"Same id, a series","first_air_date":"2010-05-05"},
          {"media_type":"movie","id":3,"title":"Z same day","release_date":"2000-01-01"},
          {"media_type":"movie","id":4,"title":"A same day","release_date":"2000-01-01"},
          {"media_type":"movie","id":5,"title":"A undated"}
        ],"crew":[
          {"media_type":"movie","id":2,"title":"Old","release_date":"1990-01-01","job":"Director"}
        ]}
        """#
        let credits = try decode(CombinedCredits.self, json)
        #expect(credits.id == nil)
        #expect(credits.filmography.map(\.media.title) == ["Same id, a series", "A same day", "Z same day", "Old", "A undated", "B undated"])
    }

    @Test func appendedObjectsHaveNoID() throws {
        let movie = try decode(MovieDetails.self, movieJSON(#"""
        "videos":{"results":[{"key":"k","site":"YouTube","type":"Trailer","name":"T","official":true}]},
        "credits":{"cast":[{"id":287,"name":"Brad Pitt","character":"Tyler Durden","order":0}],"crew":[{"id":7467,"name":"David Fincher","job":"Director","department":"Directing"}]},
        "similar":{"page":1,"results":[{"id":9,"title":"Similar"}],"total_pages":1,"total_results":1}
        """#))
        #expect(movie.videos?.id == nil && movie.videos?.results.map(\.key) == ["k"])
        #expect(movie.credits?.id == nil && movie.credits?.cast.first?.id == 287)
        #expect(movie.credits?.directors.map(\.name) == ["David Fincher"])
        #expect(movie.similar?.results.map(\.id) == [9])
        let series = try decode(SeriesDetails.self, seriesJSON(#""videos":{"results":[]},"credits":{"cast":[],"crew":[]}"#))
        #expect(series.videos?.id == nil && series.videos?.results == [] && series.credits?.id == nil)
        let person = try decode(PersonDetails.self, #"{"id":287,"name":"Brad Pitt","combined_credits":{"cast":[],"crew":[]}}"#)
        #expect(person.combinedCredits?.id == nil && person.combinedCredits?.cast == [])
    }
}

// MARK: - Images and videos

@Suite struct ImageAndVideoTests {
    static func configuration(secure: String = "https://image.tmdb.org/t/p/", base: String = "http://image.tmdb.org/t/p/") throws -> ImageConfiguration {
        try decode(ImageConfiguration.self, #"""
        {"base_url":"\#(base)","secure_base_url":"\#(secure)",
         "backdrop_sizes":["w300","w780","w1280","original"],
         "logo_sizes":["w45","w92","w154","w185","w300","w500","original"],
         "poster_sizes":["w92","w154","w185","w342","w500","w780","original"],
         "profile_sizes":["w45","w185","h632","original"],
         "still_sizes":["w92","w185","w300","original"]}
        """#)
    }

    @Test func imageURLs() throws {
        let c = try Self.configuration()
        #expect(c.url("/abc.jpg", kind: .poster, size: "w500") == "https://image.tmdb.org/t/p/w500/abc.jpg")
        #expect(c.url(nil, kind: .poster, size: "w500") == nil)
        #expect(c.url("", kind: .poster, size: "w500") == nil)
        #expect(c.url("/abc.jpg", kind: .poster, size: "w9999") == "https://image.tmdb.org/t/p/original/abc.jpg")
        #expect(c.url("/abc.jpg", kind: .poster, size: "h632") == "https://image.tmdb.org/t/p/original/abc.jpg", "h632 is a profile size")
        #expect(c.url("/abc.jpg", kind: .profile, size: "h632") == "https://image.tmdb.org/t/p/h632/abc.jpg")
        #expect(c.url("/logo.svg", kind: .logo, size: "w500") == "https://image.tmdb.org/t/p/original/logo.svg")
        #expect(c.url("/LOGO.SVG", kind: .logo, size: "w92") == "https://image.tmdb.org/t/p/original/LOGO.SVG")
        #expect(c.url("/logo.png", kind: .logo, size: "w92") == "https://image.tmdb.org/t/p/w92/logo.png")
        #expect(c.url("abc.jpg", kind: .still, size: "w300") == "https://image.tmdb.org/t/p/w300/abc.jpg")
        #expect(c.sizes(for: .backdrop) == ["w300", "w780", "w1280", "original"])
    }

    @Test func imageURLBases() throws {
        let noSlash = try Self.configuration(secure: "https://img.example/t/p")
        #expect(noSlash.url("/a.jpg", kind: .backdrop, size: "w780") == "https://img.example/t/p/w780/a.jpg")
        let insecureOnly = try Self.configuration(secure: "")
        #expect(insecureOnly.url("/a.jpg", kind: .backdrop, size: "w780") == "http://image.tmdb.org/t/p/w780/a.jpg")
        let none = try Self.configuration(secure: "", base: "")
        #expect(none.url("/a.jpg", kind: .backdrop, size: "w780") == nil)
    }

    static func video(_ key: String, site: String = "YouTube", type: String = "Trailer", official: Bool = true, published: String? = nil) throws -> Video {
        var fields = [#""key":"\#(key)""#, #""site":"\#(site)""#, #""type":"\#(type)""#, #""official":\#(official)"#, #""name":"\#(key)""#]
        if let published { fields.append(#""published_at":"\#(published)""#) }
        return try decode(Video.self, "{" + fields.joined(separator: ",") + "}")
    }

    @Test func watchURLs() throws {
        #expect(try Self.video("dfeUzm6KF4g").watchURL == "https://www.youtube.com/watch?v=dfeUzm6KF4g")
        #expect(try Self.video("abc", site: "youtube").watchURL == "https://www.youtube.com/watch?v=abc")
        #expect(try Self.video("12345", site: "Vimeo").watchURL == "https://vimeo.com/12345")
        #expect(try Self.video("x", site: "Dailymotion").watchURL == nil)
        #expect(try Self.video("x", site: "").watchURL == nil)
        #expect(try Self.video("x", type: "Teaser").isTrailer)
        #expect(try !Self.video("x", type: "Clip").isTrailer)
    }

    @Test func trailersOfficialFirstThenTrailersBeforeTeasersThenNewest() throws {
        let all = try [
            Self.video("teaser-official-2021", type: "Teaser", published: "2021-01-01T00:00:00.000Z"),
            Self.video("trailer-unofficial-2022", official: false, published: "2022-01-01T00:00:00.000Z"),
            Self.video("trailer-official-2019", published: "2019-01-01T00:00:00.000Z"),
            Self.video("clip-official-2023", type: "Clip", published: "2023-01-01T00:00:00.000Z"),
            Self.video("trailer-official-2020", published: "2020-01-01T00:00:00.000Z"),
            Self.video("vimeo-trailer-official-2018", site: "Vimeo", published: "2018-01-01T00:00:00.000Z"),
            Self.video("dailymotion-trailer-2024", site: "Dailymotion", published: "2024-01-01T00:00:00.000Z"),
            Self.video("teaser-unofficial-undated", type: "Teaser", official: false),
        ]
        let list = try decode(VideoList.self, #"{"id":550,"results":[]}"#)
        #expect(list.id == 550 && list.trailers.isEmpty)
        // VideoList has no memberwise initializer; build one through JSON.
        let json = try JSONSerialization.data(withJSONObject: ["results": all.map { v -> [String: Any] in
            var o: [String: Any] = ["key": v.key, "site": v.site, "type": v.type, "official": v.official, "name": v.name]
            if let p = v.publishedAt { o["published_at"] = p }
            return o
        }])
        let videos = try JSONDecoder().decode(VideoList.self, from: json)
        #expect(videos.results.count == all.count)
        #expect(videos.trailers.map(\.key) == [
            "trailer-official-2020", "trailer-official-2019", "vimeo-trailer-official-2018",
            "teaser-official-2021", "trailer-unofficial-2022", "teaser-unofficial-undated",
        ])
    }
}

// MARK: - Requests

@Suite struct QueryItemEncodingTests {
    @Test func encoding() {
        #expect(QueryItem("with_genres", "28|12").encoded == "with_genres=28%7C12")
        #expect(QueryItem("with_genres", "28,12").encoded == "with_genres=28,12")
        #expect(QueryItem("query", "fight club").encoded == "query=fight%20club")
        #expect(QueryItem("query", "a+b").encoded == "query=a%2Bb")
        #expect(QueryItem("query", "Amélie").encoded == "query=Am%C3%A9lie")
        #expect(QueryItem("query", "東京").encoded == "query=%E6%9D%B1%E4%BA%AC")
        #expect(QueryItem("query", "🎬").encoded == "query=%F0%9F%8E%AC")
        #expect(QueryItem("query", "&=?#/%").encoded == "query=%26%3D%3F%23%2F%25")
        #expect(QueryItem("vote_count.gte", "a-b_c.d~e").encoded == "vote_count.gte=a-b_c.d~e")
        #expect(QueryItem("q", "").encoded == "q=")
    }

    @Test func unescaping() {
        #expect(QueryItem.unescape("fight+club") == "fight club", "form encoding: + is a space")
        #expect(QueryItem.unescape("fight%20club") == "fight club")
        #expect(QueryItem.unescape("a%2Bb") == "a+b")
        #expect(QueryItem.unescape("28%7c12") == "28|12", "lower-case hex")
        #expect(QueryItem.unescape("Am%C3%A9lie") == "Amélie")
        #expect(QueryItem.unescape("") == "")
        #expect(QueryItem.unescape("%") == nil)
        #expect(QueryItem.unescape("%4") == nil)
        #expect(QueryItem.unescape("%G0") == nil)
        #expect(QueryItem.unescape("%FF") == nil, "not UTF-8")
        #expect(QueryItem.unescape("%C3") == nil, "a cut UTF-8 sequence")
    }

    @Test func parsing() throws {
        #expect(QueryItem.parse(query: "a=1&b=2") == [QueryItem("a", "1"), QueryItem("b", "2")])
        #expect(QueryItem.parse(query: "b=2&a=1") == [QueryItem("b", "2"), QueryItem("a", "1")], "order kept")
        #expect(QueryItem.parse(query: "a") == [QueryItem("a", "")])
        #expect(QueryItem.parse(query: "a=&&b=x%3Dy") == [QueryItem("a", ""), QueryItem("b", "x=y")])
        #expect(QueryItem.parse(query: "a=b=c") == [QueryItem("a", "b=c")])
        #expect(QueryItem.parse(query: "") == [])
        #expect(QueryItem.parse(query: "%zz=1") == nil)
        #expect(QueryItem.parse(query: "a=1&b=%E") == nil)
    }

    @Test func encodeThenParseRoundTrips() throws {
        let alphabet: [String] = ["a", "Z", "0", " ", "+", "&", "=", "%", "|", ",", ".", "-", "_", "~", "?", "#", "/", "é", "ß", "東", "🎬", "\"", "'", "\n"]
        var random = SplitMix64(seed: 0x5EED_CA7A_1060)
        for _ in 0..<500 {
            let items = (0..<random.int(1..<5)).map { _ in
                QueryItem(
                    (0..<random.int(1..<6)).map { _ in random.pick(alphabet) }.joined(),
                    (0..<random.int(0..<8)).map { _ in random.pick(alphabet) }.joined()
                )
            }
            let query = items.map(\.encoded).joined(separator: "&")
            #expect(QueryItem.parse(query: query) == items, "\(query)")
            for item in items {
                #expect(QueryItem.unescape(item.encoded.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[1]) == item.value)
            }
        }
    }

    @Test func ordering() {
        #expect(QueryItem("a", "2") < QueryItem("b", "1"))
        #expect(QueryItem("a", "1") < QueryItem("a", "2"))
        #expect(!(QueryItem("a", "1") < QueryItem("a", "1")))
    }
}

@Suite struct CatalogRequestKeyTests {
    @Test func keySortsTheQueryAndDropsNils() {
        let a = CatalogRequest(.search, path: "/search/movie", query: [("query", "b"), ("page", "1"), ("language", "en-US"), ("year", nil)])
        let b = CatalogRequest(.search, path: "/search/movie", query: [("language", "en-US"), ("year", nil), ("query", "b"), ("page", "1")])
        #expect(a.key == "/search/movie?language=en-US&page=1&query=b")
        #expect(a == b && a.key == b.key)
        #expect(a.description == a.key)
        #expect(a.value(of: "query") == "b" && a.value(of: "year") == nil)
        #expect(CatalogRequest(.configuration, path: "/configuration").key == "/configuration")
        let twice = CatalogRequest(.discover, path: "/x", query: [("k", "2"), ("k", "1")])
        #expect(twice.key == "/x?k=1&k=2")
    }

    @Test func builders() {
        #expect(CatalogRequest.details(.movie, id: 550, language: "de-DE", appending: [.videos, .credits]).key
            == "/movie/550?append_to_response=credits,videos&language=de-DE")
        #expect(CatalogRequest.details(.tv, id: 1399, language: "en-US").key == "/tv/1399?language=en-US")
        #expect(CatalogRequest.person(287, language: "en-US").key == "/person/287?append_to_response=combined_credits&language=en-US")
        #expect(CatalogRequest.person(287, language: "en-US", withCredits: false).key == "/person/287?language=en-US")
        #expect(CatalogRequest.search(.movie, query: "Fight Club", language: "en-US", year: 1999).key
            == "/search/movie?include_adult=false&language=en-US&page=1&query=Fight%20Club&year=1999")
        #expect(CatalogRequest.search(.tv, query: "x", page: 2, language: "en-US", year: 2011).value(of: "first_air_date_year") == "2011")
        #expect(CatalogRequest.search(.multi, query: "x", language: "en-US", year: 2011).key == "/search/multi?include_adult=false&language=en-US&page=1&query=x")
        #expect(CatalogRequest.chart(.topRated, .movie, language: "en-US", region: "DE").key == "/movie/top_rated?language=en-US&page=1&region=DE")
        #expect(CatalogRequest.chart(.popular, .tv, language: "en-US", region: "DE").key == "/tv/popular?language=en-US&page=1")
        #expect(CatalogRequest.genres(.tv, language: "de-DE").key == "/genre/tv/list?language=de-DE")
        #expect(CatalogRequest.similar(.movie, id: 550, page: 3, language: "en-US").key == "/movie/550/similar?language=en-US&page=3")
        #expect(CatalogRequest.personCredits(287, language: "en-US").endpoint == .person)
        #expect(CatalogRequest.authentication.endpoint == .authentication)
    }

    static var everyBuilder: [CatalogRequest] {
        var all: [CatalogRequest] = [.configuration, .authentication]
        for type in MediaType.allCases {
            all.append(.genres(type, language: "en-US"))
            all.append(.details(type, id: 1, language: "en-US", appending: Set(CatalogRequest.Appendix.allCases)))
            all.append(.similar(type, id: 1, language: "en-US"))
            all.append(.videos(type, id: 1, language: "en-US"))
            all.append(.credits(type, id: 1, language: "en-US"))
            all.append(.chart(.popular, type, language: "en-US", region: "US"))
            var discover = DiscoverQuery(mediaType: type)
            discover.order = .rating
            discover.genres = [18, 35]
            discover.people = [287]
            discover.year = 1999
            all.append(discover.request)
        }
        for kind in [CatalogRequest.Kind.movie, .tv, .person, .multi] { all.append(.search(kind, query: "q", language: "en-US", year: 2000)) }
        all.append(.person(1, language: "en-US"))
        all.append(.personCredits(1, language: "en-US"))
        return all
    }

    @Test func keysNeverCarryCredentials() {
        for request in Self.everyBuilder {
            for secret in ["api_key", "apikey", "access_token", "session_id", "bearer", "authorization"] {
                #expect(!request.key.lowercased().contains(secret), "\(request.key)")
            }
            #expect(request.key.hasPrefix(request.path))
            #expect(request.query == request.query.sorted(), "\(request.key)")
        }
    }
}

@Suite struct DiscoverQueryRequestTests {
    @Test func defaults() {
        #expect(DiscoverQuery(mediaType: .movie).request.key
            == "/discover/movie?include_adult=false&include_video=false&language=en-US&page=1&sort_by=popularity.desc")
        #expect(DiscoverQuery(mediaType: .tv).request.key
            == "/discover/tv?include_adult=false&include_null_first_air_dates=false&language=en-US&page=1&sort_by=popularity.desc")
        #expect(DiscoverQuery(mediaType: .movie).request.endpoint == .discover)
    }

    @Test(arguments: [
        (DiscoverQuery.Order.popularity, MediaType.movie, "popularity"), (.popularity, .tv, "popularity"),
        (.release, .movie, "primary_release_date"), (.release, .tv, "first_air_date"),
        (.rating, .movie, "vote_average"), (.rating, .tv, "vote_average"),
        (.title, .movie, "title"), (.title, .tv, "name"),
    ])
    func sortBy(_ order: DiscoverQuery.Order, _ type: MediaType, _ field: String) {
        var q = DiscoverQuery(mediaType: type)
        q.order = order
        #expect(q.sortBy == field + ".desc")
        #expect(q.request.value(of: "sort_by") == field + ".desc")
        q.descending = false
        #expect(q.request.value(of: "sort_by") == field + ".asc")
        #expect((q.request.value(of: "vote_count.gte") != nil) == (order == .rating), "a vote floor only when ordering by rating")
    }

    @Test func genres() {
        var q = DiscoverQuery(mediaType: .movie)
        q.genres = [28, 12]
        #expect(q.request.value(of: "with_genres") == "28,12")
        #expect(q.request.key.contains("with_genres=28,12"))
        q.genreMatch = .any
        #expect(q.request.value(of: "with_genres") == "28|12")
        #expect(q.request.key.contains("with_genres=28%7C12"))
        q.genres = []
        #expect(q.request.value(of: "with_genres") == nil)
        var tv = DiscoverQuery(mediaType: .tv)
        tv.genres = [10759, 18]
        tv.genreMatch = .any
        #expect(tv.request.value(of: "with_genres") == "10759|18")
    }

    @Test func peopleYearsAndRegion() {
        var movie = DiscoverQuery(mediaType: .movie)
        movie.people = [287, 819]
        movie.year = 1999
        movie.region = "DE"
        movie.page = 3
        movie.language = "de-DE"
        let m = movie.request
        #expect(m.value(of: "with_people") == "287,819")
        #expect(m.value(of: "primary_release_year") == "1999")
        #expect(m.value(of: "first_air_date_year") == nil)
        #expect(m.value(of: "region") == "DE")
        #expect(m.value(of: "page") == "3" && m.value(of: "language") == "de-DE")
        var series = DiscoverQuery(mediaType: .tv)
        series.people = [287]
        series.year = 2011
        series.region = "DE"
        let s = series.request
        #expect(s.value(of: "with_people") == nil, "people are movies only")
        #expect(s.value(of: "first_air_date_year") == "2011")
        #expect(s.value(of: "primary_release_year") == nil)
        #expect(s.value(of: "region") == nil)
        #expect(s.value(of: "include_null_first_air_dates") == "false")
    }

    @Test func ratingFloor() {
        var q = DiscoverQuery(mediaType: .movie)
        q.order = .rating
        #expect(q.request.value(of: "vote_count.gte") == "200")
        q.minimumVotesForRating = 50
        #expect(q.request.value(of: "vote_count.gte") == "50")
        #expect(q.request.key.contains("vote_count.gte=50"))
    }
}

// MARK: - Politeness and caching

@Suite struct RetryPolicyTimingTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT

    @Test func retryAfterSeconds() {
        #expect(RetryPolicy.retryAfter("120", now: Self.now) == .seconds(120))
        #expect(RetryPolicy.retryAfter(" 7 ", now: Self.now) == .seconds(7))
        #expect(RetryPolicy.retryAfter("0", now: Self.now) == .zero)
    }

    @Test func retryAfterHTTPDates() {
        #expect(RetryPolicy.retryAfter("Tue, 14 Nov 2023 22:13:50 GMT", now: Self.now) == .seconds(30))
        #expect(RetryPolicy.retryAfter("Tuesday, 14-Nov-23 22:13:50 GMT", now: Self.now) == .seconds(30), "RFC 850")
        #expect(RetryPolicy.retryAfter("Tue Nov 14 22:13:50 2023", now: Self.now) == .seconds(30), "asctime")
        #expect(RetryPolicy.retryAfter("Tue, 14 Nov 2023 22:13:20 GMT", now: Self.now) == .zero, "now")
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: Self.now) == .zero, "the past means now")
    }

    @Test func retryAfterGarbage() {
        for text in ["", "soon", "-5", "1.5", "Tue, 99 Nov 2023 22:13:50 GMT", "120s"] {
            #expect(RetryPolicy.retryAfter(text, now: Self.now) == nil, "\(text)")
        }
    }

    @Test func retryableStatuses() {
        #expect([429, 500, 502, 503, 504].allSatisfy(RetryPolicy.isRetryable(status:)))
        #expect(![200, 304, 400, 401, 404, 422, 501].contains(where: RetryPolicy.isRetryable(status:)))
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    @Test func backoffGrowsExponentiallyUpToTheCap() {
        let policy = RetryPolicy()  // 250 ms base, 8 s cap
        #expect(policy.backoff(attempt: 1, random: 0) == .milliseconds(125))
        #expect(policy.backoff(attempt: 2, random: 0) == .milliseconds(250))
        #expect(policy.backoff(attempt: 3, random: 0) == .milliseconds(500))
        #expect(policy.backoff(attempt: 4, random: 0) == .milliseconds(1000))
        #expect(policy.backoff(attempt: 1, random: 0.5) == .nanoseconds(187_500_000))
        #expect(policy.backoff(attempt: 0, random: 0) == policy.backoff(attempt: 1, random: 0), "attempts start at 1")
        #expect(policy.backoff(attempt: -3, random: 0) == policy.backoff(attempt: 1, random: 0))
        #expect(policy.backoff(attempt: 6, random: 0) == .seconds(4), "8 s is the cap: half of it at least")
        #expect(policy.backoff(attempt: 1_000, random: 0) == .seconds(4))
        var previous = Duration.zero
        for attempt in 1...10 {
            let d = policy.backoff(attempt: attempt, random: 0)
            #expect(d >= previous)
            previous = d
        }
    }

    @Test func backoffStaysWithinHalfToFullOfItsCeiling() {
        let policy = RetryPolicy(maximumRetries: 10, baseDelay: .milliseconds(100), maximumDelay: .seconds(3))
        var random = SplitMix64(seed: 42)
        for attempt in 1...64 {
            let ceiling = min(0.1 * pow(2, Double(min(attempt - 1, 30))), 3)
            for _ in 0..<20 {
                let r = Double.random(in: 0..<1, using: &random)
                let d = Self.seconds(policy.backoff(attempt: attempt, random: r))
                #expect(d >= ceiling / 2 - 1e-9 && d <= ceiling + 1e-9, "attempt \(attempt): \(d) outside [\(ceiling / 2), \(ceiling)]")
            }
            // The default random argument stays in range too.
            let d = Self.seconds(policy.backoff(attempt: attempt))
            #expect(d >= ceiling / 2 - 1e-9 && d <= ceiling + 1e-9)
        }
    }
}

@Suite struct CacheLifetimeRuleTests {
    static func response(_ cacheControl: String?) -> TransportResponse {
        TransportResponse(status: 200, headers: cacheControl.map { ["Cache-Control": $0] } ?? [:])
    }

    @Test func maxAge() {
        #expect(CacheLifetime.of(Self.response("max-age=600"), endpoint: .details) == .seconds(600))
        #expect(CacheLifetime.of(Self.response("public, max-age=20000"), endpoint: .search) == .seconds(20000))
        #expect(CacheLifetime.of(Self.response("Public, Max-Age = 90"), endpoint: .search) == .seconds(90))
        #expect(CacheLifetime.of(Self.response(#"max-age="45""#), endpoint: .search) == .seconds(45))
        #expect(CacheLifetime.of(Self.response("max-age=0"), endpoint: .details) == .seconds(0))
        #expect(CacheLifetime.of(Self.response("max-age=-5"), endpoint: .details) == .seconds(24 * 3600), "a bad max-age is ignored")
        #expect(CacheLifetime.of(Self.response("max-age=soon"), endpoint: .list) == .seconds(3600))
    }

    @Test func noStoreAndNoCache() {
        #expect(CacheLifetime.of(Self.response("no-store"), endpoint: .details) == .doNotStore)
        #expect(CacheLifetime.of(Self.response("max-age=600, no-store"), endpoint: .details) == .doNotStore)
        #expect(CacheLifetime.of(Self.response("no-cache"), endpoint: .details) == .seconds(0))
        #expect(CacheLifetime.of(Self.response("max-age=600, no-cache"), endpoint: .details) == .seconds(0))
    }

    /// `no-store` forbids storing whatever else the header says, in whichever order.
    @Test func noStoreWinsOverNoCacheInAnyOrder() {
        #expect(CacheLifetime.of(Self.response("no-store, no-cache"), endpoint: .details) == .doNotStore)
        #expect(CacheLifetime.of(Self.response("no-cache, no-store, must-revalidate"), endpoint: .details) == .doNotStore)
    }

    @Test func noHeaderMeansTheEndpointDefault() {
        for endpoint in CatalogEndpoint.allCases where endpoint != .authentication {
            #expect(CacheLifetime.of(Self.response(nil), endpoint: endpoint) == .seconds(endpoint.defaultLifetime))
            #expect(CacheLifetime.of(Self.response("public"), endpoint: endpoint) == .seconds(endpoint.defaultLifetime))
        }
        #expect(CatalogEndpoint.details.defaultLifetime == 24 * 3600)
        #expect(CatalogEndpoint.genres.defaultLifetime == 7 * 24 * 3600)
        #expect(CatalogEndpoint.configuration.defaultLifetime == 7 * 24 * 3600)
        #expect(CatalogEndpoint.search.defaultLifetime == 3600)
        #expect(CatalogEndpoint.discover.defaultLifetime == 3600)
    }

    @Test func keyChecksAreNeverStored() {
        #expect(CacheLifetime.of(Self.response(nil), endpoint: .authentication) == .doNotStore)
        #expect(CacheLifetime.of(Self.response("max-age=600"), endpoint: .authentication) == .doNotStore)
        #expect(CatalogEndpoint.authentication.defaultLifetime == 0)
    }
}

@Suite struct TMDbDateEdgeTests {
    @Test func parsing() {
        #expect(TMDbDate(parsing: "1999-10-15") == TMDbDate(year: 1999, month: 10, day: 15))
        #expect(TMDbDate(parsing: "1999-10-15")?.year == 1999)
        for bad in ["", " ", "1999", "1999-10", "1999-10-15T00:00:00Z", "99-10-15", "1999-1-15", "1999-10-5",
                    "1999-00-10", "1999-13-10", "1999-10-00", "1999-10-32", "0000-01-01", "abcd-ef-gh", "1999/10/15", "1999-10-15-"] {
            #expect(TMDbDate(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func descriptionPadsAndRoundTrips() throws {
        #expect(TMDbDate(year: 5, month: 1, day: 2)?.description == "0005-01-02")
        #expect(TMDbDate(year: 2024, month: 12, day: 31)?.description == "2024-12-31")
        for text in ["1895-12-28", "2000-02-29", "9999-12-31", "0001-01-01"] {
            #expect(TMDbDate(parsing: text)?.description == text)
        }
        #expect(TMDbDate(year: 10000, month: 1, day: 1) == nil)
    }

    @Test func ordering() throws {
        let days = ["2001-01-01", "1999-12-31", "2000-01-01", "1999-01-31", "1999-02-01"].compactMap(TMDbDate.init(parsing:))
        #expect(days.sorted().map(\.description) == ["1999-01-31", "1999-02-01", "1999-12-31", "2000-01-01", "2001-01-01"])
        #expect(try #require(TMDbDate(parsing: "1999-10-15")) < #require(TMDbDate(parsing: "1999-10-16")))
    }

    @Test func decodedFromStringsOnly() throws {
        struct Holder: Decodable {
            let d: TMDbDate?
            enum CodingKeys: String, CodingKey { case d }
            init(from decoder: any Decoder) throws { d = try decoder.container(keyedBy: CodingKeys.self).day(.d) }
        }
        #expect(try decode(Holder.self, #"{"d":"2011-04-17"}"#).d?.description == "2011-04-17")
        #expect(try decode(Holder.self, #"{"d":"not a date"}"#).d == nil)
        #expect(throws: DecodingError.self) { try decode(Holder.self, #"{"d":20110417}"#) }
    }
}
