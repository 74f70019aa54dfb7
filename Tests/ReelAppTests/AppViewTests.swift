import Reel
import ReelApp
import Testing

/// The terminal app's screens as text (`AppView.draw(model).lines()`), without a terminal.
@Suite struct AppViewTests {
    /// Movies at 80×24: a saved title, a wide (CJK) title, a title with a control sequence and no
    /// votes, at TMDb's last page.
    static func movies() -> AppModel {
        var model = AppModel(width: 80, height: 24, account: "ann", catalog: .tmdb)
        model.status.language = "en"
        model.movies.loaded = [
            TitleRow(key: try! MediaKey(.movie, 550), title: "Fight Club", year: 1999, genres: ["Drama", "Thriller"], rating: 8.438, saved: true),
            TitleRow(key: try! MediaKey(.movie, 129), title: "千と千尋の神隠し", year: 2001, genres: ["Animation", "Family", "Fantasy"], rating: 8.5),
            TitleRow(key: try! MediaKey(.movie, 1), title: "Bad\u{1B}]0;pwned\u{07}Title", year: nil, genres: [], rating: nil),
        ]
        model.movies.pagesLoaded = 1
        model.movies.totalPages = 1
        model.movies.totalResults = 3
        model.movies.cursor = ListCursor(position: 1)
        return model
    }

    @Test func moviesAt80x24() {
        let lines = AppView.draw(Self.movies()).lines()
        let expected = [
            " 1 Movies   2 Series   3 Search   4 Saved   5 Settings                   ? help",
            " Discover movies · by popularity, descending                      3 of 3 titles",
            "    Title                        Released    Genres                      Rating",
            "  ★ Fight Club                   1999        Drama, Thriller                8.4",
            "›   千と千尋の神隠し             2001        Animation, Family, Fantasy     8.5",
            "    Bad�]0;pwned�Title                                                        –",
            "    end of the list: TMDb's last page",
        ] + Array(repeating: "", count: 16) + [
            " ann · en · TMDb                                                         q quit",
        ]
        #expect(lines == expected, "\n\(lines.joined(separator: "\n"))")
    }

    @Test func theCursorRowIsReversedAndTheStarColoured() {
        let screen = AppView.draw(Self.movies())
        #expect(screen.rows[4][10].style.attributes.contains(.reverse) && screen.rows[4][10].style.attributes.contains(.bold))
        #expect(!screen.rows[3][10].style.attributes.contains(.reverse))
        #expect(screen.rows[3][2].text == "★" && screen.rows[3][2].style.color == .saved)
        // A wide character takes its cell and the next, which holds no text.
        #expect(screen.rows[4][4].text == "千" && screen.rows[4][5].text == "")
        // The rating coloured by score (8.4: good); nothing but reverse under the cursor changes it.
        #expect(screen.rows[3][78].text == "4" && screen.rows[3][78].style.color == .good)
        #expect(screen.rows[4][78].style.color == .good && screen.rows[4][78].style.attributes.contains(.reverse))
    }

    @Test func theHelpListsEveryKey() {
        var model = Self.movies()
        model.showsHelp = true
        let text = AppView.draw(model).lines().joined(separator: "\n")
        for key in ["1  2  3  4  5", "tab  shift-tab", "j ↓  k ↑", "g home  G end", "ctrl-d  ctrl-u", "pgdn  pgup", "o  O", "f  y  c", "?", "q", "ctrl-c", "quit, always"] {
            #expect(text.contains(key), "\(key) in\n\(text)")
        }
    }

    @Test func aScreenTooSmallSaysTheSizeItNeeds() {
        var model = Self.movies()
        model.width = 60
        model.height = 20
        let lines = AppView.draw(model).lines()
        #expect(lines.count == 20)
        #expect(lines[9] == "          Reel needs a terminal of at least 80×24;")
        #expect(lines[10] == "                     this one is 60×20.")
        #expect(lines.enumerated().allSatisfy { $0.offset == 9 || $0.offset == 10 || $0.element.isEmpty })
    }

    @Test func aPageLoadingAndAPageThatFailedShowBelowTheList() {
        var model = Self.movies()
        model.movies.totalPages = 4
        model.movies.loadingPage = 2
        #expect(AppView.draw(model).lines()[6] == "    loading page 2…")
        model.movies.loadingPage = nil
        model.movies.error = "TMDb is unavailable"
        #expect(AppView.draw(model).lines()[6] == "    page 2 failed: TMDb is unavailable (r retries)")
    }

    /// A message wrapped over the lines it may take: broken at spaces, `(r retries)` kept whole,
    /// the last line cut at a word with `…` when it needs more, never mid-word.
    @Test func aWrappedMessageIsNeverCutMidWordAndKeepsItsKeyWhole() {
        var screen = ScreenBuffer(width: 30, height: 6)
        let text = "page 2 failed: Couldn't reach TMDb: it answered 503 \(ScreenBuffer.retries)"
        #expect(screen.writeWrapped(text, row: 1, column: 2, limit: 26) == 3)
        #expect(Array(screen.lines()[1...3]) == ["  page 2 failed: Couldn't", "  reach TMDb: it answered", "  503 (r retries)"])
        var short = ScreenBuffer(width: 30, height: 6)
        #expect(short.writeWrapped(text, row: 0, column: 0, limit: 26, lines: 2) == 2)
        #expect(Array(short.lines()[0...1]) == ["page 2 failed: Couldn't", "reach TMDb: it answered…"])
    }
}
