import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// The viewer commands (`movies`, `series`, `search`, `person`, `genres`, and the hydrated
/// `saved`, `history` and `fav add`) through the built `reel` binary: against the bundled sample
/// catalog in-process and against `fake-tmdb` over HTTP, with expectations worked out from the
/// sample data itself (`Sources/Catalog/SampleData`), not from what the commands print.
@Suite struct ViewerCommandTests {

    // MARK: - Helpers

    /// A home on the sample catalog (`server` nil) or on `server`, laid out `columns` wide (so the
    /// outer environment's COLUMNS never matters).
    static func home(_ server: FakeTMDbProcess?, columns: Int = 100) -> Home {
        var home = server.map { Home(server: $0) } ?? Home()
        home.environment["COLUMNS"] = String(columns)
        return home
    }

    static func lines(_ text: String) -> [Substring] { CatalogCommandTests.lines(text) }

    /// Runs a text command that must succeed and returns its stdout. On the sample catalog the
    /// note saying so (shown once a day per data directory) is all stderr may hold; against a
    /// server stderr is empty.
    @discardableResult
    static func text(_ home: Home, _ arguments: [String], sample: Bool, environment: [String: String] = [:]) async throws -> String {
        let out = try await home.reel(arguments, environment: environment)
        #expect(out.status == 0, "\(arguments): exit \(out.status), stderr \(out.stderr)")
        if sample {
            #expect(lines(out.stderr).count <= 1 && lines(out.stderr).allSatisfy { $0.contains("sample catalog") }, "\(arguments): \(out.stderr)")
        } else {
            #expect(out.stderr.isEmpty, "\(arguments): \(out.stderr)")
        }
        return out.stdout
    }

