import Reel
import ReelApp
import Testing

/// What the Movies and Series tabs list, changed by keys: the list (discover, popular, top
/// rated), the sort key and direction, genres (all or any) and a year. Each change starts the
/// list again from page 1, and a page of the query it replaced is dropped when it arrives late.
@Suite struct BrowseUpdateTests {
    typealias Base = AppUpdateTests

    static func page(_ number: Int, of total: Int, query: BrowseQuery) -> TitlePage {
        var page = Base.page(number, of: total)
        page.query = query
        return page
    }

    @Test func lCyclesTheListsAndEachStartsAgainFromPageOne() {
        let model = Base.type(Base.started(), .character("G")).0
        #expect(model.movies.cursor.position == 39 && model.movies.loadingPage == 2)
        var (next, effects) = Base.type(model, .character("l"))
        var popular = BrowseQuery()
        popular.list = .popular
        #expect(next.movies.query == popular && next.movies.rows.isEmpty && next.movies.cursor.position == 0)
        #expect(effects == [.loadPage(.movie, page: 1, query: popular)], "\(effects)")
        // Page 2 of discover, asked for before, arrives now: it is not this list's.
        #expect(AppUpdate.update(next, .pageLoaded(.movie, Base.page(2, of: 2))).0 == next)
        #expect(AppUpdate.update(next, .pageFailed(.movie, page: 1, message: "down")).0.movies.error == nil)
        (next, effects) = Base.type(next, .character("l"))
        #expect(next.movies.query.list == .topRated && effects == [.loadPage(.movie, page: 1, query: next.movies.query)])
        (next, _) = Base.type(next, .character("l"))
        #expect(next.movies.query == BrowseQuery())
        #expect(AppView.draw(Base.type(model, .character("l")).0).lines()[1].hasPrefix(" Popular movies · TMDb's chart"))
    }

    @Test func oCyclesTheSortKeyInItsOwnDirectionAndOFlipsIt() {
        var (next, effects) = Base.type(Base.started(), .character("o"))
        #expect(next.movies.query.order == .release && next.movies.query.descending)
        #expect(effects == [.loadPage(.movie, page: 1, query: next.movies.query)])
        (next, _) = Base.type(next, .character("o"), .character("o"))
        #expect(next.movies.query.order == .title && !next.movies.query.descending, "titles go A to Z unless told")
        #expect(AppView.draw(next).lines()[1].hasPrefix(" Discover movies · by title, ascending"))
        (next, effects) = Base.type(next, .character("O"))
        #expect(next.movies.query.descending && effects.count == 1)
        #expect(AppView.draw(next).lines()[1].hasPrefix(" Discover movies · by title, descending"))
        (next, _) = Base.type(next, .character("o"))
        #expect(next.movies.query.order == .popularity && next.movies.query.descending)
    }

    @Test func theGenrePickerChoosesAllOrAnyAndAppliesOnEnterOnly() {
        let model = Base.started()
        var (next, effects) = Base.type(model, .character("f"))
        let names = Application.englishGenreNames(.movie)
        #expect(next.movies.genrePicker?.names == names && effects.isEmpty)
        // Keys go to the picker: j moves its cursor, not the list's; q closes it, not the app.
        let drama = names.firstIndex(of: "Drama")!, crime = names.firstIndex(of: "Crime")!
        (next, effects) = Base.type(next, .end, .home)
        for _ in 0..<crime { next = Base.type(next, .character("j")).0 }
        (next, _) = Base.type(next, .character(" "))
        for _ in crime..<drama { next = Base.type(next, .down).0 }
        (next, effects) = Base.type(next, .character(" "), .character("a"))
        #expect(next.movies.genrePicker?.chosen == ["Crime", "Drama"] && next.movies.genrePicker?.anyGenre == true && effects.isEmpty)
        #expect(next.movies.cursor.position == 0 && next.movies.rows.count == 40, "the list is untouched while the picker is open")
        let screen = AppView.draw(next).lines().joined(separator: "\n")
        #expect(screen.contains("[x] Crime") && screen.contains("›[x] Drama") && screen.contains("a: titles with any of them"), "\(screen)")
        // esc drops what was chosen.
        #expect(Base.type(next, .escape).0 == model)
        #expect(!Base.type(next, .character("q")).0.quitting)
        (next, effects) = Base.type(next, .enter)
        #expect(next.movies.genrePicker == nil && next.movies.query.genres == ["Crime", "Drama"] && next.movies.query.anyGenre)
        #expect(effects == [.loadPage(.movie, page: 1, query: next.movies.query)])
        #expect(AppView.draw(next).lines()[1].contains("Crime + Drama (any)"))
        // Opened again, it shows what applies; enter without a change asks for nothing.
        (next, effects) = Base.type(next, .character("f"), .enter)
        #expect(effects.isEmpty && next.movies.query.genres == ["Crime", "Drama"])
    }

