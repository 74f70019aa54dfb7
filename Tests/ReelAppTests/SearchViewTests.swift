import Reel
import ReelApp
import Testing

/// The Search tab and the screens over the tabs as text (`AppView.draw(model).lines()`),
/// without a terminal: TMDb's text made terminal-safe, wide characters in their columns.
@Suite struct SearchViewTests {
    static let blank = Array(repeating: "", count: 17)

    /// The Search tab at 80×24 with "matrix" typed and answered: a saved title, a wide title with
    /// a control sequence, a person (under the cursor).
    static func searched(editing: Bool) -> AppModel {
        var model = AppModel(width: 80, height: 24, account: "ann", catalog: .tmdb)
        model.status.language = "en"
        model.tab = .search
        model.search.text = "matrix"
        model.search.editing = editing
        model.search.generation = 6
        model.search.resultsGeneration = 6
        model.search.resultsText = "matrix"
        model.search.results = [
            .title(SearchUpdateTests.matrix(saved: true)),
            .title(TitleRow(key: try! MediaKey(.tv, 7), title: "マトリックス\u{1B}[2J", year: 2003, genres: ["Animation"], rating: 7.0)),
            .person(.init(id: 9, name: "Matrix Person", department: "Acting")),
        ]
        model.search.cursor = ListCursor(position: 2)
        return model
    }

    @Test func theFieldTheFilterAndTheResultsAt80x24() {
        let screen = AppView.draw(Self.searched(editing: false))
        let expected = [
            " 1 Movies   2 Series   3 Search   4 Saved   5 Settings                   ? help",
            " Search: matrix                                [All]  Movies   Series   People",
            " 3 results for “matrix”",
            "    Title or name                         Kind    Released    Genres     Rating",
            "  ★ The Matrix                            movie   1999        Action        8.2",
            "    マトリックス�[2J                      series  2003        Animation     7.0",
            "›   Matrix Person                         person              Acting",
        ] + Self.blank.dropLast() + [
            " ann · en · TMDb                                                         q quit",
        ]
        #expect(screen.lines() == expected, "\n\(screen.lines().joined(separator: "\n"))")
        #expect(screen.rows[6][10].style.attributes.contains(.reverse), "the person under the cursor is reversed")
        #expect(screen.rows[5][4].text == "マ" && screen.rows[5][5].text == "")
        #expect(screen.rows[1][47].text == "[" && screen.rows[1][48].text == "A" && screen.rows[1][48].style.color == .accent, "the filter chosen")
    }

    @Test func whileTypingTheFieldShowsACursorAndTheResultsNone() {
        let screen = AppView.draw(Self.searched(editing: true))
        let lines = screen.lines()
        #expect(lines[1] == " Search: matrix                                [All]  Movies   Series   People")
        #expect(lines[2] == " 3 results for “matrix” · enter or ↓ to choose")
        #expect(lines[6] == "    Matrix Person                         person              Acting")
        #expect(screen.rows[1][15].style.attributes.contains(.reverse), "the cursor after the text")
        #expect(!screen.rows[6][10].style.attributes.contains(.reverse))
        #expect(lines[23].hasSuffix("esc ends typing"))
        // Typing on: a newer generation than the results says so.
        var model = Self.searched(editing: true)
        model.search.text = "matrix r"
        model.search.generation = 7
        #expect(AppView.draw(model).lines()[2] == " searching…")
        model.search.error = "TMDb is unavailable"
        #expect(AppView.draw(model).lines()[2] == " the search failed (r retries): TMDb is unavailable")
    }

