import Foundation
import Ledger
import Testing
@testable import Catalog

/// The bundled sample catalog asked directly (no HTTP). Expectations are derived from the
/// catalog's own answers, so these hold for any sample data that has Fight Club (550) with
/// Brad Pitt (287) in its cast.
enum SampleAPI {
    static let responder = SampleResponder(catalog: .bundled)
    static var catalog: SampleCatalog { responder.catalog }

    static func answer(_ path: String, _ query: [String: String] = [:]) -> SampleResponder.Answer {
        responder.respond(path: path, query: query.map { QueryItem($0.key, $0.value) }.sorted())
    }

    static func text(_ answer: SampleResponder.Answer) -> String { String(decoding: answer.body, as: UTF8.self) }

    /// The answer as `T`, which must have come with status 200.
    static func get<T: Decodable>(_ type: T.Type, _ path: String, _ query: [String: String] = [:]) throws -> T {
        let a = answer(path, query)
        try #require(a.status == 200, "\(path) \(query) → \(a.status) \(text(a))")
        do {
            return try decodeAsTheClientDoes(T.self, a.body)
        } catch {
            Issue.record("\(path) \(query) does not decode as \(T.self): \(error)\n\(text(a).prefix(400))")
            throw error
        }
    }

    static func failure(_ path: String, _ query: [String: String] = [:]) throws -> (status: Int, body: TMDbErrorBody) {
        let a = answer(path, query)
        return (a.status, try JSONDecoder().decode(TMDbErrorBody.self, from: Data(a.body)))
    }

    /// Every page of a list, checking on the way that pages are coherent: 20 a page, the same
    /// totals on every page, `total_pages` = ⌈`total_results` / 20⌉, and nothing beyond.
    static func all<T: Decodable & Sendable>(_ type: T.Type, _ path: String, _ query: [String: String] = [:]) throws -> [T] {
        let first = try get(Page<T>.self, path, query)
        let size = SampleResponder.pageSize
        #expect(first.page == 1)
        #expect(first.totalPages == (first.totalResults + size - 1) / size, "\(path) \(query): \(first.totalResults) results in \(first.totalPages) pages")
        var items = first.results
        let last = min(first.totalPages, Page<T>.maximumPage)
        if last >= 2 {
            for n in 2...last {
                var q = query
                q["page"] = String(n)
                let page = try get(Page<T>.self, path, q)
                #expect(page.page == n)
                #expect(page.totalPages == first.totalPages && page.totalResults == first.totalResults)
                items += page.results
            }
        }
        let expected = min(first.totalResults, Page<T>.maximumPage * size)
        #expect(items.count == expected, "\(path) \(query): pages hold \(items.count) of \(first.totalResults)")
        // Every page but the last is full.
        if first.totalPages >= 1 {
            #expect(first.results.count == (first.totalPages == 1 ? first.totalResults : size))
        }
        if last < Page<T>.maximumPage {
            var q = query
            q["page"] = String(last + 1)
            let beyond = try get(Page<T>.self, path, q)
            #expect(beyond.results.isEmpty, "\(path): page \(last + 1) is past the end")
            #expect(beyond.totalResults == first.totalResults)
        }
        return items
    }

    static func allMovies(_ query: [String: String] = [:]) throws -> [MovieSummary] {
        try all(MovieSummary.self, "/discover/movie", query)
    }

    static func allSeries(_ query: [String: String] = [:]) throws -> [SeriesSummary] {
        try all(SeriesSummary.self, "/discover/tv", query)
    }

    static func movieIDs(_ query: [String: String]) throws -> Set<Int> { Set(try allMovies(query).map(\.id)) }
    static func seriesIDs(_ query: [String: String]) throws -> Set<Int> { Set(try allSeries(query).map(\.id)) }

    /// An id of the right shape that the catalog does not have.
    static func unusedID(_ used: [Int]) -> Int {
        let taken = Set(used)
        return (2_000_000_000...).first { !taken.contains($0) }!
    }
}

@Suite struct SampleResponderTests {
    // MARK: - The placeholder-proof minimum

    @Test func fightClubWithBradPittIsThere() throws {
        #expect(SampleAPI.catalog.movieIDs.contains(550))
        #expect(SampleAPI.catalog.personIDs.contains(287))
        let movie = try SampleAPI.get(MovieDetails.self, "/movie/550")
        #expect(movie.id == 550 && movie.title == "Fight Club")
        let credits = try SampleAPI.get(Credits.self, "/movie/550/credits")
        #expect(credits.id == 550)
        #expect(credits.cast.contains { $0.id == 287 && $0.name == "Brad Pitt" })
        #expect(SampleAPI.catalog.movieCount == SampleAPI.catalog.movieIDs.count)
        #expect(Set(SampleAPI.catalog.movieIDs).count == SampleAPI.catalog.movieCount, "movie ids are unique")
        #expect(Set(SampleAPI.catalog.seriesIDs).count == SampleAPI.catalog.seriesCount, "series ids are unique")
        #expect(Set(SampleAPI.catalog.personIDs).count == SampleAPI.catalog.personCount, "person ids are unique")
    }