    @Test func theYearFieldTakesDigitsAndRefusesAYearTMDbCannotHave() {
        var (next, effects) = Base.type(Base.started(), .character("y"), .character("1"), .character("9"), .character("x"), .character("9"), .character("9"))
        #expect(next.movies.yearField?.text == "1999" && effects.isEmpty)
        #expect(AppView.draw(next).lines()[2] == " Year: 1999▏ enter applies (empty: any year) · esc cancels", "nothing of the row below shows")
        (next, effects) = Base.type(next, .character("9"), .enter)
        #expect(next.movies.query.year == 1999 && next.movies.yearField == nil && effects.count == 1)
        (next, effects) = Base.type(next, .character("y"), .backspace, .backspace, .backspace, .backspace, .character("0"), .enter)
        #expect(next.movies.yearField?.text == "0" && effects.isEmpty, "0 is not a year")
        #expect(next.status.note == "0 is not a year TMDb lists (1874 to 2100)")
        (next, effects) = Base.type(next, .backspace, .enter)
        #expect(next.movies.query.year == nil && effects.count == 1, "empty: any year")
    }

    @Test func cClearsFiltersAndChartsTakeNone() {
        var query = BrowseQuery()
        query.genres = ["Drama"]
        query.year = 2001
        var model = Base.started()
        model.movies.restart(query)
        var (next, effects) = Base.type(model, .character("c"))
        #expect(next.movies.query == BrowseQuery() && effects.count == 1)
        (next, effects) = Base.type(next, .character("c"))
        #expect(next.status.note == "no filters to clear" && effects.isEmpty)
        (next, _) = Base.type(next, .character("l"))
        for key in ["o", "O", "f", "y", "c"] {
            let (charted, more) = Base.type(next, .character(Character(key)))
            #expect(charted.movies.query == next.movies.query && more.isEmpty && charted.movies.genrePicker == nil)
            #expect(charted.status.note == "sorting and filters apply to Discover (l switches lists)")
        }
    }

    /// The filters kept for discover are not sent with a chart, which takes none (the core
    /// refuses a chart asked with a year or genres).
    @Test func aChartIsAskedWithoutTheFiltersKeptForDiscover() throws {
        var query = BrowseQuery()
        query.genres = ["Drama"]
        query.year = 2001
        query.list = .popular
        let asked = query.titleListQuery(.movie, page: 2)
        #expect(asked.list == .popular && asked.year == nil && asked.genres.isEmpty && asked.page == 2)
        try asked.check()
        query.list = .discover
        #expect(query.titleListQuery(.movie, page: 1).year == 2001 && query.titleListQuery(.movie, page: 1).genres == ["Drama"])
    }

    /// `/` filters the titles loaded as you type (asking TMDb nothing, and for no further page
    /// while it has text); enter keeps it, esc drops it and the list loads on.
    @Test func slashFiltersTheTitlesLoadedAndPagingWaitsForItToClear() {
        var (model, effects) = Base.type(Base.started(), .character("/"), .character("m"), .character("o"), .character("v"), .character("i"), .character("e"), .character(" "), .character("3"))
        #expect(effects.isEmpty, "filtering asks TMDb nothing")
        #expect(model.movies.rows.map(\.title) == ["Movie 3", "Movie 30", "Movie 31", "Movie 32", "Movie 33", "Movie 34", "Movie 35", "Movie 36", "Movie 37", "Movie 38", "Movie 39"])
        #expect(model.movies.loaded.count == 40 && model.isTyping, "letters are text while typing: q, j, s do not act")
        var lines = AppView.draw(model).lines()
        #expect(lines[1].hasPrefix(" Discover movies · by popularity, descending · / movie 3▏") && lines[1].hasSuffix("11 of 40 loaded"), "\(lines[1])")
        // The arrows still move; enter keeps the filter; G goes to its end and asks for no page.
        (model, _) = Base.type(model, .down, .enter, .character("G"))
        #expect(!model.movies.filtering && model.movies.filter.text == "movie 3" && model.movies.cursor.position == 10)
        #expect(model.movies.loadingPage == nil, "no page is asked for while a filter narrows what is loaded")
        lines = AppView.draw(model).lines()
        #expect(lines[1].contains("· “movie 3”"))
        #expect(lines.contains { $0.contains("the 40 titles loaded, filtered (esc clears the filter;") }, "\(lines)")
        (model, _) = Base.type(model, .backspace, .character("x"))
        #expect(model.movies.filter.text == "movie 3", "after enter the keys are the list's again")
        // Nothing matches: said so.
        (model, _) = Base.type(model, .character("/"), .control("u"), .character("z"), .enter)
        #expect(model.movies.rows.isEmpty && AppView.draw(model).lines().contains { $0.contains("nothing loaded matches “z”") })
        // esc clears it: every title again, and the next page is asked for as the cursor nears the end.
        (model, effects) = Base.type(model, .escape, .character("G"))
        #expect(model.movies.rows.count == 40 && model.movies.filter.text.isEmpty)
        #expect(effects == [.loadPage(.movie, page: 2, query: BrowseQuery())])
        // A page arriving while filtered is filtered too.
        (model, _) = Base.type(model, .character("/"), .character("4"), .character("1"))
        model = AppUpdate.update(model, .pageLoaded(.movie, Base.page(2, of: 2))).0
        #expect(model.movies.rows.map(\.title) == ["Movie 41"] && model.movies.loaded.count == 80)
    }

    @Test func eachTabHasItsOwnQuery() {
        var (next, _) = Base.type(Base.started(), .character("o"), .character("2"))
        #expect(next.series.query == BrowseQuery() && next.movies.query.order == .release)
        (next, _) = Base.type(next, .character("f"))
        #expect(next.series.genrePicker?.names == Application.englishGenreNames(.tv))
    }
}