    @Test func theEmptyFieldShowsTheDefaultPersonsFilmography() throws {
        var model = Self.searched(editing: false)
        model.search.text = ""
        #expect(AppView.draw(model).lines()[2] == " Benedict Cumberbatch")
        #expect(AppView.draw(model).lines()[3] == "", "nothing loading yet")
        model.search.defaultPersonLoading = true
        #expect(AppView.draw(model).lines()[3] == "    loading…")
        model.search.defaultPerson = PersonPage(
            id: 71580, name: "Benedict Cumberbatch", facts: "known for Acting · born 1976-07-19 in London",
            credits: [
                .init(row: TitleRow(key: try MediaKey(.tv, 19885), title: "Sherlock", year: 2010, saved: true), role: "Sherlock Holmes (15 episodes)"),
                .init(row: TitleRow(key: try MediaKey(.movie, 205596), title: "The Imitation Game", year: 2014), role: "Alan Turing"),
            ])
        let lines = AppView.draw(model).lines()
        #expect(Array(lines[1...4]) == [
            " Search: / to type                             [All]  Movies   Series   People",
            " Benedict Cumberbatch · known for Acting · born 1976-0…  2 titles, newest first",
            "› ★ Sherlock            series  2010        Sherlock Holmes (15 episod…       –",
            "    The Imitation Game  movie   2014        Alan Turing                       –",
        ], "\n\(lines.joined(separator: "\n"))")
    }

    /// The Matrix's details with every field, saved, a similar title saved too.
    static func matrixDetails() -> DetailsScreen {
        var details = TitleDetails(key: try! MediaKey(.movie, 603), title: "The Matrix")
        details.originalTitle = "The Matrix\u{1B}]0;x\u{07}"
        details.date = "1999-03-30"
        details.year = 1999
        details.runtime = 136
        details.status = "Released"
        details.genres = ["Action", "Science Fiction"]
        details.voteAverage = 8.217
        details.voteCount = 26_281
        details.popularity = 85.31
        details.tagline = "Welcome to the Real World."
        details.overview = """
            Set in the 22nd century, The Matrix tells the story of a computer hacker who joins a group of underground \
            insurgents fighting the vast and powerful computers who now rule the earth.\r\n\r\n新しい段落。
            """
        details.makers = .init(role: "Directed by", names: ["Lana Wachowski", "Lilly Wachowski"])
        details.cast = [.init(id: 6384, name: "Keanu Reeves", character: "Neo"), .init(id: 2975, name: "Laurence Fishburne", character: "Morpheus")]
        details.originalLanguage = "en"
        details.spokenLanguages = ["English"]
        details.companies = ["Warner Bros. Pictures", "Village Roadshow Pictures"]
        details.trailers = [.init(name: "Trailer", url: "https://www.youtube.com/watch?v=vKQi3bBA1y8")]
        details.similar = [TitleRow(key: try! MediaKey(.movie, 604), title: "The Matrix Reloaded", year: 2003, saved: true)]
        details.saved = true
        var screen = DetailsScreen(key: details.key, title: "The Matrix")
        screen.details = details
        screen.loading = false
        return screen
    }

    @Test func detailsAt80x24ShowEveryFieldAndScrollToTheCursor() {
        var model = Self.searched(editing: false)
        var details = Self.matrixDetails()
        model.screens = [.details(details)]
        var lines = AppView.draw(model).lines()
        let top = [
            " 1 Movies   2 Series   3 Search   4 Saved   5 Settings                   ? help",
            " The Matrix (1999)  movie 603                               ★ saved · s removes",
            "› Original title: The Matrix�]0;x�",
            "  released 1999-03-30 · 136 min · Released",
            "  Genres: Action, Science Fiction",
            "  Rating: 8.2/10 from 26,281 votes · popularity 85.3",
            "  “Welcome to the Real World.”",
            "",
            "  Set in the 22nd century, The Matrix tells the story of a computer hacker who",
            "  joins a group of underground insurgents fighting the vast and powerful",
            "  computers who now rule the earth.",
            "",
            "  新しい段落。",
            "",
            "  Directed by: Lana Wachowski, Lilly Wachowski",
            "  Languages: original en; spoken English",
            "  Production: Warner Bros. Pictures, Village Roadshow Pictures",
            "  Trailer: https://www.youtube.com/watch?v=vKQi3bBA1y8 · Trailer",
            "",
            "  Cast (enter opens a person)",
            "    Keanu Reeves as Neo",
            "    Laurence Fishburne as Morpheus",
            "",
            " ann · en · TMDb                                                         q back",
        ]
        #expect(lines == top, "\n\(lines.joined(separator: "\n"))")
        // The cursor on the last line (the similar title): the screen scrolls to show it.
        details.cursor = ListCursor(position: 99)
        model.screens = [.details(details)]
        lines = AppView.draw(model).lines()
        #expect(lines[2] == "  Genres: Action, Science Fiction", "\n\(lines.joined(separator: "\n"))")
        #expect(lines[21] == "  Similar titles (enter opens one)" && lines[22] == "› ★ The Matrix Reloaded (2003)")
        // Saving under way, then not saved.
        details.details?.saved = false
        model.saved.pending = [details.key]
        model.screens = [.details(details)]
        #expect(AppView.draw(model).lines()[1].hasSuffix("removing…"))
        model.saved.pending = []
        model.screens = [.details(details)]
        #expect(AppView.draw(model).lines()[1] == " The Matrix (1999)  movie 603                                           s saves")
    }

    @Test func detailsLoadingAndFailedSayWhatIsGoingOn() {
        var model = Self.searched(editing: false)
        var screen = DetailsScreen(key: try! MediaKey(.movie, 603), title: "The Matrix")
        model.screens = [.details(screen)]
        #expect(Array(AppView.draw(model).lines()[1...2]) == [" The Matrix  movie 603", "    loading…"])
        screen.loading = false
        screen.error = "TMDb is unavailable"
        model.screens = [.details(screen)]
        #expect(AppView.draw(model).lines()[2] == "    the details failed: TMDb is unavailable (r retries)")
        var person = PersonScreen(id: 6384, name: "Keanu Reeves")
        model.screens = [.details(screen), .person(person)]
        #expect(Array(AppView.draw(model).lines()[1...2]) == [" Keanu Reeves", "    loading…"])
        person.loading = false
        person.page = PersonPage(id: 6384, name: "Keanu Reeves", credits: [.init(row: SearchUpdateTests.matrix(saved: true), role: "Neo")])
        model.screens = [.details(screen), .person(person)]
        #expect(Array(AppView.draw(model).lines()[1...2]) == [
            " Keanu Reeves                                             1 title, newest first",
            "› ★ The Matrix                                  movie   1999        Neo     8.2",
        ])
    }

    @Test func theHelpListsTheSearchAndDetailsKeys() {
        var model = Self.searched(editing: false)
        model.showsHelp = true
        let text = AppView.draw(model).lines().joined(separator: "\n")
        for key in ["enter", "/", "enter ↓ esc", "←  →", "all, movies, series, people"] {
            #expect(text.contains(key), "\(key) in\n\(text)")
        }
        // Over details, the details' keys.
        let (details, _) = AppUpdateTests.type(AppUpdateTests.started(), .enter)
        var shown = details
        shown.showsHelp = true
        let over = AppView.draw(shown).lines().joined(separator: "\n")
        for key in ["s space", "save or remove the title", "esc  q", "back from details"] {
            #expect(over.contains(key), "\(key) in\n\(over)")
        }
    }
}
