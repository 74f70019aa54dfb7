import Reel
import ReelApp
import Testing

/// The screens over the tabs without a terminal: `enter` opens a title's details from a list,
/// the back stack, opening the cast and similar titles, and saving: the effect asks the
/// application core, and ★ flips only when its answer comes back.
@Suite struct DetailsUpdateTests {
    static let key = try! MediaKey(.movie, 2)

    /// Movie 2's details: one of the cast, one similar title. Its lines: rating (0), blank (1),
    /// blank (2), `Cast` (3), Keanu Reeves (4), blank (5), `Similar titles` (6), the similar one (7).
    static func details(saved: Bool = false) -> TitleDetails {
        var details = TitleDetails(key: key, title: "Movie 2")
        details.voteAverage = 7.5
        details.voteCount = 1200
        details.cast = [.init(id: 6384, name: "Keanu Reeves", character: "Neo")]
        details.similar = [TitleRow(key: try! MediaKey(.movie, 604), title: "The Matrix Reloaded", year: 2003)]
        details.saved = saved
        return details
    }

    /// Movies loaded, the cursor on movie 2, its details open and loaded.
    static func opened(saved: Bool = false) -> AppModel {
        var (model, effects) = AppUpdateTests.type(AppUpdateTests.started(), .character("j"), .enter)
        #expect(effects == [.details(.loadTitle(key))])
        model = AppUpdate.update(model, .details(.titleLoaded(details(saved: saved)))).0
        return model
    }

    static func top(_ model: AppModel) -> DetailsScreen? {
        if case .details(let screen)? = model.screens.last { screen } else { nil }
    }

    @Test func enterOpensDetailsAndEscOrQGoBackToTheList() {
        var model = Self.opened()
        #expect(Self.top(model)?.details == Self.details() && Self.top(model)?.loading == false)
        (model, _) = AppUpdateTests.type(model, .escape)
        #expect(model.screens.isEmpty && model.tab == .movies && model.movies.cursor.position == 1)
        model = Self.opened()
        (model, _) = AppUpdateTests.type(model, .character("q"))
        #expect(model.screens.isEmpty && !model.quitting, "q on a screen goes back")
        #expect(AppUpdateTests.type(model, .character("q")).0.quitting, "q on a tab quits")
    }

    @Test func theBackStackOpensCastAndSimilarTitlesAndReturnsThroughThem() throws {
        var (model, effects) = AppUpdateTests.type(Self.opened(), .character("G"), .enter)
        let reloaded = try MediaKey(.movie, 604)
        #expect(effects == [.details(.loadTitle(reloaded))] && model.screens.count == 2)
        #expect(Self.top(model)?.title == "The Matrix Reloaded" && Self.top(model)?.loading == true)
        // An answer for another title does not land on this one.
        #expect(AppUpdate.update(model, .details(.titleLoaded(Self.details()))).0.screens.last == model.screens.last)
        (model, _) = AppUpdateTests.type(model, .escape)
        #expect(model.screens.count == 1 && Self.top(model)?.cursor.position == 7, "back where it was")
        // From the top, j goes to the first line that acts: Keanu Reeves (line 4), past the plain ones.
        (model, effects) = AppUpdateTests.type(model, .character("g"), .character("j"), .enter)
        #expect(effects == [.details(.loadPerson(id: 6384))])
        guard case .person(let person)? = model.screens.last else {
            Issue.record("no person: \(model.screens)")
            return
        }
        #expect(person.name == "Keanu Reeves" && person.loading)
        let page = PersonPage(id: 6384, name: "Keanu Reeves", credits: [.init(row: SearchUpdateTests.matrix(), role: "Neo")])
        model = AppUpdate.update(model, .details(.personLoaded(page))).0
        (model, effects) = AppUpdateTests.type(model, .enter)
        #expect(effects == [.details(.loadTitle(try MediaKey(.movie, 603)))] && model.screens.count == 3)
        (model, _) = AppUpdateTests.type(model, .escape, .escape, .escape)
        #expect(model.screens.isEmpty && model.tab == .movies)
        // A line that links nowhere opens nothing.
        #expect(AppUpdateTests.type(Self.opened(), .enter).1.isEmpty)
    }

    @Test func savingFlipsTheStarAtOnceAsksTheCoreAndAFailurePutsItBack() {
        let save = FavoriteChange(.add, Self.key, title: "Movie 2"), remove = FavoriteChange(.remove, Self.key, title: "Movie 2")
        var (model, effects) = AppUpdateTests.type(Self.opened(), .character("s"))
        #expect(effects == [.saved(.change(save, undoing: false))])
        #expect(Self.top(model)?.saved == true && model.saved.pending == [Self.key], "★ at once, the event under way")
        #expect(model.movies.rows[1].saved && !model.movies.rows[0].saved, "★ on the list too")
        (model, effects) = AppUpdateTests.type(model, .character("s"), .character(" "))
        #expect(effects.isEmpty, "one change of a title at a time: \(effects)")
        #expect(model.status.note == "Movie 2: the last change is still being written")
        (model, effects) = AppUpdate.update(model, .saved(.changed(save, undoing: false, message: "saved movie 2 Movie 2 (2000)", account: "ann")))
        #expect(Self.top(model)?.saved == true && model.saved.pending.isEmpty)
        #expect(model.status.note == "saved movie 2 Movie 2 (2000) · u undoes")
        #expect(model.saved.undo == [save])
        // Space removes it, the same way; a failure puts ★ back and says why.
        (model, effects) = AppUpdateTests.type(model, .character(" "))
        #expect(effects == [.saved(.change(remove, undoing: false))] && Self.top(model)?.saved == false)
        (model, _) = AppUpdate.update(model, .saved(.changeFailed(remove, undoing: false, message: "the ledger is busy")))
        #expect(Self.top(model)?.saved == true && model.movies.rows[1].saved && model.saved.pending.isEmpty)
        #expect(model.status.lastError == "the ledger is busy")
        // u takes the save back, from the details screen too.
        (model, effects) = AppUpdateTests.type(model, .character("u"))
        #expect(effects == [.saved(.change(remove, undoing: true))])
        // Nothing to save before the details say whether it is saved.
        let loading = AppUpdateTests.type(AppUpdateTests.started(), .enter)
        #expect(AppUpdateTests.type(loading.0, .character("s")).1.isEmpty)
    }

