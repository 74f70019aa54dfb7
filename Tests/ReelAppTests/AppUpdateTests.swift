import Reel
import ReelApp
import Testing

/// The terminal app's logic without a terminal: what each key and each answer does to the model,
/// and which effects it asks for (`AppUpdate.update`).
@Suite struct AppUpdateTests {
    /// `count` movies named `Movie N`, ids from `first`.
    static func rows(_ count: Int, from first: Int = 1) -> [TitleRow] {
        (first..<first + count).map { n in
            TitleRow(key: try! MediaKey(.movie, Int64(n)), title: "Movie \(n)", year: 2000, genres: ["Drama"], rating: 7.5)
        }
    }

    static func page(_ number: Int, of total: Int, rows: Int = 40) -> TitlePage {
        TitlePage(page: number, rows: Self.rows(rows, from: (number - 1) * rows + 1), totalPages: total, totalResults: total * rows, language: "en")
    }

    /// Started at 80×24 (21 list rows), page 1 of `total` loaded.
    static func started(total: Int = 2, rows: Int = 40) -> AppModel {
        let (model, _) = AppUpdate.start(AppModel(width: 80, height: 24, account: "ann"))
        return AppUpdate.update(model, .pageLoaded(.movie, page(1, of: total, rows: rows))).0
    }

    /// `keys` typed one after another; the model at the end and every effect asked for.
    static func type(_ model: AppModel, _ keys: Key...) -> (AppModel, [AppEffect]) {
        var model = model
        var effects: [AppEffect] = []
        for key in keys {
            let (next, more) = AppUpdate.update(model, .key(key))
            model = next
            effects += more
        }
        return (model, effects)
    }

    /// An error on the status line (a settings change refused, a deletion's handle mistyped)
    /// stays until read: a page another tab loads meanwhile does not clear it; one loaded for
    /// the list shown does (the list it failed for is there now).
    @Test func aPageLoadedInTheBackgroundLeavesTheErrorShown() {
        var (model, _) = AppUpdate.start(AppModel(width: 80, height: 24, account: "ann"))
        model.tab = .settings
        model.status.lastError = "the handle typed does not match 'ann'; nothing deleted"
        let background = AppUpdate.update(model, .pageLoaded(.movie, Self.page(1, of: 2))).0
        #expect(background.status.lastError == "the handle typed does not match 'ann'; nothing deleted")
        model.tab = .movies
        #expect(AppUpdate.update(model, .pageLoaded(.movie, Self.page(1, of: 2))).0.status.lastError == nil)
    }

    @Test func startingAsksForTheStatusAndTheFirstPageOfMovies() {
        let (model, effects) = AppUpdate.start(AppModel(width: 80, height: 24, account: "ann"))
        #expect(effects == [.loadStatus, .saved(.watch), .loadPage(.movie, page: 1)])
        #expect(model.tab == .movies && model.movies.loadingPage == 1)
    }

    @Test func numbersAndTabChooseTabsAndATabLoadsWhatItShowsOnce() {
        let model = Self.started()
        var (next, effects) = Self.type(model, .character("2"))
        #expect(next.tab == .series && effects == [.loadPage(.tv, page: 1)])
        (next, effects) = Self.type(next, .character("1"), .character("2"))
        #expect(next.tab == .series && effects.isEmpty, "series page 1 is loading already: \(effects)")
        (next, effects) = Self.type(next, .tab)
        #expect(next.tab == .search && effects == [.search(.loadDefaultPerson)], "the Search tab shows the default person: \(effects)")
        (next, effects) = Self.type(next, .tab)
        #expect(next.tab == .saved && effects == [.saved(.load(SavedRequest())), .saved(.loadHistory)])
        (next, effects) = Self.type(next, .tab, .tab)
        #expect(next.tab == .movies)
        (next, effects) = Self.type(next, .backTab)
        #expect(next.tab == .settings)
        (next, effects) = Self.type(next, .character("4"))
        #expect(next.tab == .saved && effects.isEmpty, "the saved list is loading already: \(effects)")
    }

    @Test func theCursorMovesWithArrowsAndVimKeys() {
        let model = Self.started()
        #expect(Self.type(model, .character("j"), .character("j"), .down).0.movies.cursor.position == 3)
        #expect(Self.type(model, .character("j"), .character("j"), .character("k")).0.movies.cursor.position == 1)
        #expect(Self.type(model, .character("k"), .up).0.movies.cursor.position == 0, "stays on the first row")
        #expect(Self.type(model, .character("G")).0.movies.cursor.position == 39)
        #expect(Self.type(model, .character("G"), .character("g")).0.movies.cursor.position == 0)
        // ctrl-d and ctrl-u: half a screen (20 rows at 80×24: 10).
        #expect(Self.type(model, .control("d")).0.movies.cursor.position == 10)
        #expect(Self.type(model, .control("d"), .control("d"), .control("u")).0.movies.cursor.position == 10)
        // The list scrolls so the cursor stays on screen.
        let bottom = Self.type(model, .control("d"), .control("d"), .control("d")).0.movies.cursor
        #expect(bottom.position == 30 && bottom.top == 11)
    }

