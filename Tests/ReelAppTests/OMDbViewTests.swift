import Reel
import ReelApp
import Testing

/// OMDb in the terminal app, without a terminal: the details screen's lines after TMDb's facts
/// (ratings, the awards' trophy row laid out by display width, certificate and box office,
/// director and writer, as `reel show` words them), made terminal-safe, at 80 columns and beside the poster; the saved list's score
/// column, given up first when the width is short; `s` going through OMDb's orders.
@Suite struct OMDbViewTests {
    static let ratings = "IMDb 8.7 (2.1M votes) · Rotten Tomatoes 83% · Metacritic 73"

    /// The Matrix's OMDb facts as the core words them.
    static func matrixOMDb() -> TitleDetails.OMDb {
        TitleDetails.OMDb(
            ratings: ratings, awards: "🏆🏆🏆🏆 4 Oscars · 42 wins · 51 nominations", boxOffice: "$172,076,928", rated: "R",
            directors: ["Lana Wachowski", "Lilly Wachowski"], writers: ["Lilly Wachowski", "Lana Wachowski"])
    }

    /// The Matrix's details (`SearchViewTests.matrixDetails`) with `omdb` and `status`, drawn at 80×24.
    static func drawn(_ omdb: TitleDetails.OMDb?, status: String = "found") -> ScreenBuffer {
        var model = SearchViewTests.searched(editing: false)
        var screen = SearchViewTests.matrixDetails()
        screen.details?.omdb = omdb
        screen.details?.omdbStatus = status
        model.screens = [.details(screen)]
        return AppView.draw(model)
    }

    /// Rows 2… of the details drawn without OMDb: what OMDb's lines come between.
    static let withoutOMDb = Array(drawn(nil, status: "off").lines()[2...])