    @Test func onASimilarTitleSSavesThatTitle() {
        var model = Self.opened()
        model = AppUpdateTests.type(model, .character("G")).0  // the last line: the similar title
        let similar = Self.details().similar[0]
        let (next, effects) = AppUpdateTests.type(model, .character("s"))
        #expect(effects == [.saved(.change(FavoriteChange(.add, similar.key, title: similar.title), undoing: false))])
        #expect(Self.top(next)?.details?.similar[0].saved == true && Self.top(next)?.saved == false)
    }

    @Test func aSaveMarksTheSavedListForReloading() {
        var model = AppUpdateTests.type(AppUpdateTests.started(), .character("4")).0
        let request = model.saved.request
        model = AppUpdate.update(model, .saved(.loaded(request, rows: AppUpdateTests.rows(2), total: 2, language: "en", account: "ann"))).0
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .enter)
        #expect(effects == [.details(.loadTitle(try! MediaKey(.movie, 1)))])
        model = AppUpdate.update(model, .details(.titleLoaded(TitleDetails(key: try! MediaKey(.movie, 1), title: "Movie 1")))).0
        let removal = FavoriteChange(.remove, try! MediaKey(.movie, 1), title: "Movie 1")
        (model, effects) = AppUpdate.update(model, .saved(.changed(removal, undoing: false, message: "removed", account: "ann")))
        #expect(effects == [.saved(.load(request))], "the Saved tab under the screen loads again")
        #expect(model.saved.undo.last == FavoriteChange(.remove, try! MediaKey(.movie, 1), title: "Movie 1"), "u takes it back")
    }

    @Test func failedDetailsRetryWithRAndATabSwitchClosesTheScreens() {
        var (model, _) = AppUpdateTests.type(AppUpdateTests.started(), .enter)
        model = AppUpdate.update(model, .details(.titleFailed(try! MediaKey(.movie, 1), message: "TMDb is unavailable"))).0
        #expect(model.status.lastError == "TMDb is unavailable")
        guard case .details(let screen)? = model.screens.last else { return }
        #expect(screen.error == "TMDb is unavailable" && !screen.loading)
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .character("r"))
        #expect(effects == [.details(.loadTitle(try! MediaKey(.movie, 1)))])
        (model, _) = AppUpdateTests.type(model, .character("2"))
        #expect(model.screens.isEmpty && model.tab == .series)
    }

    /// Down and up go from one line that acts (a trailer, the poster's link, one of the cast, a
    /// similar title) to the next, and up from the first back to the top; `enter` on a trailer
    /// asks for it to be opened in a browser.
    @Test func theCursorGoesBetweenLinesThatActAndEnterOnATrailerOpensIt() throws {
        var model = AppUpdateTests.started()
        model.screens = [.details(SearchViewTests.matrixDetails())]
        func line(_ model: AppModel) -> String {
            guard case .details(let screen)? = model.screens.last else { return "" }
            return AppView.draw(model).lines()[2 + screen.cursor.position - screen.cursor.scrolled(count: 99, visible: model.visibleRows).top]
        }
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .character("j"))
        #expect(line(model).hasPrefix("› Trailer: https://www.youtube.com/watch?v=vKQi3bBA1y8"), "\(line(model))")
        (model, effects) = AppUpdateTests.type(model, .enter)
        #expect(effects == [.details(.openLink("https://www.youtube.com/watch?v=vKQi3bBA1y8"))])
        model = AppUpdate.update(model, .details(.linkOpened("https://www.youtube.com/watch?v=vKQi3bBA1y8", browser: "firefox"))).0
        #expect(model.status.note == "opened in firefox: https://www.youtube.com/watch?v=vKQi3bBA1y8")
        model = AppUpdate.update(model, .details(.linkNotOpened("https://www.youtube.com/watch?v=vKQi3bBA1y8", why: "no browser here"))).0
        #expect(model.status.note == "the link: https://www.youtube.com/watch?v=vKQi3bBA1y8 (no browser here)")
        (model, _) = AppUpdateTests.type(model, .down)
        #expect(line(model).hasPrefix("›   Keanu Reeves as Neo"), "the next line that acts: \(line(model))")
        (model, _) = AppUpdateTests.type(model, .up, .character("k"))
        guard case .details(let screen)? = model.screens.last else { return }
        #expect(screen.cursor.position == 0, "up from the first goes to the top")
    }
}