    @Test func theNextPageIsAskedForOnceWhenTheCursorIsWithinAScreenOfTheEnd() {
        var model = Self.started(total: 2)
        // 40 rows, 20 on screen: row 20 leaves 19 below it, less than a screen.
        var (next, effects) = Self.type(
            model, .control("d"), .character("j"), .character("j"), .character("j"), .character("j"), .character("j"), .character("j"), .character("j"),
            .character("j"), .character("j"))
        #expect(next.movies.cursor.position == 19 && effects.isEmpty)
        (next, effects) = Self.type(next, .character("j"))
        #expect(effects == [.loadPage(.movie, page: 2)])
        #expect(next.movies.loadingPage == 2)
        (next, effects) = Self.type(next, .character("j"), .character("G"), .character("g"), .character("G"))
        #expect(effects.isEmpty, "page 2 is loading: asked for once, \(effects)")
        // An answer for another page is not this list's.
        #expect(AppUpdate.update(next, .pageLoaded(.movie, Self.page(3, of: 3))).0 == next)
        // The last page: nothing more is asked for, wherever the cursor goes.
        (model, effects) = AppUpdate.update(next, .pageLoaded(.movie, Self.page(2, of: 2)))
        #expect(model.movies.rows.count == 80 && model.movies.isComplete && effects.isEmpty)
        (next, effects) = Self.type(model, .character("G"), .character("k"), .character("j"))
        #expect(next.movies.cursor.position == 79 && effects.isEmpty, "\(effects)")
    }

    @Test func aShortFirstPageAsksForTheSecondAtOnce() {
        // 20 rows do not fill 21: the next page is asked for as the first arrives.
        let (model, _) = AppUpdate.start(AppModel(width: 80, height: 24, account: "ann"))
        let (next, effects) = AppUpdate.update(model, .pageLoaded(.movie, Self.page(1, of: 5, rows: 20)))
        #expect(effects == [.loadPage(.movie, page: 2)] && next.movies.loadingPage == 2)
    }

    @Test func aFailedPageIsNotAskedForAgainUntilR() {
        let model = Self.type(Self.started(total: 3), .character("G")).0
        #expect(model.movies.loadingPage == 2)
        var (next, effects) = AppUpdate.update(model, .pageFailed(.movie, page: 2, message: "TMDb is unavailable"))
        #expect(next.movies.error == "TMDb is unavailable" && next.status.lastError == "TMDb is unavailable" && effects.isEmpty)
        (next, effects) = Self.type(next, .character("k"), .character("j"))
        #expect(effects.isEmpty, "no retry by itself: \(effects)")
        (next, effects) = Self.type(next, .character("r"))
        #expect(effects == [.loadPage(.movie, page: 2)] && next.movies.error == nil)
        (next, _) = AppUpdate.update(next, .pageLoaded(.movie, Self.page(2, of: 3)))
        #expect(next.status.lastError == nil && next.movies.rows.count == 80)
    }

    @Test func theHelpOpensWithAQuestionMarkAndAnyKeyClosesIt() {
        let model = Self.started()
        var (next, _) = Self.type(model, .character("?"))
        #expect(next.showsHelp)
        (next, _) = Self.type(next, .character("j"))
        #expect(!next.showsHelp && next.movies.cursor.position == 0, "the key closes the help and does nothing else")
        (next, _) = Self.type(next, .character("?"), .character("q"))
        #expect(!next.showsHelp && !next.quitting, "q closes the help first")
        #expect(Self.type(next, .character("?"), .control("c")).0.quitting, "ctrl-c quits even from the help")
    }

    /// Below 80×24 the screen shows only the size it needs: no key acts unseen (a removal, a
    /// details screen), but q and ctrl-c quit.
    @Test func aScreenTooSmallTakesNoKeyButQuitting() {
        let small = AppUpdate.update(Self.started(), .resized(width: 60, height: 20)).0
        for key: Key in [.character("j"), .enter, .character("4"), .character("x"), .character("l"), .character("?"), .tab] {
            let (next, effects) = AppUpdate.update(small, .key(key))
            #expect(next == small && effects.isEmpty, "\(key) acted at 60×20")
        }
        #expect(AppUpdate.update(small, .key(.character("q"))).0.quitting)
        #expect(AppUpdate.update(small, .key(.control("c"))).0.quitting)
    }

    @Test func qCtrlCAndASignalQuit() {
        let model = Self.started()
        #expect(Self.type(model, .character("q")).0.quitting)
        #expect(Self.type(model, .control("c")).0.quitting)
        #expect(AppUpdate.update(model, .interrupted).0.quitting)
        #expect(!Self.type(model, .escape).0.quitting, "esc goes back, and a tab has nowhere to go back to")
    }

    @Test func theSavedListArrivesAndAResizeKeepsTheCursorOnScreen() {
        var model = Self.type(Self.started(), .character("4")).0
        model = AppUpdate.update(model, .saved(.loaded(SavedRequest(), rows: Self.rows(30), total: 30, language: "de", account: "ann"))).0
        #expect(model.saved.loaded && !model.saved.loading && model.status.language == "de")
        model = Self.type(model, .character("G")).0
        // 18 rows of the list at 80×24: the Saved tab has its keys' two lines under its heading,
        // and the header row.
        #expect(model.saved.cursor.position == 29 && model.saved.cursor.top == 12)
        model = AppUpdate.update(model, .resized(width: 100, height: 40)).0
        #expect(model.saved.cursor.position == 29 && model.saved.cursor.top == 0, "all 30 fit in 36 rows")
        let (reloaded, effects) = Self.type(model, .character("r"))
        #expect(effects == [.saved(.load(SavedRequest()))] && reloaded.saved.loading, "the history is loading already: \(effects)")
    }

    @Test func keysDecodeFromCurses() {
        #expect(KeyDecoder.character(4) == .control("d"))
        #expect(KeyDecoder.character(21) == .control("u"))
        #expect(KeyDecoder.character(3) == .control("c"))
        #expect(KeyDecoder.character(9) == .tab)
        #expect(KeyDecoder.character(13) == .enter)
        #expect(KeyDecoder.character(27) == .escape)
        #expect(KeyDecoder.character(UInt32(UInt8(ascii: "G"))) == .character("G"))
        #expect(KeyDecoder.character(0x00E9) == .character("é"))
    }
}