    @Test func theDetailsShowOMDbsLinesAfterTMDbsFacts() {
        let screen = Self.drawn(Self.matrixOMDb())
        let lines = screen.lines()
        #expect(Array(lines[2...11]) == [
            "› Original title: The Matrix�]0;x�",
            "  released 1999-03-30 · 136 min · Released",
            "  Genres: Action, Science Fiction",
            "  Rating: 8.2/10 from 26,281 votes · popularity 85.3",
            "  Ratings: \(Self.ratings)",
            "  Awards: 🏆🏆🏆🏆 4 Oscars · 42 wins · 51 nominations",
            "  Rated R · box office $172,076,928",
            // (OMDb's directors are TMDb's `Directed by`, below: named once.)
            "  Writer: Lilly Wachowski, Lana Wachowski",
            "  “Welcome to the Real World.”",
            "",
        ], "\n\(lines.joined(separator: "\n"))")
        #expect(lines.filter { $0.contains("Lana Wachowski, Lilly Wachowski") }.count == 1, "\(lines)")
        // Each trophy takes two cells (its own and a continuation): the totals start after them.
        let awards = screen.rows[7]
        for column in [10, 12, 14, 16] { #expect(awards[column].text == "🏆" && awards[column + 1].text == "", "column \(column)") }
        #expect(awards[18].text == " " && awards[19].text == "4" && awards[21].text == "O")
        // Below OMDb's lines, the rest as before.
        #expect(Array(lines[10...21]) == Array(Self.withoutOMDb[4...15]))
    }

    @Test func onlyTheLinesOMDbHadShow() {
        var lines = Self.drawn(TitleDetails.OMDb(ratings: "IMDb 6.1", writers: ["One Writer", "Another"])).lines()
        #expect(Array(lines[6...8]) == ["  Ratings: IMDb 6.1", "  Writer: One Writer, Another", "  “Welcome to the Real World.”"])
        lines = Self.drawn(TitleDetails.OMDb(boxOffice: "$1,000", directors: ["Someone Else"])).lines()
        #expect(Array(lines[6...8]) == ["  box office $1,000", "  Director: Someone Else", "  “Welcome to the Real World.”"])
        // OMDb with nothing to show, OMDb off, a title OMDb lacks, no IMDb id: TMDb's lines alone.
        for (omdb, status) in [(TitleDetails.OMDb(), "found"), (nil, "off"), (nil, "missing"), (nil, "no-imdb-id")] {
            #expect(Array(Self.drawn(omdb, status: status).lines()[2...]) == Self.withoutOMDb, "\(status)")
        }
    }

    @Test func anOldAnswerAndAFailureSaySoDimly() {
        var old = Self.matrixOMDb()
        old.stale = true
        var screen = Self.drawn(old)
        #expect(screen.lines()[10] == "  (OMDb, older than a week: it could not be asked again)")
        #expect(screen.rows[10][3].style.attributes.contains(.dim) && !screen.rows[9][3].style.attributes.contains(.dim))
        let failures = [
            "budget-spent": "today's OMDb budget is spent", "key-refused": "OMDb refused the key",
            "not-cached": "not cached, and reel is offline", "unavailable": "OMDb is unavailable",
        ]
        for (status, why) in failures {
            screen = Self.drawn(nil, status: status)
            #expect(screen.lines()[6] == "  (no OMDb ratings: \(why))", "\(status)")
            #expect(screen.rows[6][3].style.attributes.contains(.dim))
            #expect(Array(screen.lines()[7...22]) == Array(Self.withoutOMDb[4...19]), "\(status)")
        }
    }

    @Test func controlCharactersInOMDbsTextsNeverReachTheTerminal() {
        let hostile = TitleDetails.OMDb(
            ratings: "IMDb 8.7\u{1B}[2J", awards: "\u{1B}]0;owned\u{07}🏆 1 Oscar", boxOffice: "$1\u{9B}31m", rated: "PG-13\u{1B}[5m",
            directors: ["Bad\u{0}Director"], writers: ["Evil\u{1B}[1;1HWriter", "Two\r\nLines"])
        let screen = Self.drawn(hostile)
        for row in screen.rows {
            for cell in row {
                #expect(!cell.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(cell.text.unicodeScalars.map(\.value))")
            }
        }
        let lines = screen.lines()
        #expect(lines[6] == "  Ratings: IMDb 8.7�[2J" && lines[8] == "  Rated PG-13�[5m · box office $1�31m", "\(lines)")
        #expect(lines[7].hasPrefix("  Awards: �]0;owned") && lines[7].hasSuffix("🏆 1 Oscar"))
        #expect(lines[9].hasPrefix("  Director: Bad") && lines[9].hasSuffix("Director") && lines[10].hasPrefix("  Writer: Evil�[1;1HWriter, Two"))
    }

    @Test func besideThePosterTheLinesWrapWithTheTrophiesWhole() {
        var model = PictureUpdateTests.movies(width: 100)
        model = AppUpdate.update(model, .key(.enter)).0
        var loaded = TitleDetails(key: try! MediaKey(.movie, 1), title: "Movie 1")
        loaded.posterPath = "/poster.jpg"
        loaded.omdb = TitleDetails.OMDb(
            ratings: Self.ratings, awards: String(repeating: "🏆", count: 12) + "+3 15 Oscars · 108 wins · 145 nominations",
            writers: ["Stephen King (short story \"Rita Hayworth and Shawshank Redemption\")", "Frank Darabont (screenplay)"])
        model = AppUpdate.update(model, .details(.titleLoaded(loaded))).0
        let screen = AppView.draw(model)
        let lines = screen.lines()
        // The poster's box starts at column 69: the lines end before its gap (column 67).
        for row in 2..<29 { #expect(screen.rows[row][67...].allSatisfy { $0 == .blank } || lines[row].hasSuffix("poster…"), "row \(row): \(lines[row])") }
        #expect(Array(lines[3...8]) == [
            "  Ratings: IMDb 8.7 (2.1M votes) · Rotten Tomatoes 83% · Metacritic",
            "  73",
            // 61 columns (each trophy two) and `nominations` would make 73: it goes on the next line.
            "  Awards: 🏆🏆🏆🏆🏆🏆🏆🏆🏆🏆🏆🏆+3 15 Oscars · 108 wins · 145",
            "  nominations",
            "  Writer: Stephen King (short story \"Rita Hayworth and Shawshank",
            "  Redemption\"), Frank Darabont (screenplay)",
        ], "\n\(lines.joined(separator: "\n"))")
        let trophies = screen.rows[5].indices.filter { screen.rows[5][$0].text == "🏆" }
        #expect(trophies == Array(stride(from: 10, to: 34, by: 2)) && trophies.allSatisfy { screen.rows[5][$0 + 1].text == "" })
        #expect(screen.rows[5][34].text == "+")
    }

    // MARK: - The saved list

    static let clubScores = TitleRow.Scores(imdbRating: 8.8, metascore: 67, tomatometer: 79)
    static let breakingScores = TitleRow.Scores(imdbRating: 9.5, tomatometer: 96)

    /// The Saved tab at 80×24 (club, amelie, breaking) answered for `request`, club and
    /// breaking with OMDb's scores, amelie without.
    static func savedWithScores(_ request: SavedRequest = SavedRequest(), thumbnails: Bool = false, width: Int = 80) -> AppModel {
        var model = SavedUpdateTests.loaded()
        model.width = width
        if thumbnails {
            model.pictures = PictureState(available: true, reason: "symbols (test)")
            model.pictures.thumbnails = true
        }
        var club = SavedUpdateTests.club
        club.scores = clubScores
        var breaking = SavedUpdateTests.breaking
        breaking.scores = breakingScores
        model.saved.request = request
        model.saved.inFlight = request
        model = AppUpdate.update(model, .saved(.loaded(request, rows: [club, SavedUpdateTests.amelie, breaking], total: 3, language: "en", account: "ann"))).0
        model.status.language = "en"
        return model
    }

    @Test func theSavedListHasAnIMDbColumnWhenRowsHaveScores() {
        let lines = AppView.draw(Self.savedWithScores()).lines()
        // (The keys take two lines under the heading at 80 columns.)
        #expect(Array(lines[4...7]) == [
            "    Title               Kind    Released    Genres           Rating        IMDb",
            "› ★ Fight Club          movie   1999        Drama               8.4    IMDb 8.8",
            "  ★ Amélie              movie   2001        Comedy, Romance     7.9      IMDb –",
            "  ★ Breaking Bad        series  2008        Drama, Crime        8.9    IMDb 9.5",
        ], "\n\(lines.joined(separator: "\n"))")
        // Sorted by one of OMDb's other scores, the column shows that one.
        let metascore = AppView.draw(Self.savedWithScores(SavedRequest(order: .metascore, descending: true))).lines()
        #expect(metascore[1].hasPrefix(" Saved · by Metascore, best first"))
        #expect(metascore[4].hasSuffix("Rating  Metacritic"))
        #expect(metascore[5].hasSuffix("8.4       MC 67") && metascore[7].hasSuffix("8.9        MC –"), "\n\(metascore.joined(separator: "\n"))")
        let tomatometer = AppView.draw(Self.savedWithScores(SavedRequest(order: .tomatometer, descending: true))).lines()
        #expect(tomatometer[5].hasSuffix("8.4      RT 79%") && tomatometer[7].hasSuffix("8.9      RT 96%"))
        // Wider, the title takes what the width adds; the column stays at the right of the list
        // (the preview pane beside it from 120 columns).
        let wide = AppView.draw(Self.savedWithScores(width: 120)).lines()
        #expect(wide[5].hasPrefix("› ★ Fight Club              movie") && wide[5].contains("8.4    IMDb 8.8 │"), "\(wide[5])")
    }

    @Test func onANarrowScreenTheGenresAreGivenUpBeforeTheScoreAndNothingShowsWithoutScores() {
        // A long title at 80 columns with thumbnails: the title keeps 24 columns beside the
        // score, so the genres go.
        var model = Self.savedWithScores(thumbnails: true)
        model.saved.rows[1].title = "The Lord of the Rings: The Fellowship of the Ring"
        model.saved.refilter(visible: 5)
        let thumbnails = AppView.draw(model).lines()
        #expect(thumbnails[4] == "         Title                           Kind    Released    Rating        IMDb", "\n\(thumbnails.joined(separator: "\n"))")
        #expect(thumbnails[8] == "       ★ The Lord of the Rings: The Fe…  movie   2001           7.9      IMDb –")
        // No row with scores (OMDb off, nothing filled yet): no score column.
        let plain = AppView.draw(SavedUpdateTests.loaded()).lines()
        #expect(plain[5] == "› ★ Fight Club                      movie   1999        Drama               8.4", "\(plain[5])")
    }

    @Test func sGoesThroughOMDbsOrdersWhenTheListHasScores() {
        var model = Self.savedWithScores()
        var orders: [SavedRequest] = []
        for _ in 0..<7 {
            let effects: [AppEffect]
            (model, effects) = AppUpdateTests.type(model, .character("s"))
            #expect(effects == [.saved(.load(model.saved.request))])
            orders.append(model.saved.request)
            model = AppUpdate.update(model, .saved(.loaded(model.saved.request, rows: model.saved.rows, total: 3, language: "en", account: "ann"))).0
        }
        #expect(orders == [
            SavedRequest(order: .title), SavedRequest(order: .release, descending: true), SavedRequest(order: .rating, descending: true),
            SavedRequest(order: .imdb, descending: true), SavedRequest(order: .metascore, descending: true),
            SavedRequest(order: .tomatometer, descending: true), SavedRequest(order: .added),
        ])
        // Without scores, rating goes round to added.
        model = SavedUpdateTests.loaded()
        model.saved.request = SavedRequest(order: .rating, descending: true)
        #expect(AppUpdateTests.type(model, .character("s")).1 == [.saved(.load(SavedRequest(order: .added)))])
        // A list sorted by IMDb whose answer has no scores leaves OMDb's orders.
        model.saved.request = SavedRequest(order: .imdb, descending: true)
        #expect(AppUpdateTests.type(model, .character("s")).0.saved.request == SavedRequest(order: .added))
        // The help says which orders `s` goes through.
        model = Self.savedWithScores()
        model.showsHelp = true
        let help = AppView.draw(model).lines().joined(separator: "\n")
        #expect(help.contains("sort key: added, title, release, rating,") && help.contains("IMDb, Metascore, Tomatometer (OMDb's); reverse"), "\(help)")
    }

    @Test func theFirstLoadSaysHowFarItHasCome() {
        var model = AppUpdateTests.type(AppUpdateTests.started(), .character("4")).0
        #expect(model.saved.inFlight == SavedRequest() && AppView.draw(model).lines()[5] == "    loading…")
        let scores = LoadProgress("OMDb's scores", done: 120, total: 900)
        // Progress of another request, or for another account, is not this list's.
        for ignored in [
            SavedMessage.progress(SavedRequest(order: .imdb, descending: true), scores, account: "ann"), .progress(SavedRequest(), scores, account: "bob"),
        ] {
            #expect(AppUpdate.update(model, .saved(ignored)).0.saved.progress == nil)
        }
        model = AppUpdate.update(model, .saved(.progress(SavedRequest(), LoadProgress("details", done: 3, total: 3), account: "ann"))).0
        model = AppUpdate.update(model, .saved(.progress(SavedRequest(), scores, account: "ann"))).0
        #expect(AppView.draw(model).lines()[5] == "    loading… OMDb's scores 120 of 900")
        model = AppUpdate.update(model, .saved(.loaded(SavedRequest(), rows: [SavedUpdateTests.club], total: 1, language: "en", account: "ann"))).0
        #expect(model.saved.progress == nil && AppView.draw(model).lines()[5].hasPrefix("› ★ Fight Club"))
        // Some fifty messages for a long list, each for a short one, and always the last.
        #expect((1...900).filter { LoadProgress.isWorthTelling(done: $0, total: 900) }.count == 50)
        #expect((1...10).allSatisfy { LoadProgress.isWorthTelling(done: $0, total: 10) })
        #expect(LoadProgress.isWorthTelling(done: 901, total: 901) && !LoadProgress.isWorthTelling(done: 17, total: 901))
    }
}