    // MARK: - Paging

    static let lists: [String] = [
        "/discover/movie", "/discover/tv", "/movie/popular", "/movie/top_rated", "/tv/popular", "/tv/top_rated",
    ]

    @Test(arguments: lists)
    func pagingIsCoherent(_ path: String) throws {
        if path.contains("tv") {
            let items = try SampleAPI.all(SeriesSummary.self, path)
            #expect(Set(items.map(\.id)).count == items.count, "no title on two pages")
            if path == "/discover/tv" { #expect(items.count == SampleAPI.catalog.seriesCount) }
        } else {
            let items = try SampleAPI.all(MovieSummary.self, path)
            #expect(Set(items.map(\.id)).count == items.count, "no title on two pages")
            if path == "/discover/movie" { #expect(items.count == SampleAPI.catalog.movieCount) }
        }
    }

    @Test func searchAndSimilarPagesAreCoherent() throws {
        let multi = try SampleAPI.all(MultiSearchResult.self, "/search/multi", ["query": "a"])
        let keys = multi.map { r -> String in
            switch r {
            case .movie(let m): "movie-\(m.id)"
            case .series(let s): "tv-\(s.id)"
            case .person(let p): "person-\(p.id)"
            case .unknown(let kind): "unknown-\(kind)"
            }
        }
        #expect(Set(keys).count == keys.count)
        #expect(!keys.contains { $0.hasPrefix("unknown") })
        for id in SampleAPI.catalog.movieIDs {
            let similar = try SampleAPI.all(MovieSummary.self, "/movie/\(id)/similar")
            #expect(similar.allSatisfy { SampleAPI.catalog.movieIDs.contains($0.id) }, "similar to \(id) outside the catalog")
        }
        for id in SampleAPI.catalog.seriesIDs {
            let similar = try SampleAPI.all(SeriesSummary.self, "/tv/\(id)/similar")
            #expect(similar.allSatisfy { SampleAPI.catalog.seriesIDs.contains($0.id) })
        }
    }

    static var pagedPaths: [(String, [String: String])] {
        var paths: [(String, [String: String])] = [
            ("/discover/movie", [:]), ("/discover/tv", [:]), ("/movie/popular", [:]), ("/tv/top_rated", [:]),
            ("/search/movie", ["query": "fight"]), ("/search/multi", ["query": "a"]), ("/movie/550/similar", [:]),
        ]
        if let series = SampleAPI.catalog.seriesIDs.first { paths.append(("/tv/\(series)/similar", [:])) }
        return paths
    }

    @Test(arguments: ["0", "501", "x", "-1", "1.5", "1e2", "99999999999999999999"])
    func pagesOutsideOneTo500AreError22(_ page: String) throws {
        for (path, query) in Self.pagedPaths {
            var q = query
            q["page"] = page
            let (status, body) = try SampleAPI.failure(path, q)
            #expect(status == 400, "\(path) page=\(page)")
            #expect(body.statusCode == 22, "\(path) page=\(page)")
            #expect(body.statusMessage?.hasPrefix("Invalid page") == true)
        }
    }

    @Test func pages1And500AreFine() throws {
        for (path, query) in Self.pagedPaths {
            for page in ["1", "500"] {
                var q = query
                q["page"] = page
                #expect(SampleAPI.answer(path, q).status == 200, "\(path) page=\(page)")
            }
        }
    }

    // MARK: - Errors

    @Test(arguments: [
        "", "/", "/nothing", "/movie", "/movie/550/nothing", "/movie/550/credits/extra", "/genre/movie/nope",
        "/genre/person/list", "/genre/movie", "/discover/person", "/discover", "/search/collection", "/search",
        "/configuration/languages", "/person/287/movie_credits", "/tv/1399/season/1", "/3/movie/550",
    ])
    func unknownPathsAre404Code34(_ path: String) throws {
        let (status, body) = try SampleAPI.failure(path)
        #expect(status == 404)
        #expect(body.statusCode == 34)
        let sample = try JSONDecoder().decode(TMDbErrorBody.self, from: TMDbReference.sample("resource-not-found.json"))
        #expect(body.statusMessage == sample.statusMessage, "TMDb's own words")
    }

    @Test(arguments: [
        "/movie/0", "/movie/-1", "/movie/abc", "/movie/2147483648", "/movie/0/credits", "/movie/0/videos", "/movie/x/similar",
        "/tv/0", "/tv/abc/videos", "/person/0", "/person/-287", "/person/0/combined_credits",
    ])
    func invalidIDsAre404Code6(_ path: String) throws {
        let (status, body) = try SampleAPI.failure(path)
        #expect(status == 404)
        #expect(body.statusCode == 6)
    }

    @Test func unknownIDsAre404Code34() throws {
        let movie = SampleAPI.unusedID(SampleAPI.catalog.movieIDs)
        let series = SampleAPI.unusedID(SampleAPI.catalog.seriesIDs)
        let person = SampleAPI.unusedID(SampleAPI.catalog.personIDs)
        for path in [
            "/movie/\(movie)", "/movie/\(movie)/credits", "/movie/\(movie)/videos", "/movie/\(movie)/similar",
            "/tv/\(series)", "/tv/\(series)/credits", "/tv/\(series)/videos", "/tv/\(series)/similar",
            "/person/\(person)", "/person/\(person)/combined_credits",
        ] {
            let (status, body) = try SampleAPI.failure(path)
            #expect(status == 404, "\(path)")
            #expect(body.statusCode == 34, "\(path)")
        }
    }

    @Test(arguments: ["movie", "tv", "person", "multi"])
    func searchWithoutQueryIs422(_ kind: String) throws {
        let sample = try JSONDecoder().decode(TMDbErrorBody.self, from: TMDbReference.sample("validation-error.json"))
        for query in [[:], ["query": ""], ["query": "   "], ["page": "2"]] as [[String: String]] {
            let a = SampleAPI.answer("/search/\(kind)", query)
            #expect(a.status == 422, "\(kind) \(query)")
            let body = try JSONDecoder().decode(TMDbErrorBody.self, from: Data(a.body))
            #expect(body == sample)
            #expect(body.errors == ["query must be provided"] && body.statusCode == nil)
            let raw = try JSONSerialization.jsonObject(with: Data(a.body)) as? [String: Any]
            #expect(raw?.keys.sorted() == ["errors"], "only `errors`, as TMDb sends it")
        }
    }

    @Test func authenticationAndConfiguration() throws {
        let auth = try SampleAPI.get(TMDbErrorBody.self, "/authentication")
        #expect(auth.statusCode == 1)
        let configuration = try SampleAPI.get(APIConfiguration.self, "/configuration")
        #expect(configuration.images.url("/a.jpg", kind: .poster, size: "w500") == "https://image.tmdb.org/t/p/w500/a.jpg")
    }

    // MARK: - Search

    @Test func searchIgnoresCaseAndAccents() throws {
        let variants = ["fight club", "FIGHT CLUB", "Fight Club", "fîght clüb", "FÍGHT CLÚB", "club fight", "  fight   club  "]
        var answers: [Set<Int>] = []
        for text in variants {
            let ids = Set(try SampleAPI.all(MovieSummary.self, "/search/movie", ["query": text]).map(\.id))
            #expect(ids.contains(550), "\(text)")
            answers.append(ids)
        }
        #expect(Set(answers).count == 1, "every spelling finds the same titles")
        let people = try SampleAPI.all(PersonSummary.self, "/search/person", ["query": "BRÄD pitt"])
        #expect(people.contains { $0.id == 287 })
        let multi = try SampleAPI.all(MultiSearchResult.self, "/search/multi", ["query": "fight CLUB"])
        #expect(multi.contains { if case .movie(let m) = $0 { m.id == 550 } else { false } })
        let nothing = try SampleAPI.get(Page<MovieSummary>.self, "/search/movie", ["query": "qzxvq no such title"])
        #expect(nothing.results.isEmpty && nothing.totalResults == 0)
    }

    @Test func everyTitleAndPersonIsFoundByItsName() throws {
        for m in try SampleAPI.allMovies() {
            for text in [m.title.lowercased(), m.title.uppercased()] {
                let ids = try SampleAPI.all(MovieSummary.self, "/search/movie", ["query": text]).map(\.id)
                #expect(ids.contains(m.id), "\"\(text)\" does not find movie \(m.id)")
            }
            let sorted = try SampleAPI.all(MovieSummary.self, "/search/movie", ["query": m.title.lowercased()])
            #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $0.popularity >= $1.popularity }, "search results by popularity")
        }
        for s in try SampleAPI.allSeries() {
            let ids = try SampleAPI.all(SeriesSummary.self, "/search/tv", ["query": s.name.uppercased()]).map(\.id)
            #expect(ids.contains(s.id), "\"\(s.name)\" does not find series \(s.id)")
        }
        for id in SampleAPI.catalog.personIDs {
            let person = try SampleAPI.get(PersonDetails.self, "/person/\(id)")
            let ids = try SampleAPI.all(PersonSummary.self, "/search/person", ["query": person.name.lowercased()]).map(\.id)
            #expect(ids.contains(id), "\"\(person.name)\" does not find person \(id)")
        }
    }

    @Test func searchYearFilters() throws {
        let fightClub = try SampleAPI.get(MovieDetails.self, "/movie/550")
        let year = try #require(fightClub.releaseDate?.year)
        #expect(try SampleAPI.all(MovieSummary.self, "/search/movie", ["query": "fight club", "year": String(year)]).contains { $0.id == 550 })
        #expect(try !SampleAPI.all(MovieSummary.self, "/search/movie", ["query": "fight club", "year": String(year + 1)]).contains { $0.id == 550 })
        for m in try SampleAPI.all(MovieSummary.self, "/search/movie", ["query": "a", "year": String(year)]) {
            #expect(m.releaseDate?.year == year)
        }
    }

    // MARK: - Discover

    static func genreIDs(_ lists: [[Int]], always: [Int]) -> [Int] {
        var counts: [Int: Int] = [:]
        for ids in lists { for id in ids { counts[id, default: 0] += 1 } }
        let common = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key).prefix(6)
        return Array(Set(always).union(common)).sorted()
    }

    @Test func movieGenresAllVersusAny() throws {
        let everything = try SampleAPI.allMovies()
        let genres = Self.genreIDs(everything.map(\.genreIDs), always: [18, 35])
        var single: [Int: Set<Int>] = [:]
        for g in genres {
            let items = try SampleAPI.allMovies(["with_genres": String(g)])
            #expect(items.allSatisfy { $0.genreIDs.contains(g) }, "with_genres=\(g) returned a title without it")
            single[g] = Set(items.map(\.id))
            #expect(single[g] == Set(everything.filter { $0.genreIDs.contains(g) }.map(\.id)), "with_genres=\(g) missed titles")
        }
        #expect(single[18]?.contains(550) == true, "Fight Club is a drama")
        for (i, a) in genres.enumerated() {
            for b in genres[(i + 1)...] {
                let all = try SampleAPI.movieIDs(["with_genres": "\(a),\(b)"])
                let any = try SampleAPI.movieIDs(["with_genres": "\(a)|\(b)"])
                #expect(all == single[a]!.intersection(single[b]!), "\(a),\(b)")
                #expect(any == single[a]!.union(single[b]!), "\(a)|\(b)")
                #expect(all.isSubset(of: any))
            }
        }
        if genres.count >= 3 {
            let (a, b, c) = (genres[0], genres[1], genres[2])
            let three = try SampleAPI.movieIDs(["with_genres": "\(a),\(b),\(c)"])
            let two = try SampleAPI.movieIDs(["with_genres": "\(a),\(b)"])
            let anyTwo = try SampleAPI.movieIDs(["with_genres": "\(a)|\(b)"])
            let anyThree = try SampleAPI.movieIDs(["with_genres": "\(a)|\(b)|\(c)"])
            #expect(three.isSubset(of: two) && two.isSubset(of: single[a]!) && single[a]!.isSubset(of: anyTwo) && anyTwo.isSubset(of: anyThree))
        }
    }

    @Test func seriesGenresAllVersusAny() throws {
        let everything = try SampleAPI.allSeries()
        let genres = Self.genreIDs(everything.map(\.genreIDs), always: [18, 10765])
        var single: [Int: Set<Int>] = [:]
        for g in genres {
            let items = try SampleAPI.allSeries(["with_genres": String(g)])
            #expect(items.allSatisfy { $0.genreIDs.contains(g) })
            single[g] = Set(items.map(\.id))
            #expect(single[g] == Set(everything.filter { $0.genreIDs.contains(g) }.map(\.id)))
        }
        for (i, a) in genres.enumerated() {
            for b in genres[(i + 1)...] {
                #expect(try SampleAPI.seriesIDs(["with_genres": "\(a),\(b)"]) == single[a]!.intersection(single[b]!))
                #expect(try SampleAPI.seriesIDs(["with_genres": "\(a)|\(b)"]) == single[a]!.union(single[b]!))
            }
        }
    }

    /// Adjacent items are in order by `key`; ties go by ascending id.
    static func isOrdered<T, K: Comparable>(_ items: [T], descending: Bool, key: (T) -> K, id: (T) -> Int) -> Bool {
        zip(items, items.dropFirst()).allSatisfy { a, b in
            let (x, y) = (key(a), key(b))
            if x == y { return id(a) < id(b) }
            return descending ? x > y : x < y
        }
    }

    @Test(arguments: ["desc", "asc"])
    func movieSortOrders(_ direction: String) throws {
        let descending = direction == "desc"
        let everything = Set(try SampleAPI.allMovies().map(\.id))
        func check<K: Comparable>(_ field: String, _ key: (MovieSummary) -> K) throws {
            let items = try SampleAPI.allMovies(["sort_by": "\(field).\(direction)"])
            #expect(Set(items.map(\.id)) == everything, "sorting keeps every title")
            let ordered = Self.isOrdered(items, descending: descending, key: key, id: \.id)
            #expect(ordered, "sort_by=\(field).\(direction): \(items.map(\.id))")
        }
        try check("popularity") { $0.popularity }
        try check("primary_release_date") { $0.releaseDate?.description ?? "" }
        try check("title") { $0.title.lowercased() }
        try check("vote_average") { $0.voteAverage }
        try check("vote_count") { $0.voteCount }
        if descending {
            #expect(try SampleAPI.allMovies().map(\.id) == SampleAPI.allMovies(["sort_by": "popularity.desc"]).map(\.id), "the default order")
        }
        // German titles sort by their German spelling.
        let german = try SampleAPI.allMovies(["sort_by": "title.\(direction)", "language": "de-DE"])
        #expect(Self.isOrdered(german, descending: descending, key: { $0.title.lowercased() }, id: \.id))
    }

    @Test(arguments: ["desc", "asc"])
    func seriesSortOrders(_ direction: String) throws {
        let descending = direction == "desc"
        func check<K: Comparable>(_ field: String, _ key: (SeriesSummary) -> K) throws {
            let items = try SampleAPI.allSeries(["sort_by": "\(field).\(direction)"])
            #expect(items.count == SampleAPI.catalog.seriesCount)
            let ordered = Self.isOrdered(items, descending: descending, key: key, id: \.id)
            #expect(ordered, "sort_by=\(field).\(direction)")
        }
        try check("popularity") { $0.popularity }
        try check("first_air_date") { $0.firstAirDate?.description ?? "" }
        try check("name") { $0.name.lowercased() }
        try check("vote_average") { $0.voteAverage }
    }

    @Test func chartsAreOrdered() throws {
        let popular = try SampleAPI.all(MovieSummary.self, "/movie/popular")
        #expect(Self.isOrdered(popular, descending: true, key: { $0.popularity }, id: { -$0.id }), "popularity, then the higher id")
        let top = try SampleAPI.all(MovieSummary.self, "/movie/top_rated")
        #expect(zip(top, top.dropFirst()).allSatisfy { $0.voteAverage >= $1.voteAverage })
        let topSeries = try SampleAPI.all(SeriesSummary.self, "/tv/top_rated")
        #expect(zip(topSeries, topSeries.dropFirst()).allSatisfy { $0.voteAverage >= $1.voteAverage })
        let popularSeries = try SampleAPI.all(SeriesSummary.self, "/tv/popular")
        #expect(zip(popularSeries, popularSeries.dropFirst()).allSatisfy { $0.popularity >= $1.popularity })
    }

    @Test func ratingOrderWithAVoteFloor() throws {
        let floor = 1000
        let items = try SampleAPI.allMovies(["sort_by": "vote_average.desc", "vote_count.gte": String(floor)])
        #expect(items.allSatisfy { $0.voteCount >= floor })
        #expect(Set(items.map(\.id)) == Set(try SampleAPI.allMovies().filter { $0.voteCount >= floor }.map(\.id)))
        // The request Reel builds for this is answered the same way.
        var q = DiscoverQuery(mediaType: .movie)
        q.order = .rating
        q.minimumVotesForRating = floor
        let answer = SampleAPI.responder.respond(path: q.request.path, query: q.request.query)
        let page = try JSONDecoder().decode(Page<MovieSummary>.self, from: Data(answer.body))
        #expect(page.results.map(\.id) == Array(items.prefix(20).map(\.id)))
    }

    @Test func yearsFilter() throws {
        let everything = try SampleAPI.allMovies()
        for year in Set(everything.compactMap { $0.releaseDate?.year }).union([1999]) {
            let items = try SampleAPI.allMovies(["primary_release_year": String(year)])
            #expect(items.allSatisfy { $0.releaseDate?.year == year }, "primary_release_year=\(year)")
            #expect(Set(items.map(\.id)) == Set(everything.filter { $0.releaseDate?.year == year }.map(\.id)))
        }
        #expect(try SampleAPI.movieIDs(["primary_release_year": "1999"]).contains(550))
        #expect(try SampleAPI.allMovies(["primary_release_year": "1850"]).isEmpty)
        let series = try SampleAPI.allSeries()
        for year in Set(series.compactMap { $0.firstAirDate?.year }) {
            let items = try SampleAPI.allSeries(["first_air_date_year": String(year)])
            #expect(items.allSatisfy { $0.firstAirDate?.year == year })
            #expect(items.count == series.filter { $0.firstAirDate?.year == year }.count)
        }
    }

    /// Who is credited on each movie, from `/movie/{id}/credits`.
    static func peopleByMovie() throws -> [Int: Set<Int>] {
        var people: [Int: Set<Int>] = [:]
        for id in SampleAPI.catalog.movieIDs {
            let credits = try SampleAPI.get(Credits.self, "/movie/\(id)/credits")
            people[id] = Set(credits.cast.map(\.id) + credits.crew.map(\.id))
        }
        return people
    }

    @Test func withPeopleFiltersToTheirTitles() throws {
        let credited = try Self.peopleByMovie()
        #expect(credited[550]?.contains(287) == true)
        let pitt = try SampleAPI.movieIDs(["with_people": "287"])
        #expect(pitt.contains(550))
        for person in SampleAPI.catalog.personIDs {
            let ids = try SampleAPI.movieIDs(["with_people": String(person)])
            let expected = Set(credited.filter { $0.value.contains(person) }.map(\.key))
            #expect(ids == expected, "with_people=\(person)")
        }
        // Two people: `,` is both of them, `|` either.
        let partners = credited.values.filter { $0.contains(287) }.reduce(Set<Int>()) { $0.union($1) }.subtracting([287])
        let other = partners.min() ?? SampleAPI.catalog.personIDs.first { $0 != 287 } ?? 819
        let both = try SampleAPI.movieIDs(["with_people": "287,\(other)"])
        let either = try SampleAPI.movieIDs(["with_people": "287|\(other)"])
        let theirs = try SampleAPI.movieIDs(["with_people": String(other)])
        #expect(both == pitt.intersection(theirs))
        #expect(either == pitt.union(theirs))
    }

    // MARK: - Languages

    @Test func germanGenreNames() throws {
        let de = try SampleAPI.get(GenreList.self, "/genre/movie/list", ["language": "de-DE"])
        let en = try SampleAPI.get(GenreList.self, "/genre/movie/list", ["language": "en-US"])
        let plain = try SampleAPI.get(GenreList.self, "/genre/movie/list")
        #expect(de.name(of: 35) == "Komödie")
        #expect(de.name(of: 12) == "Abenteuer")
        #expect(de.name(of: 18) == "Drama")
        #expect(en.name(of: 35) == "Comedy")
        #expect(plain == en, "English when no language is given")
        #expect(de.genres.map(\.id) == en.genres.map(\.id))
        #expect(try SampleAPI.get(GenreList.self, "/genre/movie/list", ["language": "de"]) == de)
        #expect(try SampleAPI.get(GenreList.self, "/genre/movie/list", ["language": "de-AT"]) == de)
        #expect(try SampleAPI.get(GenreList.self, "/genre/movie/list", ["language": "fr-FR"]) == en, "no French: English")
        let tv = try SampleAPI.get(GenreList.self, "/genre/tv/list", ["language": "de-DE"])
        #expect(tv.name(of: 35) == "Komödie")
        #expect(tv.name(of: 10759) == "Action & Adventure")
        // Details speak the same language as the list.
        let fightClub = try SampleAPI.get(MovieDetails.self, "/movie/550", ["language": "de-DE"])
        #expect(!fightClub.genres.isEmpty)
        for genre in fightClub.genres { #expect(genre.name == de.name(of: genre.id)) }
    }

    /// TMDb's rule: the requested language's text, or the English text where the translation is
    /// missing or empty.
    static func expected(_ translated: String?, _ english: String) -> String? {
        let text = (translated?.isEmpty == false) ? translated! : english
        return text.isEmpty ? nil : text
    }

    @Test func translationsFallBackToEnglish() throws {
        for m in SampleAPI.catalog.movies {
            let german = m.translations["de-DE"]
            if german == nil, m.translations.keys.contains(where: { $0.hasPrefix("de") }) { continue }
            let de = try SampleAPI.get(MovieDetails.self, "/movie/\(m.id)", ["language": "de-DE"])
            let en = try SampleAPI.get(MovieDetails.self, "/movie/\(m.id)")
            #expect(en.title == m.title)
            #expect(de.title == Self.expected(german?.title, m.title), "movie \(m.id) title")
            #expect(de.overview == Self.expected(german?.overview, m.overview), "movie \(m.id) overview")
            #expect(de.tagline == Self.expected(german?.tagline, m.tagline), "movie \(m.id) tagline")
            #expect(de.releaseDate == en.releaseDate && de.runtime == en.runtime, "facts do not change with the language")
            if !m.translations.keys.contains(where: { $0.hasPrefix("fr") }) {
                let fr = try SampleAPI.get(MovieDetails.self, "/movie/\(m.id)", ["language": "fr-FR"])
                #expect(fr.title == en.title && fr.overview == en.overview, "no French: English")
            }
            let summary = try SampleAPI.all(MovieSummary.self, "/discover/movie", ["language": "de-DE"]).first { $0.id == m.id }
            #expect(summary?.title == de.title, "lists and details agree")
        }
        for s in SampleAPI.catalog.series {
            let german = s.translations["de-DE"]
            if german == nil, s.translations.keys.contains(where: { $0.hasPrefix("de") }) { continue }
            let de = try SampleAPI.get(SeriesDetails.self, "/tv/\(s.id)", ["language": "de-DE"])
            #expect(de.name == Self.expected(german?.name, s.name), "series \(s.id) name")
            #expect(de.overview == Self.expected(german?.overview, s.overview), "series \(s.id) overview")
        }
        for p in SampleAPI.catalog.people {
            let german = p.translations["de-DE"]
            if german == nil, p.translations.keys.contains(where: { $0.hasPrefix("de") }) { continue }
            let de = try SampleAPI.get(PersonDetails.self, "/person/\(p.id)", ["language": "de-DE"])
            #expect(de.biography == Self.expected(german?.biography, p.biography), "person \(p.id) biography")
            #expect(de.name == p.name)
        }
    }

    // MARK: - append_to_response

    @Test func atMostTwentyAppendedObjects() throws {
        let names = ["credits", "videos", "similar"] + (1...18).map { "extra\($0)" }
        #expect(names.count == 21)
        var paths = ["/movie/550", "/person/287"]
        if let series = SampleAPI.catalog.seriesIDs.first { paths.append("/tv/\(series)") }
        for path in paths {
            let (status, body) = try SampleAPI.failure(path, ["append_to_response": names.joined(separator: ",")])
            #expect(status == 400, "\(path)")
            #expect(body.statusCode == 27, "\(path)")
            #expect(SampleAPI.answer(path, ["append_to_response": names.dropLast().joined(separator: ",")]).status == 200, "20 is allowed")
        }
    }

    @Test func appendedObjectsMatchTheirEndpoints() throws {
        for id in SampleAPI.catalog.movieIDs {
            let m = try SampleAPI.get(MovieDetails.self, "/movie/\(id)", ["append_to_response": "credits,videos,similar"])
            let credits = try #require(m.credits)
            let videos = try #require(m.videos)
            let similar = try #require(m.similar)
            #expect(credits.id == nil && videos.id == nil, "appended objects carry no id")
            let alone = try SampleAPI.get(Credits.self, "/movie/\(id)/credits")
            #expect(credits.cast.map(\.id) == alone.cast.map(\.id) && credits.cast.map(\.character) == alone.cast.map(\.character))
            #expect(credits.crew.map(\.id) == alone.crew.map(\.id))
            let aloneVideos = try SampleAPI.get(VideoList.self, "/movie/\(id)/videos")
            let aloneSimilar = try SampleAPI.get(Page<MovieSummary>.self, "/movie/\(id)/similar")
            #expect(videos.results.map(\.key) == aloneVideos.results.map(\.key))
            #expect(similar == aloneSimilar)
            let plain = try SampleAPI.get(MovieDetails.self, "/movie/\(id)")
            #expect(plain.credits == nil && plain.videos == nil && plain.similar == nil)
        }
        for id in SampleAPI.catalog.seriesIDs {
            let s = try SampleAPI.get(SeriesDetails.self, "/tv/\(id)", ["append_to_response": "credits,videos,similar"])
            let credits = try #require(s.credits)
            #expect(credits.id == nil && s.videos?.id == nil)
            let aloneCredits = try SampleAPI.get(Credits.self, "/tv/\(id)/credits")
            let aloneSimilar = try SampleAPI.get(Page<SeriesSummary>.self, "/tv/\(id)/similar")
            #expect(credits.cast.map(\.id) == aloneCredits.cast.map(\.id))
            #expect(s.similar == aloneSimilar)
        }
    }

    /// TMDb's credit ids name one credit wherever it appears: in `/movie/{id}/credits`, in the
    /// appended `credits`, and in the person's `combined_credits`.
    @Test func creditIDsAreTheSameEverywhere() throws {
        let appended = try SampleAPI.get(MovieDetails.self, "/movie/550", ["append_to_response": "credits"])
        let alone = try SampleAPI.get(Credits.self, "/movie/550/credits")
        let person = try SampleAPI.get(CombinedCredits.self, "/person/287/combined_credits")
        let fromMovie = try #require(alone.cast.first { $0.id == 287 }?.creditID)
        let fromAppended = try #require(appended.credits?.cast.first { $0.id == 287 }?.creditID)
        let fromPerson = try #require(person.cast.first { $0.media.isMovie && $0.media.id == 550 }?.creditID)
        #expect(fromMovie == fromPerson)
        #expect(fromAppended == fromMovie, "appended credits give credit_id \(fromAppended), /movie/550/credits gives \(fromMovie)")
    }

    @Test func personWithCombinedCredits() throws {
        let movieCredits = try SampleAPI.get(Credits.self, "/movie/550/credits")
        let character = try #require(movieCredits.cast.first { $0.id == 287 }).character
        let pitt = try SampleAPI.get(PersonDetails.self, "/person/287", ["append_to_response": "combined_credits"])
        #expect(pitt.id == 287 && pitt.name == "Brad Pitt")
        let credits = try #require(pitt.combinedCredits)
        #expect(credits.id == nil)
        let fightClub = try #require(credits.cast.first { $0.media.isMovie && $0.media.id == 550 })
        #expect(fightClub.character == character)
        #expect(fightClub.media.title == "Fight Club")
        #expect(credits.filmography.contains { $0.media.id == 550 })
        let alone = try SampleAPI.get(CombinedCredits.self, "/person/287/combined_credits")
        #expect(alone.id == 287)
        #expect(alone.cast.map(\.media) == credits.cast.map(\.media))
        #expect(try SampleAPI.get(PersonDetails.self, "/person/287").combinedCredits == nil)
    }

    @Test func combinedCreditsAgreeWithTitleCredits() throws {
        var castOf: [Int: Set<String>] = [:]
        var crewOf: [Int: Set<String>] = [:]
        var creators: [Int: Set<String>] = [:]
        for id in SampleAPI.catalog.movieIDs {
            let c = try SampleAPI.get(Credits.self, "/movie/\(id)/credits")
            for p in c.cast { castOf[p.id, default: []].insert("movie-\(id)") }
            for p in c.crew { crewOf[p.id, default: []].insert("movie-\(id)") }
        }
        for id in SampleAPI.catalog.seriesIDs {
            let c = try SampleAPI.get(Credits.self, "/tv/\(id)/credits")
            for p in c.cast { castOf[p.id, default: []].insert("tv-\(id)") }
            for p in c.crew { crewOf[p.id, default: []].insert("tv-\(id)") }
            for p in try SampleAPI.get(SeriesDetails.self, "/tv/\(id)").createdBy { creators[p.id, default: []].insert("tv-\(id)") }
        }
        func key(_ c: PersonCredit) -> String { "\(c.media.isMovie ? "movie" : "tv")-\(c.media.id)" }
        for id in SampleAPI.catalog.personIDs {
            let credits = try SampleAPI.get(CombinedCredits.self, "/person/\(id)/combined_credits")
            #expect(Set(credits.cast.map(key)) == castOf[id] ?? [], "person \(id) cast")
            let crew = Set(credits.crew.map(key))
            #expect((crewOf[id] ?? []).isSubset(of: crew), "person \(id) crew")
            #expect(crew.isSubset(of: (crewOf[id] ?? []).union(creators[id] ?? [])), "person \(id) crew")
        }
    }

    // MARK: - Everything decodes

    @Test func everyResponseDecodesWithTheCatalogModels() throws {
        let catalog = SampleAPI.catalog
        for language in ["en-US", "de-DE", "fr-FR"] {
            let q = ["language": language]
            _ = try SampleAPI.get(GenreList.self, "/genre/movie/list", q)
            _ = try SampleAPI.get(GenreList.self, "/genre/tv/list", q)
            _ = try SampleAPI.all(MovieSummary.self, "/discover/movie", q)
            _ = try SampleAPI.all(SeriesSummary.self, "/discover/tv", q)
            _ = try SampleAPI.all(MovieSummary.self, "/movie/popular", q)
            _ = try SampleAPI.all(SeriesSummary.self, "/tv/top_rated", q)
            _ = try SampleAPI.all(MultiSearchResult.self, "/search/multi", q.merging(["query": "e"]) { a, _ in a })
            _ = try SampleAPI.all(PersonSummary.self, "/search/person", q.merging(["query": "e"]) { a, _ in a })
            for id in catalog.movieIDs {
                let m = try SampleAPI.get(MovieDetails.self, "/movie/\(id)", q.merging(["append_to_response": "credits,videos,similar"]) { a, _ in a })
                #expect(m.id == id)
                #expect(!m.title.isEmpty)
                _ = try SampleAPI.get(Credits.self, "/movie/\(id)/credits", q)
                let videos = try SampleAPI.get(VideoList.self, "/movie/\(id)/videos", q)
                #expect(videos.id == id)
                _ = try SampleAPI.get(Page<MovieSummary>.self, "/movie/\(id)/similar", q)
            }
            for id in catalog.seriesIDs {
                let s = try SampleAPI.get(SeriesDetails.self, "/tv/\(id)", q.merging(["append_to_response": "credits,videos,similar"]) { a, _ in a })
                #expect(s.id == id)
                _ = try SampleAPI.get(Credits.self, "/tv/\(id)/credits", q)
                _ = try SampleAPI.get(VideoList.self, "/tv/\(id)/videos", q)
                _ = try SampleAPI.get(Page<SeriesSummary>.self, "/tv/\(id)/similar", q)
            }
            for id in catalog.personIDs {
                let p = try SampleAPI.get(PersonDetails.self, "/person/\(id)", q.merging(["append_to_response": "combined_credits"]) { a, _ in a })
                #expect(p.id == id && p.combinedCredits != nil)
                #expect(try SampleAPI.get(CombinedCredits.self, "/person/\(id)/combined_credits", q).id == id)
            }
        }
    }

    @Test func detailsAgreeWithListItems() throws {
        for item in try SampleAPI.allMovies() {
            let details = try SampleAPI.get(MovieDetails.self, "/movie/\(item.id)")
            #expect(details.title == item.title)
            #expect(details.genres.map(\.id) == item.genreIDs)
            #expect(details.releaseDate == item.releaseDate)
            #expect(details.popularity == item.popularity && details.voteAverage == item.voteAverage && details.voteCount == item.voteCount)
            #expect(details.posterPath == item.posterPath)
        }
        for item in try SampleAPI.allSeries() {
            let details = try SampleAPI.get(SeriesDetails.self, "/tv/\(item.id)")
            #expect(details.name == item.name)
            #expect(details.genres.map(\.id) == item.genreIDs)
            #expect(details.firstAirDate == item.firstAirDate)
            #expect(details.originCountry == item.originCountry)
        }
    }

    @Test func videosHonourTheLanguage() throws {
        for id in SampleAPI.catalog.movieIDs {
            let english = try SampleAPI.get(VideoList.self, "/movie/\(id)/videos")
            #expect(english.results.allSatisfy { $0.language == "en" }, "movie \(id): English videos only by default")
            let german = try SampleAPI.get(VideoList.self, "/movie/\(id)/videos", ["language": "de-DE"])
            #expect(german.results.allSatisfy { $0.language == "de" })
            let both = try SampleAPI.get(VideoList.self, "/movie/\(id)/videos", ["language": "de-DE", "include_video_language": "en,de"])
            #expect(Set(both.results.map(\.key)) == Set(english.results.map(\.key)).union(german.results.map(\.key)))
        }
        let fightClub = try SampleAPI.get(VideoList.self, "/movie/550/videos")
        #expect(fightClub.trailers.allSatisfy { $0.watchURL != nil })
    }
}