    /// `Sources/Catalog/SampleData/NAME.json`: what both catalogs serve.
    static func sampleData(_ name: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Harness.root + "/Sources/Catalog/SampleData/\(name).json"))
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    static func rows(_ document: [String: Any], _ key: String = "results") -> [[String: Any]] {
        document[key] as? [[String: Any]] ?? []
    }

    static func ids(_ rows: [[String: Any]]) -> [Int] { rows.compactMap { $0["id"] as? Int } }

    static func genreIDs(_ row: [String: Any]) -> Set<Int> {
        Set((row["genres"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int })
    }

    static func genreNames(_ row: [String: Any]) -> [String] {
        (row["genres"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    /// Sample data: the year of a movie's release or a series' first air date.
    static func year(_ entry: [String: Any]) -> Int? {
        ((entry["release_date"] ?? entry["first_air_date"]) as? String).flatMap { Int($0.prefix(4)) }
    }

    static func sampleGenres(_ entry: [String: Any]) -> Set<Int> { Set(entry["genre_ids"] as? [Int] ?? []) }

    /// Sample data: whether `person` is in the entry's cast or crew.
    static func credits(_ entry: [String: Any], _ person: Int) -> Bool {
        ((entry["cast"] as? [[String: Any]] ?? []) + (entry["crew"] as? [[String: Any]] ?? [])).contains { $0["person"] as? Int == person }
    }

    /// Sample data: the title in `language` (the translation, else the English title).
    static func title(_ entry: [String: Any], _ language: String) -> String? {
        let translated = ((entry["translations"] as? [String: Any])?[language] as? [String: Any])?[entry["name"] == nil ? "title" : "name"] as? String
        return translated.flatMap { $0.isEmpty ? nil : $0 } ?? (entry["title"] ?? entry["name"]) as? String
    }

    /// The table rows of a text list: the lines after the column header (the line containing
    /// `header`) and before the footer (the last line), each with its TMDb id: the first whole
    /// number on the line after skipping `skip` of them (the saved list numbers its rows first).
    static func tableRows(_ text: String, header: String = "TMDB ID", skip: Int = 0, footer: Bool = true) -> [(id: Int, line: Substring)] {
        let all = lines(text)
        guard let h = all.firstIndex(where: { $0.contains(header) }) else { return [] }
        let end = footer ? all.count - 1 : all.count
        guard h + 1 < end else { return [] }
        return all[(h + 1)..<end].compactMap { line in
            guard let id = line.split(separator: " ").compactMap({ Int($0) }).dropFirst(skip).first else { return nil }
            return (id, line)
        }
    }

    static func nonIncreasing(_ values: [Double]) -> Bool { zip(values, values.dropFirst()).allSatisfy { $0 >= $1 } }

    static func doubles(_ rows: [[String: Any]], _ key: String) -> [Double] { rows.compactMap { ($0[key] as? NSNumber)?.doubleValue } }

    // MARK: - 1. Browsing movies and series, in-process and over HTTP

    @Test(arguments: [false, true])
    func browsingMovies(overHTTP: Bool) async throws {
        let server = overHTTP ? try FakeTMDbProcess() : nil
        let home = Self.home(server)
        let sample = !overHTTP
        let movies = try Self.sampleData("movies")
        let totalPages = (movies.count + 19) / 20
        #expect(movies.count == 81 && totalPages == 5)
        func expected(_ include: ([String: Any]) -> Bool) -> Set<Int> { Set(movies.filter(include).compactMap { $0["id"] as? Int }) }

        // The default: discover by popularity, one page of 20.
        let text = try await Self.text(home, ["movies"], sample: sample)
        let lines = Self.lines(text)
        #expect(lines.first == "Discover movies · by popularity, descending", "\(text)")
        #expect(lines.count == 23, "heading, column header, 20 rows, footer: \(text)")
        #expect(lines.count > 1 && ["TMDB ID", "TITLE", "YEAR", "GENRES", "RATING"].allSatisfy { lines[1].contains($0) }, "\(text)")
        #expect(lines.last == "page 1 of \(totalPages) (\(movies.count) titles)", "\(text)")
        let first = try await home.json(["movies"], schema: "title-list.schema.json")
        let firstRows = Self.rows(first)
        #expect(first["mediaType"] as? String == "movie")
        #expect(first["list"] as? String == "discover")
        #expect(first["sort"] as? String == "popularity")
        #expect(first["descending"] as? Bool == true)
        #expect(first["language"] as? String == "en-US")
        #expect(first["page"] as? Int == 1)
        #expect(first["pages"] as? Int == 1)
        #expect(first["totalPages"] as? Int == totalPages)
        #expect(first["totalResults"] as? Int == movies.count)
        #expect(first["count"] as? Int == 20)
        #expect(firstRows.count == 20)
        #expect(Self.tableRows(text).map(\.id) == Self.ids(firstRows), "the text lists the same titles in the same order")
        #expect(firstRows.allSatisfy { $0["mediaType"] as? String == "movie" && $0["details"] as? String == "known" && $0["saved"] as? Bool == false })
        // The most popular 20, most popular first.
        let popularity = Self.doubles(firstRows, "popularity")
        #expect(Self.nonIncreasing(popularity), "\(popularity)")
        let unlisted = movies.filter { !Self.ids(firstRows).contains($0["id"] as? Int ?? 0) }.compactMap { ($0["popularity"] as? NSNumber)?.doubleValue }
        #expect((popularity.min() ?? 0) >= (unlisted.max() ?? .infinity), "page 1 holds the most popular titles")

        // By title, A first (the default direction for --sort title); --desc reverses.
        let byTitle = try await home.json(["movies", "--sort", "title", "--asc", "--pages", "5"], schema: "title-list.schema.json")
        let titles = Self.rows(byTitle).compactMap { $0["title"] as? String }
        #expect(titles.count == movies.count)
        #expect(zip(titles, titles.dropFirst()).allSatisfy { $0.lowercased() <= $1.lowercased() }, "\(titles)")
        #expect(byTitle["descending"] as? Bool == false)
        #expect(byTitle["sort"] as? String == "title")
        #expect(byTitle["pages"] as? Int == totalPages)
        let titleDefault = try await home.json(["movies", "--sort", "title", "--pages", "5"], schema: "title-list.schema.json")
        #expect(Self.ids(Self.rows(titleDefault)) == Self.ids(Self.rows(byTitle)))
        #expect(titleDefault["descending"] as? Bool == false)
        let titleDesc = try await home.json(["movies", "--sort", "title", "--desc", "--pages", "5"], schema: "title-list.schema.json")
        #expect(Self.rows(titleDesc).compactMap { $0["title"] as? String } == titles.reversed())
        let titleText = try await Self.text(home, ["movies", "--sort", "title", "--asc"], sample: sample)
        #expect(Self.lines(titleText).first == "Discover movies · by title, ascending")
        #expect(Self.tableRows(titleText).map(\.id) == Array(Self.ids(Self.rows(byTitle)).prefix(20)))

        // Dramas of 1999.
        let dramas1999 = expected { Self.sampleGenres($0).contains(18) && Self.year($0) == 1999 }
        #expect(dramas1999.contains(550))
        let drama = try await home.json(["movies", "--genre", "Drama", "--year", "1999"], schema: "title-list.schema.json")
        let dramaRows = Self.rows(drama)
        #expect(Set(Self.ids(dramaRows)) == dramas1999)
        #expect(dramaRows.allSatisfy { $0["year"] as? Int == 1999 && Self.genreIDs($0).contains(18) })
        #expect(drama["year"] as? Int == 1999)
        #expect((drama["genres"] as? [[String: Any]])?.map { "\($0["id"] ?? "") \($0["name"] ?? "")" } == ["18 Drama"])
        #expect(drama["totalResults"] as? Int == dramas1999.count)
        let dramaText = try await Self.text(home, ["movies", "--genre", "Drama", "--year", "1999"], sample: sample)
        #expect(Self.lines(dramaText).first == "Discover movies · by popularity, descending · Drama · 1999", "\(dramaText)")
        #expect(Self.lines(dramaText).last == "page 1 of 1 (\(dramas1999.count) titles)", "\(dramaText)")
        #expect(Set(Self.tableRows(dramaText).map(\.id)) == dramas1999)
        // A genre id works as well as its name.
        await #expect(Self.ids(Self.rows(try home.json(["movies", "--genre", "18", "--year", "1999"], schema: "title-list.schema.json"))) == Self.ids(dramaRows))

        // Several genres: all of them, or (--any-genre) any of them.
        let both = expected { Self.sampleGenres($0).isSuperset(of: [18, 80]) }
        let either = expected { !Self.sampleGenres($0).isDisjoint(with: [18, 80]) }
        let all = try await home.json(["movies", "--genre", "Drama", "Crime", "--pages", "5"], schema: "title-list.schema.json")
        let any = try await home.json(["movies", "--genre", "Drama", "Crime", "--any-genre", "--pages", "5"], schema: "title-list.schema.json")
        let allIDs = Set(Self.ids(Self.rows(all))), anyIDs = Set(Self.ids(Self.rows(any)))
        #expect(!both.isEmpty && allIDs == both)
        #expect(anyIDs == either)
        #expect(allIDs.isStrictSubset(of: anyIDs), "--any-genre gives a superset")
        #expect(Self.rows(all).allSatisfy { Self.genreIDs($0).isSuperset(of: [18, 80]) })
        #expect(Self.rows(any).allSatisfy { !Self.genreIDs($0).isDisjoint(with: [18, 80]) })
        #expect(all["anyGenre"] as? Bool == false)
        #expect(any["anyGenre"] as? Bool == true)
        #expect(any["pages"] as? Int == (either.count + 19) / 20, "--pages 5 stops at the last page there is")
        await #expect(Self.lines(try Self.text(home, ["movies", "--genre", "Drama", "Crime"], sample: sample)).first?.hasSuffix("· Drama and Crime") == true)
        await #expect(Self.lines(try Self.text(home, ["movies", "--genre", "Drama", "Crime", "--any-genre"], sample: sample)).first?.hasSuffix("· Drama or Crime") == true)

        // With a person, by id or by name.
        let withCumberbatch = expected { Self.credits($0, 71580) }
        #expect(!withCumberbatch.isEmpty)
        let byID = try await home.json(["movies", "--with-person", "71580", "--pages", "5"], schema: "title-list.schema.json")
        let byName = try await home.json(["movies", "--with-person", "Benedict Cumberbatch", "--pages", "5"], schema: "title-list.schema.json")
        #expect(Set(Self.ids(Self.rows(byID))) == withCumberbatch)
        #expect(Self.ids(Self.rows(byName)) == Self.ids(Self.rows(byID)))
        for document in [byID, byName] {
            let person = document["person"] as? [String: Any]
            #expect(person?["id"] as? Int == 71580 && person?["name"] as? String == "Benedict Cumberbatch", "\(document["person"] ?? "nil")")
        }
        let personText = try await Self.text(home, ["movies", "--with-person", "Benedict Cumberbatch"], sample: sample)
        #expect(Self.lines(personText).first?.hasSuffix("· with Benedict Cumberbatch") == true, "\(personText)")

        // Two pages at once: page 1 then page 2.
        let two = try await home.json(["movies", "--pages", "2"], schema: "title-list.schema.json")
        let page2 = try await home.json(["movies", "--page", "2"], schema: "title-list.schema.json")
        #expect(two["pages"] as? Int == 2)
        #expect(two["page"] as? Int == 1)
        #expect(two["count"] as? Int == 40)
        #expect(page2["page"] as? Int == 2)
        #expect(Self.ids(Self.rows(two)) == Self.ids(firstRows) + Self.ids(Self.rows(page2)))
        let twoText = try await Self.text(home, ["movies", "--pages", "2"], sample: sample)
        #expect(Self.lines(twoText).count == 43, "\(twoText)")
        #expect(Self.lines(twoText).last == "pages 1–2 of \(totalPages) (\(movies.count) titles)", "\(twoText)")

        // TMDb's charts.
        let popular = try await home.json(["movies", "--popular"], schema: "title-list.schema.json")
        #expect(popular["list"] as? String == "popular")
        #expect(popular["sort"] is NSNull && popular["descending"] is NSNull)
        #expect(Self.rows(popular).count == 20)
        #expect(Self.nonIncreasing(Self.doubles(Self.rows(popular), "popularity")))
        await #expect(Self.lines(try Self.text(home, ["movies", "--popular"], sample: sample)).first == "Popular movies")
        let top = try await home.json(["movies", "--top-rated"], schema: "title-list.schema.json")
        #expect(top["list"] as? String == "top-rated")
        #expect(top["sort"] is NSNull && top["descending"] is NSNull)
        #expect(Self.rows(top).count == 20)
        #expect(Self.nonIncreasing(Self.doubles(Self.rows(top), "voteAverage")), "\(Self.doubles(Self.rows(top), "voteAverage"))")
        await #expect(Self.lines(try Self.text(home, ["movies", "--top-rated"], sample: sample)).first == "Top rated movies")

        // Saved titles are marked.
        let added = try await Self.text(home, ["fav", "add", "movie", "550"], sample: sample)
        #expect(Self.lines(added).contains("added movie 550 Fight Club (1999)"), "\(added)")
        let marked = try await home.json(["movies"], schema: "title-list.schema.json")
        for row in Self.rows(marked) {
            let saved = row["id"] as? Int == 550
            #expect(row["saved"] as? Bool == saved, "\(row["id"] ?? "?")")
            #expect((row["savedAt"] is String) == saved, "\(row["id"] ?? "?")")
        }
        #expect(Self.ids(Self.rows(marked)).contains(550))
        let markedText = try await Self.text(home, ["movies"], sample: sample)
        #expect(Self.tableRows(markedText).count == 20, "\(markedText)")
        for (id, line) in Self.tableRows(markedText) {
            #expect(line.hasPrefix("★") == (id == 550), "\(line)")
        }
        #expect(Self.lines(markedText).last?.hasSuffix("; ★ saved") == true, "\(markedText)")

        // In German: genre names, titles and the heading.
        await #expect(try Self.text(home, ["settings", "language", "de-DE"], sample: false).contains("de-DE"))
        let comedies = expected { Self.sampleGenres($0).contains(35) }
        #expect(!comedies.isEmpty)
        let komoedie = try await home.json(["movies", "--genre", "Komödie", "--pages", "5"], schema: "title-list.schema.json")
        #expect(komoedie["language"] as? String == "de-DE")
        #expect((komoedie["genres"] as? [[String: Any]])?.map { "\($0["id"] ?? "") \($0["name"] ?? "")" } == ["35 Komödie"])
        #expect(Set(Self.ids(Self.rows(komoedie))) == comedies)
        #expect(Self.rows(komoedie).allSatisfy { Self.genreNames($0).contains("Komödie") && !Self.genreNames($0).contains("Comedy") })
        // The English name is understood too, and shown in German.
        let comedy = try await home.json(["movies", "--genre", "comedy", "--pages", "5"], schema: "title-list.schema.json")
        #expect(Self.ids(Self.rows(comedy)) == Self.ids(Self.rows(komoedie)))
        #expect((comedy["genres"] as? [[String: Any]])?.first?["name"] as? String == "Komödie")
        let komoedieText = try await Self.text(home, ["movies", "--genre", "Komödie"], sample: sample)
        #expect(Self.lines(komoedieText).first == "Discover movies · by popularity, descending · Komödie", "\(komoedieText)")
        let german = try await home.json(["movies", "--sort", "title", "--pages", "5"], schema: "title-list.schema.json")
        #expect(Self.rows(german).count == movies.count)
        let movieByID = Dictionary(uniqueKeysWithValues: movies.compactMap { m in (m["id"] as? Int).map { ($0, m) } })
        for row in Self.rows(german) {
            let id = row["id"] as? Int ?? 0
            #expect(row["title"] as? String == movieByID[id].flatMap { Self.title($0, "de-DE") }, "movie \(id)")
        }
        let germanTitles = Dictionary(uniqueKeysWithValues: Self.rows(german).map { ($0["id"] as? Int ?? 0, $0["title"] as? String ?? "") })
        #expect(germanTitles[603] == "Matrix")
        #expect(germanTitles[389] == "Die zwölf Geschworenen")
        let germanText = try await Self.text(home, ["movies", "--genre", "Action", "--year", "1999"], sample: sample)
        let matrixLine = Self.tableRows(germanText).first { $0.id == 603 }?.line ?? ""
        #expect(matrixLine.contains("Matrix") && !matrixLine.contains("The Matrix"), "\(germanText)")
    }

    @Test(arguments: [false, true])
    func browsingSeries(overHTTP: Bool) async throws {
        let server = overHTTP ? try FakeTMDbProcess() : nil
        let home = Self.home(server)
        let sample = !overHTTP
        let series = try Self.sampleData("series")
        let totalPages = (series.count + 19) / 20
        #expect(series.count == 40 && totalPages == 2)
        func expected(_ include: ([String: Any]) -> Bool) -> Set<Int> { Set(series.filter(include).compactMap { $0["id"] as? Int }) }

        let text = try await Self.text(home, ["series"], sample: sample)
        let lines = Self.lines(text)
        #expect(lines.first == "Discover series · by popularity, descending")
        #expect(lines.count == 23, "\(text)")
        #expect(lines.last == "page 1 of \(totalPages) (\(series.count) titles)")
        let first = try await home.json(["series"], schema: "title-list.schema.json")
        #expect(first["mediaType"] as? String == "tv")
        #expect(first["count"] as? Int == 20)
        #expect(Self.rows(first).allSatisfy { $0["mediaType"] as? String == "tv" })
        #expect(Self.tableRows(text).map(\.id) == Self.ids(Self.rows(first)))
        #expect(Self.nonIncreasing(Self.doubles(Self.rows(first), "popularity")))

        // More pages asked for than there are: every series, pages 2.
        let everything = try await home.json(["series", "--pages", "5"], schema: "title-list.schema.json")
        #expect(everything["pages"] as? Int == totalPages)
        #expect(everything["count"] as? Int == series.count)
        #expect(Set(Self.ids(Self.rows(everything))) == expected { _ in true })
        await #expect(Self.lines(try Self.text(home, ["series", "--pages", "5"], sample: sample)).last == "pages 1–2 of 2 (40 titles)")

        let byName = try await home.json(["series", "--sort", "title", "--pages", "2"], schema: "title-list.schema.json")
        let names = Self.rows(byName).compactMap { $0["title"] as? String }
        #expect(names.count == series.count)
        #expect(zip(names, names.dropFirst()).allSatisfy { $0.lowercased() <= $1.lowercased() }, "\(names)")

        let dramas2011 = expected { Self.sampleGenres($0).contains(18) && Self.year($0) == 2011 }
        #expect(dramas2011.contains(1399))
        let drama = try await home.json(["series", "--genre", "Drama", "--year", "2011"], schema: "title-list.schema.json")
        #expect(Set(Self.ids(Self.rows(drama))) == dramas2011)
        #expect(Self.rows(drama).allSatisfy { $0["year"] as? Int == 2011 && Self.genreIDs($0).contains(18) })
        let dramas = expected { Self.sampleGenres($0).contains(18) }
        await #expect(Set(Self.ids(Self.rows(try home.json(["series", "--genre", "Drama", "--pages", "2"], schema: "title-list.schema.json")))) == dramas)

        let popular = try await home.json(["series", "--popular"], schema: "title-list.schema.json")
        #expect(popular["list"] as? String == "popular" && popular["mediaType"] as? String == "tv")
        #expect(Self.nonIncreasing(Self.doubles(Self.rows(popular), "popularity")))
        await #expect(Self.lines(try Self.text(home, ["series", "--popular"], sample: sample)).first == "Popular series")
        let top = try await home.json(["series", "--top-rated"], schema: "title-list.schema.json")
        #expect(top["list"] as? String == "top-rated")
        #expect(Self.nonIncreasing(Self.doubles(Self.rows(top), "voteAverage")))
        await #expect(Self.lines(try Self.text(home, ["series", "--top-rated"], sample: sample)).first == "Top rated series")

        let added = try await Self.text(home, ["fav", "add", "tv", "1399"], sample: sample)
        #expect(Self.lines(added).contains("added tv 1399 Game of Thrones (2011)"), "\(added)")
        let marked = try await home.json(["series", "--pages", "2"], schema: "title-list.schema.json")
        #expect(Self.rows(marked).filter { $0["saved"] as? Bool == true }.compactMap { $0["id"] as? Int } == [1399])
        let markedText = try await Self.text(home, ["series", "--pages", "2"], sample: sample)
        #expect(Self.tableRows(markedText).filter { $0.line.hasPrefix("★") }.map(\.id) == [1399], "\(markedText)")

        _ = try await Self.text(home, ["settings", "language", "de-DE"], sample: false)
        let crime = expected { Self.sampleGenres($0).contains(80) }
        let krimi = try await home.json(["series", "--genre", "Krimi", "--pages", "2"], schema: "title-list.schema.json")
        #expect(Set(Self.ids(Self.rows(krimi))) == crime)
        #expect(Self.rows(krimi).allSatisfy { Self.genreNames($0).contains("Krimi") })
        let byID = Dictionary(uniqueKeysWithValues: series.compactMap { s in (s["id"] as? Int).map { ($0, s) } })
        for row in await Self.rows(try home.json(["series", "--pages", "2"], schema: "title-list.schema.json")) {
            let id = row["id"] as? Int ?? 0
            #expect(row["title"] as? String == byID[id].flatMap { Self.title($0, "de-DE") }, "tv \(id)")
        }
    }

    // MARK: - 2. Usage errors

    @Test func browsingAndSearchUsageErrorsExit64() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        for (arguments, message) in [
            (["movies", "--desc", "--asc"], "--desc and --asc contradict each other"),
            (["series", "--desc", "--asc"], "--desc and --asc contradict each other"),
            (["movies", "--popular", "--top-rated"], "--popular and --top-rated are two lists"),
            (["movies", "--popular", "--genre", "Drama"], "--genre only works with discover, not with TMDb's --popular list"),
            (["movies", "--top-rated", "--year", "1999"], "--year only works with discover"),
            (["series", "--popular", "--sort", "title"], "--sort/--desc/--asc only works with discover"),
            (["movies", "--page", "0"], "--page takes 1 to 500"),
            (["movies", "--page", "501"], "--page takes 1 to 500"),
            (["movies", "--pages", "51"], "--pages takes 1 to 50"),
            (["movies", "--pages", "0"], "--pages takes 1 to 50"),
            (["series", "--with-person", "x"], "--with-person"),
            (["search"], "<query>"),
            (["search", "   "], "give something to search for"),
            (["search", "--type", "person", "--year", "1999"], "<query>"),
            (["search", "--type", "person", "--year", "1999", "cumberbatch"], "--year applies to --type movie or series"),
            (["search", "--year", "1999", "matrix"], "--year applies to --type movie or series"),
            (["search", "--page", "501", "matrix"], "--page takes 1 to 500"),
            (["search", "--pages", "51", "matrix"], "--pages takes 1 to 50"),
            (["person", "--limit", "0"], "--limit takes a positive number"),
        ] as [([String], String)] {
            try await home.fails(arguments, status: 64, message)
        }
        await #expect(try server.requests() == 0, "usage errors are found before asking TMDb")
        // An unknown genre name needs the genre list: the message lists the genres.
        try await home.fails(["movies", "--genre", "Nope"], status: 64, "no movie genre 'Nope'", "the genres are:", "Action", "Drama", "Science Fiction", "Western")
        try await home.fails(["series", "--genre", "Drama", "Nope"], status: 64, "no series genre 'Nope'", "Sci-Fi & Fantasy", "War & Politics")
        // A person that cannot be found.
        try await home.fails(["movies", "--with-person", "0"], status: 64, "a TMDb person id is a positive whole number")
        try await home.fails(["movies", "--with-person", "Nobody Atall"], status: 66, "TMDb knows no person named 'Nobody Atall'")
        try await home.fails(["movies", "--with-person", "99999999"], status: 66, "TMDb has no person with id 99999999")
        #expect(!FileManager.default.fileExists(atPath: home.data + "/ledger"), "browsing creates no ledger")
    }

    // MARK: - 3. Search

    @Test func searchFindsTitlesAndPeople() async throws {
        let server = try FakeTMDbProcess()
        let home = Self.home(server)

        // Multi: movies, series and people mixed.
        let multi = try await home.json(["search", "man"], schema: "search.schema.json")
        let results = Self.rows(multi)
        #expect(multi["type"] as? String == "multi")
        #expect(multi["query"] as? String == "man")
        #expect(Set(results.compactMap { $0["mediaType"] as? String }) == ["movie", "tv", "person"], "\(results)")
        #expect(results.filter { $0["mediaType"] as? String == "person" }.allSatisfy { ($0["name"] as? String)?.isEmpty == false })
        #expect(results.filter { $0["mediaType"] as? String != "person" }.allSatisfy { ($0["title"] as? String)?.isEmpty == false && $0["details"] as? String == "known" })
        #expect(multi["count"] as? Int == results.count)
        let multiText = try await Self.text(home, ["search", "man"], sample: false)
        // The titles first (with a type column), then the people.
        let titleRows = Self.tableRows(multiText.components(separatedBy: "\n\nPERSON ID").first ?? "", footer: false)
        let titleResults = results.filter { $0["mediaType"] as? String != "person" }
        #expect(titleRows.map(\.id) == Self.ids(titleResults), "\(multiText)")
        #expect(titleRows.allSatisfy { $0.line.contains(" movie ") || $0.line.contains(" tv ") }, "\(multiText)")
        #expect(Self.lines(multiText).first.map { line in ["TYPE", "TMDB ID", "TITLE"].allSatisfy { line.contains($0) } } == true, "\(multiText)")
        #expect(multiText.contains("PERSON ID  NAME"), "\(multiText)")
        #expect(Self.lines(multiText).last == "page 1 of 1 (\(multi["totalResults"] as? Int ?? -1) results)", "\(multiText)")
        let people = results.filter { $0["mediaType"] as? String == "person" }
        for person in people {
            #expect(multiText.contains(person["name"] as? String ?? "?"), "\(person)")
        }

        // Movies of one year.
        let matrix = try await home.json(["search", "--type", "movie", "matrix", "--year", "1999"], schema: "search.schema.json")
        #expect(matrix["type"] as? String == "movie")
        #expect(matrix["year"] as? Int == 1999)
        #expect(Self.ids(Self.rows(matrix)) == [603])
        #expect(Self.rows(matrix).first?["title"] as? String == "The Matrix")
        #expect(Self.rows(matrix).allSatisfy { $0["mediaType"] as? String == "movie" && $0["year"] as? Int == 1999 })
        let matrixText = try await Self.text(home, ["search", "--type", "movie", "matrix", "--year", "1999"], sample: false)
        #expect(Self.tableRows(matrixText).map(\.id) == [603], "\(matrixText)")
        #expect(Self.lines(matrixText).last == "page 1 of 1 (1 title)")
        #expect(Self.lines(matrixText).first?.contains("TYPE") == false, "one media type: no type column")
        await #expect(Self.rows(try home.json(["search", "--type", "movie", "matrix", "--year", "1998"], schema: "search.schema.json")).isEmpty)
        let stranger = try await home.json(["search", "--type", "tv", "stranger"], schema: "search.schema.json")
        #expect(Self.ids(Self.rows(stranger)).contains(66732))
        #expect(Self.rows(stranger).allSatisfy { $0["mediaType"] as? String == "tv" })
        let thrones = try await home.json(["search", "--type", "tv", "--year", "2011", "game", "of", "thrones"], schema: "search.schema.json")
        #expect(Self.ids(Self.rows(thrones)) == [1399])
        #expect(thrones["query"] as? String == "game of thrones")
        await #expect(Self.rows(try home.json(["search", "--type", "tv", "--year", "2010", "game", "of", "thrones"], schema: "search.schema.json")).isEmpty)

        // People.
        let person = try await home.json(["search", "--type", "person", "cumberbatch"], schema: "search.schema.json")
        #expect(Self.ids(Self.rows(person)) == [71580])
        let found = Self.rows(person).first ?? [:]
        #expect(found["mediaType"] as? String == "person")
        #expect(found["name"] as? String == "Benedict Cumberbatch")
        #expect(found["knownForDepartment"] as? String == "Acting")
        let knownFor = found["knownFor"] as? [[String: Any]] ?? []
        #expect(!knownFor.isEmpty && knownFor.allSatisfy { ["movie", "tv"].contains($0["mediaType"] as? String ?? "") })
        let personText = try await Self.text(home, ["search", "--type", "person", "cumberbatch"], sample: false)
        #expect(Self.lines(personText).first?.hasPrefix("PERSON ID  NAME") == true, "\(personText)")
        #expect(Self.lines(personText).contains { $0.contains("71580") && $0.contains("Benedict Cumberbatch") && $0.contains("Acting") }, "\(personText)")
        #expect(Self.lines(personText).last == "page 1 of 1 (1 person)")

        // Saved titles are marked.
        _ = try await Self.text(home, ["fav", "add", "movie", "603"], sample: false)
        let saved = try await home.json(["search", "matrix"], schema: "search.schema.json")
        #expect(Self.rows(saved).first { $0["id"] as? Int == 603 }?["saved"] as? Bool == true)
        let savedText = try await Self.text(home, ["search", "matrix"], sample: false)
        #expect(Self.tableRows(savedText).first { $0.id == 603 }?.line.hasPrefix("★") == true, "\(savedText)")
        #expect(Self.lines(savedText).last?.hasSuffix("; ★ saved") == true, "\(savedText)")

        // Nothing found is not an error.
        let none = try await home.reel(["search", "xyzzy", "plugh"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stdout == "nothing found for 'xyzzy plugh'\n")
        #expect(none.stderr.isEmpty)
        let noneJSON = try await home.json(["search", "xyzzy", "plugh"], schema: "search.schema.json")
        #expect(noneJSON["count"] as? Int == 0)
        #expect(noneJSON["totalResults"] as? Int == 0)
        #expect(Self.rows(noneJSON).isEmpty)
    }

    // MARK: - 4. Person

    @Test func personShowsAFilmographyNewestFirst() async throws {
        let server = try FakeTMDbProcess()
        let home = Self.home(server)
        let movies = try Self.sampleData("movies"), series = try Self.sampleData("series")
        let expected = Set(movies.filter { Self.credits($0, 71580) }.compactMap { ($0["id"] as? Int).map { "movie \($0)" } }
            + series.filter { Self.credits($0, 71580) }.compactMap { ($0["id"] as? Int).map { "tv \($0)" } })
        #expect(expected.count == 16)

        let person = try await home.json(["person"], schema: "person.schema.json")
        #expect(person["id"] as? Int == 71580)
        #expect(person["name"] as? String == "Benedict Cumberbatch")
        #expect(person["creditCount"] as? Int == 16)
        let credits = Self.rows(person, "credits")
        #expect(credits.count == 16)
        #expect(Set(credits.map { "\($0["mediaType"] ?? "") \($0["id"] ?? "")" }) == expected)
        let dates = credits.compactMap { $0["date"] as? String }
        #expect(dates.count == credits.count, "every sample credit is dated")
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 >= $1 }, "newest first: \(dates)")
        let years = credits.compactMap { $0["year"] as? Int }
        #expect(zip(years, years.dropFirst()).allSatisfy { $0 >= $1 }, "\(years)")

        let text = try await Self.text(home, ["person"], sample: false)
        #expect(Self.lines(text).first == "Benedict Cumberbatch  person 71580", "\(text)")
        #expect(Self.lines(text).last == "16 titles, newest first", "\(text)")
        // Rows: the mark, the year, the type, the id: the id is the second number.
        #expect(Self.tableRows(text, skip: 1).map(\.id) == Self.ids(credits), "\(text)")

        // By name: the same person.
        for name in [["Cumberbatch"], ["benedict", "cumberbatch"], ["71580"]] {
            let byName = try await home.json(["person"] + name, schema: "person.schema.json")
            #expect(byName["id"] as? Int == 71580, "\(name)")
            #expect(Self.ids(Self.rows(byName, "credits")) == Self.ids(credits), "\(name)")
        }

        // --limit: the newest N, the total still said.
        let three = try await home.json(["person", "--limit", "3"], schema: "person.schema.json")
        #expect(three["creditCount"] as? Int == 16)
        #expect(Self.ids(Self.rows(three, "credits")) == Array(Self.ids(credits).prefix(3)))
        let threeText = try await Self.text(home, ["person", "Cumberbatch", "--limit", "3"], sample: false)
        #expect(Self.tableRows(threeText, skip: 1).map(\.id) == Array(Self.ids(credits).prefix(3)), "\(threeText)")
        #expect(Self.lines(threeText).last == "3 of 16 titles, newest first", "\(threeText)")

        // Saved titles are marked.
        _ = try await Self.text(home, ["fav", "add", "movie", "284052"], sample: false)
        let marked = try await home.json(["person"], schema: "person.schema.json")
        #expect(Self.rows(marked, "credits").filter { $0["saved"] as? Bool == true }.compactMap { $0["id"] as? Int } == [284052])
        let markedText = try await Self.text(home, ["person"], sample: false)
        #expect(Self.tableRows(markedText, skip: 1).filter { $0.line.hasPrefix("★") }.map(\.id) == [284052], "\(markedText)")
        #expect(Self.lines(markedText).last == "16 titles, newest first; ★ saved")

        // Unknown people.
        try await home.fails(["person", "Nobody", "Atall"], status: 66, "TMDb knows no person named 'Nobody Atall'")
        try await home.fails(["person", "99999999"], status: 66, "TMDb has no person with id 99999999")
        try await home.fails(["person", "0"], status: 64, "positive whole number")
    }

    // MARK: - 5. Genres

    @Test func genresInTheAccountsLanguage() async throws {
        let server = try FakeTMDbProcess()
        let home = Self.home(server)
        func pairs(_ value: Any?) -> [String] { (value as? [[String: Any]] ?? []).map { "\($0["id"] ?? "") \($0["name"] ?? "")" } }

        let both = try await home.json(["genres"], schema: "genres.schema.json")
        #expect(both["language"] as? String == "en-US")
        let movie = pairs(both["movie"]), tv = pairs(both["tv"])
        #expect(movie.count == 19 && tv.count == 16, "\(movie) \(tv)")
        for genre in ["18 Drama", "35 Comedy", "80 Crime", "878 Science Fiction"] { #expect(movie.contains(genre), "\(genre)") }
        for genre in ["18 Drama", "10765 Sci-Fi & Fantasy", "10759 Action & Adventure"] { #expect(tv.contains(genre), "\(genre)") }
        #expect(!tv.contains("878 Science Fiction"))

        let text = try await Self.text(home, ["genres"], sample: false)
        let sections = text.components(separatedBy: "\n\n")
        #expect(sections.count == 2, "\(text)")
        #expect(sections.first?.hasPrefix("Movie genres\n") == true)
        #expect(sections.last?.hasPrefix("Series genres\n") == true)
        for (section, expected) in zip(sections, [movie, tv]) {
            // Rows after the heading and the column header: the id, right-aligned, then the name.
            let body = Self.lines(section).dropFirst(2).map { $0.trimmingCharacters(in: .whitespaces) }
            let parsed = body.map { row in (String(row.prefix { $0.isNumber }), row.drop { $0.isNumber }.trimmingCharacters(in: .whitespaces)) }
            let names = parsed.map(\.1)
            #expect(names == names.sorted(), "sorted by name: \(names)")
            #expect(Set(parsed.map { "\($0.0) \($0.1)" }) == Set(expected))
        }

        let tvOnly = try await home.json(["genres", "tv"], schema: "genres.schema.json")
        #expect(tvOnly["movie"] is NSNull)
        #expect(pairs(tvOnly["tv"]) == tv)
        let movieOnly = try await home.json(["genres", "movie"], schema: "genres.schema.json")
        #expect(movieOnly["tv"] is NSNull)
        #expect(pairs(movieOnly["movie"]) == movie)
        let tvText = try await Self.text(home, ["genres", "tv"], sample: false)
        #expect(tvText.hasPrefix("Series genres\n") && !tvText.contains("Movie genres"), "\(tvText)")

        _ = try await Self.text(home, ["settings", "language", "de-DE"], sample: false)
        let german = try await home.json(["genres"], schema: "genres.schema.json")
        #expect(german["language"] as? String == "de-DE")
        let germanMovie = pairs(german["movie"]), germanTV = pairs(german["tv"])
        for genre in ["35 Komödie", "80 Krimi", "10749 Liebesfilm", "18 Drama"] { #expect(germanMovie.contains(genre), "\(genre)") }
        for genre in ["35 Komödie", "80 Krimi", "10751 Familie"] { #expect(germanTV.contains(genre), "\(genre)") }
        #expect(!germanMovie.contains("35 Comedy"))
        func ids(_ list: [String]) -> [String] { list.map { String($0.prefix { $0 != " " }) } }
        #expect(ids(germanMovie) == ids(movie) && ids(germanTV) == ids(tv), "the same genres, renamed")
        let germanText = try await Self.text(home, ["genres", "movie"], sample: false)
        #expect(germanText.contains("Komödie") && !germanText.contains("Comedy"), "\(germanText)")
    }

    // MARK: - 6. The hydrated ledger

    @Test func favAddChecksIdsAndHistoryNamesTitles() async throws {
        let server = try FakeTMDbProcess()
        let home = Self.home(server)
        func eventCount() async throws -> Int { await Self.rows(try home.json(["history"], schema: "history.schema.json"), "events").count }

        #expect(try await home.reel(["settings", "name", "Ann"]).status == 0)
        await #expect(try eventCount() == 2, "opened, named")
        let added = try await home.reel(["fav", "add", "movie", "550"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "added movie 550 Fight Club (1999)\n")
        #expect(added.stderr.isEmpty, "\(added.stderr)")
        await #expect(try eventCount() == 3)

        // Ids TMDb does not have: nothing is saved, not even the good ones given with them.
        try await home.fails(["fav", "add", "movie", "99999999"], status: 66, "TMDb has no movie with id 99999999; nothing saved")
        try await home.fails(["fav", "add", "movie", "603", "99999999"], status: 66, "TMDb has no movie with id 99999999; nothing saved")
        try await home.fails(["fav", "add", "tv", "99999999"], status: 66, "TMDb has no series with id 99999999; nothing saved")
        await #expect(try eventCount() == 3)
        let audit = try await home.reel(["audit", "verify", "--json"])
        #expect(audit.status == 0, "\(audit.stderr)")
        #expect(try Harness.json(audit.stdout)["events"] as? Int == 3, "\(audit.stdout)")
        await #expect(Self.ids(Self.rows(try home.json(["saved"], schema: "saved.schema.json"), "items")) == [550])

        let matrix = try await home.json(["fav", "add", "movie", "603"], schema: "command-result.schema.json")
        #expect(matrix["changed"] as? Bool == true)
        let outcome = Self.rows(matrix, "outcomes").first ?? [:]
        #expect(outcome["message"] as? String == "added movie 603 The Matrix (1999)", "\(outcome)")
        #expect(outcome["title"] as? String == "The Matrix (1999)")
        #expect(try await home.reel(["settings", "language", "de-DE"]).status == 0)

        let history = try await Self.text(home, ["history"], sample: false)
        for line in [
            "opened the account 'default'", "changed name to \"Ann\"", "added movie 550 Fight Club (1999)",
            "added movie 603 Matrix (1999)", "switched language to de-DE (German)",
        ] {
            #expect(history.contains(line), "'\(line)' not in \(history)")
        }
        #expect(!history.contains("The Matrix"), "titles in the account's language now: \(history)")
        #expect(Self.tableRows(history, header: "WHAT HAPPENED", footer: false).count == 5, "\(history)")

        let events = await Self.rows(try home.json(["history"], schema: "history.schema.json"), "events")
        #expect(events.count == 5)
        #expect(events.map { $0["summary"] as? String ?? "" } == [
            "opened the account 'default'", "changed name to \"Ann\"", "added movie 550 Fight Club (1999)",
            "added movie 603 Matrix (1999)", "switched language to de-DE (German)",
        ])
        #expect(events.map { $0["title"] as? String } == [nil, nil, "Fight Club (1999)", "Matrix (1999)", nil])

        // As of the second version: the first two events only.
        let past = try await Self.text(home, ["history", "--as-of", "v2"], sample: false)
        #expect(Self.lines(past).first == "as of stream version 2", "\(past)")
        #expect(past.contains("changed name to \"Ann\""))
        #expect(!past.contains("added movie"), "\(past)")
        let pastJSON = try await home.json(["history", "--as-of", "v2"], schema: "history.schema.json")
        #expect(Self.rows(pastJSON, "events").count == 2)
        let v3 = await Self.rows(try home.json(["history", "--as-of", "v3"], schema: "history.schema.json"), "events")
        #expect(v3.last?["summary"] as? String == "added movie 550 Fight Club (1999)")

        // The saved list, in German.
        let saved = try await home.json(["saved"], schema: "saved.schema.json")
        #expect(saved["language"] as? String == "de-DE")
        #expect(Self.rows(saved, "items").map { $0["title"] as? String } == ["Fight Club", "Matrix"])
        #expect(Self.rows(saved, "items").allSatisfy { $0["details"] as? String == "known" && $0["saved"] as? Bool == true })
        let savedText = try await Self.text(home, ["saved"], sample: false)
        #expect(Self.tableRows(savedText, skip: 1).map(\.id) == [550, 603], "\(savedText)")
        #expect(Self.tableRows(savedText, skip: 1).last?.line.contains("Matrix") == true)
        #expect(!savedText.contains("The Matrix"), "\(savedText)")
        #expect(Self.lines(savedText).last == "2 of 2 saved (movies: 2, series: 0)", "\(savedText)")
    }

    // MARK: - 7. Offline with a partly filled cache

    @Test func offlineSavedListMarksTitlesWithoutCachedDetails() async throws {
        let server = try FakeTMDbProcess()
        let home = Self.home(server)
        #expect(try await home.reel(["fav", "add", "movie", "550", "603"]).status == 0)
        let before = try await server.requests()

        let added = try await home.reel(["fav", "add", "movie", "13", "--offline"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "added movie 13\n", "offline: no title to name it by")
        #expect(Self.lines(added.stderr).count == 1, "\(added.stderr)")
        #expect(added.stderr.hasPrefix("reel: note: ") && added.stderr.contains("offline") && added.stderr.contains("movie 13"), "\(added.stderr)")

        func checkOffline() async throws {
            let saved = try await home.json(["saved", "--offline"], schema: "saved.schema.json")
            let items = Self.rows(saved, "items")
            #expect(Self.ids(items) == [550, 603, 13])
            #expect(items.map { $0["details"] as? String } == ["known", "known", "not-cached"])
            #expect(items.map { $0["title"] as? String } == ["Fight Club", "The Matrix", nil])
            #expect(items.last?["problem"] is NSNull)
            #expect(items.last?["year"] is NSNull)
            #expect(saved["detailsMissing"] as? Int == 1)
            #expect(saved["total"] as? Int == 3)
            #expect((saved["notices"] as? [String])?.contains { $0.contains("offline") && $0.contains("not cached") } == true, "\(saved["notices"] ?? "")")

            let text = try await home.reel(["saved", "--offline"])
            #expect(text.status == 0, "\(text.stderr)")
            let rows = Self.tableRows(text.stdout, skip: 1)
            #expect(rows.map(\.id) == [550, 603, 13], "\(text.stdout)")
            #expect(rows.last?.line.contains("(details not cached)") == true, "\(text.stdout)")
            #expect(rows.first?.line.contains("Fight Club") == true)
            #expect(Self.lines(text.stdout).last == "3 of 3 saved (movies: 3, series: 0); 1 without details", "\(text.stdout)")
            #expect(Self.lines(text.stderr).count == 1 && text.stderr.contains("offline"), "\(text.stderr)")
        }
        try await checkOffline()
        await #expect(try server.requests() == before, "offline asks nothing")

        // With the server gone, the cached titles still show.
        server.stop()
        try await checkOffline()
    }

    // MARK: - 8. TMDb failing for one title

    @Test func oneFailingTitleDoesNotFailTheList() async throws {
        let server = try FakeTMDbProcess()
        let home = Self.home(server)
        // Saved offline: nothing fetched, nothing cached.
        #expect(try await home.reel(["fav", "add", "movie", "550", "603", "13", "--offline"]).status == 0)
        #expect(try await home.reel(["fav", "add", "tv", "1399", "--offline"]).status == 0)
        await #expect(try server.requests() == 0)
        try await server.fault("kind=status&status=500&count=1000&path=/movie/603")

        let saved = try await home.json(["saved"], schema: "saved.schema.json")
        let items = Self.rows(saved, "items")
        #expect(Self.ids(items) == [550, 603, 13, 1399])
        for item in items {
            let failing = item["id"] as? Int == 603
            #expect(item["details"] as? String == (failing ? "failed" : "known"), "\(item)")
            #expect((item["problem"] is NSNull) == !failing, "\(item)")
            #expect((item["title"] is NSNull) == failing, "\(item)")
        }
        let problem = items.first { $0["id"] as? Int == 603 }?["problem"] as? String ?? ""
        #expect(problem.contains("500"), "\(problem)")
        #expect(saved["detailsMissing"] as? Int == 1)
        #expect((saved["notices"] as? [String])?.contains { $0.contains("could not be fetched") } == true, "\(saved["notices"] ?? "")")
        let tries = await (try server.stats()["byPath"] as? [String: Int])?["/movie/603"] ?? 0
        #expect(tries >= 2, "retried before giving up: \(tries)")

        let text = try await home.reel(["saved"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(Self.lines(text.stderr).count == 1, "\(text.stderr)")
        #expect(text.stderr.hasPrefix("reel: note: ") && text.stderr.contains("could not be fetched") && text.stderr.contains("500"), "\(text.stderr)")
        let rows = Self.tableRows(text.stdout, skip: 1)
        #expect(rows.map(\.id) == [550, 603, 13, 1399], "\(text.stdout)")
        #expect(rows.first { $0.id == 603 }?.line.contains("(details unavailable)") == true, "\(text.stdout)")
        #expect(rows.first { $0.id == 13 }?.line.contains("Forrest Gump") == true, "\(text.stdout)")
        #expect(Self.lines(text.stdout).last == "4 of 4 saved (movies: 3, series: 1); 1 without details", "\(text.stdout)")
    }

    @Test func refusedCredentialsFailTheSavedListWith77() async throws {
        let server = try FakeTMDbProcess(["--token", "right"])
        let home = Self.home(server)  // token "any-token": refused
        #expect(try await home.reel(["fav", "add", "movie", "550", "--offline"]).status == 0, "offline: saved unchecked")
        try await home.fails(["saved"], status: 77, "401")
        let json = try await home.reel(["saved", "--json"])
        #expect(json.status == 77)
        #expect(json.stdout.isEmpty)
        try await home.fails(["history"], status: 77, "401")
        try await home.fails(["fav", "add", "movie", "603"], status: 77, "401")
        await #expect(Self.ids(Self.rows(try home.json(["saved", "--offline"], schema: "saved.schema.json"), "items")) == [550])
    }

    // MARK: - 9. Terminal widths

    @Test(arguments: [40, 200])
    func outputFitsTheTerminalWidth(columns: Int) async throws {
        let home = Self.home(nil, columns: columns)
        let long = "The Lord of the Rings: The Return of the King"
        #expect(try await home.reel(["fav", "add", "movie", "550", "122", "603"]).status == 0)
        #expect(try await home.reel(["fav", "add", "tv", "1399"]).status == 0)
        #expect(try await home.reel(["settings", "name", "Ann"]).status == 0)

        var outputs: [String: String] = [:]
        for arguments in [
            ["saved"], ["movies"], ["series"], ["search", "the"], ["search", "man"], ["person"], ["history"], ["genres"],
            ["show", "movie", "550"], ["show", "movie", "122"],
        ] {
            let out = try await Self.text(home, arguments, sample: true)
            outputs[arguments.joined(separator: " ")] = out
            for line in Self.lines(out) where line.count > columns {
                // Only a single word too long to break (a URL, alone on its line) may stick out.
                #expect(!line.contains(" ") && line.hasPrefix("https://"), "\(arguments) at \(columns): \(line.count) characters: '\(line)'")
            }
        }
        let saved = outputs["saved"] ?? ""
        let savedRows = Self.tableRows(saved, skip: 1)
        #expect(savedRows.map(\.id) == [550, 122, 603, 1399], "\(saved)")
        let lord = savedRows.first { $0.id == 122 }?.line ?? ""
        let history = outputs["history"] ?? ""
        let show = Self.lines(outputs["show movie 550"] ?? "")
        let movies = try await home.json(["movies"], schema: "title-list.schema.json")
        let movieTitles = Dictionary(uniqueKeysWithValues: Self.rows(movies).map { ($0["id"] as? Int ?? 0, $0["title"] as? String ?? "") })
        let movieRows = Self.tableRows(outputs["movies"] ?? "")
        #expect(movieRows.count == 20)

        if columns == 40 {
            // Long titles are cut with an ellipsis; whole columns go.
            #expect(lord.contains("The Lord of") && lord.contains("…") && !lord.contains(long), "\(saved)")
            #expect(Self.lines(saved).first.map { $0.contains("TITLE") && !$0.contains("GENRES") && !$0.contains("ADDED") } == true, "\(saved)")
            // History wraps what happened instead (issue 19): every word of the long title is there.
            #expect(!history.contains("…"), "\(history)")
            #expect(!history.contains("added movie 122 \(long)"))
            let historyWords = Set(history.split(whereSeparator: \.isWhitespace))
            #expect(long.split(separator: " ").allSatisfy(historyWords.contains), "\(history)")
            // A cut title is the start of the real one.
            var cut = 0
            for (id, line) in movieRows where line.contains("…") {
                cut += 1
                let shown = line.components(separatedBy: "  \(id)  ").last?.components(separatedBy: "…").first ?? ""
                #expect(shown.count >= 5 && (movieTitles[id] ?? "").hasPrefix(shown), "\(line) vs \(movieTitles[id] ?? "?")")
            }
            #expect(cut > 0, "\(outputs["movies"] ?? "")")
            // Prose is wrapped at word boundaries; the poster URL stands alone on its own line.
            let poster = show.firstIndex(of: "Poster:")
            #expect(poster.map { show.indices.contains($0 + 1) && show[$0 + 1].hasPrefix("https://image.tmdb.org/") } == true, "\(show)")
        } else {
            // Wide: nothing cut, full titles.
            for (command, out) in outputs { #expect(!out.contains("…"), "\(command) at 200: \(out)") }
            #expect(lord.contains(long), "\(saved)")
            #expect(Self.lines(saved).first.map { line in ["#", "TYPE", "TMDB ID", "TITLE", "YEAR", "GENRES", "RATING", "ADDED"].allSatisfy { line.contains($0) } } == true, "\(saved)")
            #expect(history.contains("added movie 122 \(long) (2003)"), "\(history)")
            for (id, line) in movieRows { #expect(line.contains(movieTitles[id] ?? "?"), "\(line)") }
            #expect(show.contains { $0.hasPrefix("Poster: https://image.tmdb.org/") }, "\(show)")
            #expect(show.contains { $0.hasPrefix("Trailer: https://") })
            let person = try await home.json(["person"], schema: "person.schema.json")
            for credit in Self.rows(person, "credits") {
                #expect(outputs["person"]?.contains(credit["title"] as? String ?? "?") == true, "\(credit)")
            }
        }
    }

    /// Runs `reel ARGUMENTS` on a pseudo-terminal (util-linux `script`), with colours allowed and
    /// COLUMNS as the width (the terminal `script` opens has no size of its own). Returns what
    /// the terminal showed of stdout (stderr goes to /dev/null), escape codes and carriage
    /// returns left in.
    static func onATerminal(_ home: Home, _ arguments: [String], columns: Int) async throws -> Harness.Output {
        let command = ([Harness.binaries + "/reel"] + arguments).map { "'" + $0 + "'" }.joined(separator: " ") + " 2>/dev/null"
        var env = ProcessInfo.processInfo.environment.filter { !Home.inherited.contains($0.key) }
        env["REEL_DATA_DIR"] = home.data
        env["XDG_CONFIG_HOME"] = home.config
        for (k, v) in home.environment { env[k] = v }
        env["COLUMNS"] = String(columns)
        env["TERM"] = "xterm"
        env["SHELL"] = "/bin/sh"
        env["NO_COLOR"] = nil
        return try await Harness.runClean("/usr/bin/script", ["-qec", command, "/dev/null"], environment: env)
    }

    /// What a person sees of `text`: without escape codes (colours, and the questions `reel show`
    /// asks the terminal about pictures: kitty's APC query, XTVERSION, cell size, device
    /// attributes, which a terminal answers and never shows) and carriage returns.
    static func visible(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}_[^\u{1B}]*\u{1B}\\\\", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\u{1B}\\[[0-9;?>$]*[A-Za-z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "")
    }

    /// On a colour terminal the same width rule holds: painting a line (a bold title, a dim
    /// trailer name) must not exempt it from wrapping.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func colouredOutputFitsTheTerminalWidthToo() async throws {
        let home = Self.home(nil, columns: 40)
        #expect(try await home.reel(["fav", "add", "movie", "550", "122"]).status == 0)
        var painted = 0
        for arguments in [["show", "movie", "550"], ["show", "movie", "122"], ["saved"], ["movies"], ["person"], ["history"], ["search", "the"], ["genres"]] {
            let out = try await Self.onATerminal(home, arguments, columns: 40)
            #expect(out.status == 0, "\(arguments): \(out.stdout)")
            if out.stdout.contains("\u{1B}[") { painted += 1 }
            let shown = Self.visible(out.stdout)
            #expect(!shown.isEmpty, "\(arguments)")
            for line in Self.lines(shown) where line.count > 40 {
                #expect(!line.contains(" ") && line.hasPrefix("https://"), "\(arguments) on a 40-column colour terminal: \(line.count) characters: '\(line)'")
            }
        }
        #expect(painted == 8, "colours are on: every command painted something")
    }
}
