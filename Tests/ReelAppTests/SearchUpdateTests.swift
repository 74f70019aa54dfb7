import Reel
import ReelApp
import Testing

/// The Search tab without a terminal: typing goes into the field while it has focus, a search is
/// asked for only once typing pauses (the debounce comes back by generation), an answer to an
/// older query is dropped, the type filter, and opening results.
@Suite struct SearchUpdateTests {
    static func matrix(_ id: Int64 = 603, saved: Bool = false) -> TitleRow {
        TitleRow(key: try! MediaKey(.movie, id), title: "The Matrix", year: 1999, genres: ["Action"], rating: 8.2, saved: saved)
    }

    /// Started, on the Search tab (the field has focus).
    static func onSearch() -> AppModel {
        AppUpdateTests.type(AppUpdateTests.started(), .character("3")).0
    }

    static func typed(_ model: AppModel, _ text: String) -> (AppModel, [AppEffect]) {
        var model = model
        var effects: [AppEffect] = []
        for character in text {
            let (next, more) = AppUpdate.update(model, .key(.character(character)))
            model = next
            effects += more
        }
        return (model, effects)
    }

    @Test func typingWaitsOutTheDebounceAndOnlyTheNewestGenerationSearches() {
        let start = Self.onSearch()
        #expect(start.tab == .search && start.search.editing, "the Search tab opens typing")
        var (model, effects) = Self.typed(start, "matrix")
        let g = start.search.generation
        #expect(model.search.text == "matrix")
        #expect(effects == (1...6).map { AppEffect.search(.debounce(generation: g + $0)) }, "a wait per key, no search yet: \(effects)")
        // The waits of older keys end without a search.
        for older in 1...5 {
            (model, effects) = AppUpdate.update(model, .search(.due(generation: g + older)))
            #expect(effects.isEmpty, "generation \(g + older): \(effects)")
        }
        (model, effects) = AppUpdate.update(model, .search(.due(generation: g + 6)))
        #expect(effects == [.search(.find(text: "matrix", filter: .all, generation: g + 6))])
        #expect(model.search.searching == g + 6)
        // The same wait again (it cannot happen twice, but nothing asks twice if it did).
        #expect(AppUpdate.update(model, .search(.due(generation: g + 6))).1.isEmpty)
    }

    @Test func anAnswerToAnOlderQueryNeverReplacesANewerOne() {
        var (model, _) = Self.typed(Self.onSearch(), "matri")
        let older = model.search.generation
        model = AppUpdate.update(model, .search(.due(generation: older))).0
        // The search for "matri" is under way; "x" is typed before it answers.
        var effects: [AppEffect]
        (model, effects) = Self.typed(model, "x")
        let newer = model.search.generation
        #expect(effects == [.search(.debounce(generation: newer))])
        let stale = [SearchResult.title(TitleRow(key: try! MediaKey(.movie, 1), title: "Matrioshka"))]
        var next = AppUpdate.update(model, .search(.found(generation: older, stale))).0
        #expect(next == model, "the older answer is dropped")
        next = AppUpdate.update(next, .search(.failed(generation: older, message: "TMDb is unavailable"))).0
        #expect(next == model, "an older failure is dropped too")
        (next, effects) = AppUpdate.update(next, .search(.due(generation: newer)))
        #expect(effects == [.search(.find(text: "matrix", filter: .all, generation: newer))])
        next = AppUpdate.update(next, .search(.found(generation: newer, [.title(Self.matrix())]))).0
        #expect(next.search.results == [.title(Self.matrix())] && next.search.resultsText == "matrix")
        // The older answer arriving last changes nothing.
        #expect(AppUpdate.update(next, .search(.found(generation: older, stale))).0 == next)
    }

    @Test func whileTheFieldHasFocusEveryPrintableKeyIsText() {
        let start = Self.onSearch()
        var (model, _) = Self.typed(start, "qj1?G 5")
        #expect(model.search.text == "qj1?G 5")
        #expect(!model.quitting && model.tab == .search && !model.showsHelp && model.search.editing)
        (model, _) = AppUpdateTests.type(model, .backspace, .backspace)
        #expect(model.search.text == "qj1?G")
        (model, _) = AppUpdateTests.type(model, .control("u"))
        #expect(model.search.text == "" && model.search.editing)
        // esc leaves the field; then the keys are the app's again.
        (model, _) = Self.typed(model, "sherlock")
        (model, _) = AppUpdateTests.type(model, .escape)
        #expect(!model.search.editing && model.search.text == "sherlock")
        #expect(AppUpdateTests.type(model, .character("1")).0.tab == .movies)
        #expect(AppUpdateTests.type(model, .character("q")).0.quitting)
        // `/` focuses the field again.
        (model, _) = AppUpdateTests.type(model, .character("/"), .character("1"))
        #expect(model.search.editing && model.search.text == "sherlock1" && model.tab == .search)
        // tab still switches tabs while typing, and ctrl-c still quits.
        #expect(AppUpdateTests.type(model, .tab).0.tab == .saved)
        #expect(AppUpdateTests.type(model, .control("c")).0.quitting)
        // Coming back to the tab focuses the field.
        let back = AppUpdateTests.type(model, .escape, .character("2"), .character("3")).0
        #expect(back.tab == .search && back.search.editing)
    }

    @Test func enterSearchesAtOnceAndMovesToTheResults() {
        var (model, _) = Self.typed(Self.onSearch(), "matrix")
        let g = model.search.generation
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .enter)
        #expect(!model.search.editing && effects == [.search(.find(text: "matrix", filter: .all, generation: g))])
        #expect(AppUpdate.update(model, .search(.due(generation: g))).1.isEmpty, "the wait that ends later asks nothing more")
        model = AppUpdate.update(model, .search(.found(generation: g, [.title(Self.matrix()), .title(Self.matrix(604))]))).0
        (model, _) = AppUpdateTests.type(model, .character("j"))
        #expect(model.search.cursor.position == 1)
        (model, _) = AppUpdateTests.type(model, .up, .up)
        #expect(model.search.editing, "↑ on the first result goes back to the field")
        (model, _) = AppUpdateTests.type(model, .down)
        #expect(!model.search.editing && model.search.text == "matrix")
    }

    @Test func theTypeFilterSwitchesWithArrowsAndSearchesAgain() {
        var (model, _) = Self.typed(Self.onSearch(), "sherlock")
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .right)
        #expect(model.search.filter == .movies && effects == [.search(.debounce(generation: model.search.generation))])
        (model, effects) = AppUpdate.update(model, .search(.due(generation: model.search.generation)))
        #expect(effects == [.search(.find(text: "sherlock", filter: .movies, generation: model.search.generation))])
        (model, _) = AppUpdateTests.type(model, .escape, .right, .right)
        #expect(model.search.filter == .people && !model.search.editing)
        (model, _) = AppUpdateTests.type(model, .right, .left, .left)
        #expect(model.search.filter == .people.previous && SearchFilter.people.kind == .person && SearchFilter.all.kind == .multi)
    }

    @Test func theEmptyFieldShowsTheDefaultPersonAndItsTitlesOpen() throws {
        var (model, effects) = AppUpdateTests.type(AppUpdateTests.started(), .character("3"))
        #expect(effects == [.search(.loadDefaultPerson)] && model.search.defaultPersonLoading)
        #expect(SearchState.defaultPersonID == 71580)
        (model, effects) = AppUpdateTests.type(model, .escape, .character("1"), .character("3"))
        #expect(model.tab == .search && effects.isEmpty, "asked for once: \(effects)")
        let page = PersonPage(
            id: 71580, name: "Benedict Cumberbatch", facts: "known for Acting",
            credits: [.init(row: TitleRow(key: try MediaKey(.tv, 19885), title: "Sherlock", year: 2010), role: "Sherlock Holmes")])
        model = AppUpdate.update(model, .search(.defaultPersonLoaded(page))).0
        #expect(model.search.defaultPerson == page && model.search.showsDefaultPerson)
        (model, effects) = AppUpdateTests.type(model, .down, .enter)
        #expect(effects == [.details(.loadTitle(try MediaKey(.tv, 19885)))] && model.screens.count == 1)
        // A failure goes to the status line; r asks again.
        var failed = AppUpdateTests.type(AppUpdateTests.started(), .character("3")).0
        failed = AppUpdate.update(failed, .search(.defaultPersonFailed("TMDb is unavailable"))).0
        #expect(failed.status.lastError == "TMDb is unavailable")
        (failed, effects) = AppUpdateTests.type(failed, .escape, .character("r"))
        #expect(effects == [.search(.loadDefaultPerson)])
    }

    @Test func aPersonFoundOpensTheirFilmographyAndAFailedSearchRetriesWithR() {
        var (model, _) = Self.typed(Self.onSearch(), "cumberbatch")
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .enter)
        let g = model.search.generation
        model = AppUpdate.update(model, .search(.failed(generation: g, message: "TMDb is unavailable"))).0
        #expect(model.search.error == "TMDb is unavailable" && model.status.lastError == "TMDb is unavailable" && !model.quitting)
        (model, effects) = AppUpdateTests.type(model, .character("r"))
        #expect(effects == [.search(.find(text: "cumberbatch", filter: .all, generation: g))] && model.search.error == nil)
        model = AppUpdate.update(model, .search(.found(generation: g, [.person(.init(id: 71580, name: "Benedict Cumberbatch", department: "Acting"))]))).0
        #expect(model.status.lastError == nil)
        (model, effects) = AppUpdateTests.type(model, .enter)
        #expect(effects == [.details(.loadPerson(id: 71580))])
        guard case .person(let screen)? = model.screens.last else {
            Issue.record("no person screen: \(model.screens)")
            return
        }
        #expect(screen.id == 71580 && screen.name == "Benedict Cumberbatch" && screen.loading)
    }
}

extension SearchUpdateTests {
    /// Search scrolls on through TMDb's pages: the next is asked for once, as the cursor comes
    /// within a screen of the end, and added below; an answer to an older generation is dropped.
    @Test func resultsScrollOnThroughTMDbsPages() {
        var (model, _) = Self.typed(Self.onSearch(), "the")
        let g = model.search.generation
        model = AppUpdate.update(model, .search(.due(generation: g))).0
        // (Forty on the first page: more than a screen of 80×24, so the cursor starts far from the end.)
        let first = (1...40).map { SearchResult.title(Self.matrix(Int64($0))) }
        var effects: [AppEffect]
        (model, effects) = AppUpdate.update(model, .search(.found(generation: g, first, page: 1, totalPages: 2)))
        #expect(effects.isEmpty, "the cursor is at the top: no page yet")
        #expect(AppView.draw(model).lines()[2].contains("40 results for “the” · more below"))
        (model, effects) = AppUpdateTests.type(model, .enter, .character("G"))
        #expect(effects.contains(.search(.find(text: "the", filter: .all, generation: g, page: 2))), "\(effects)")
        #expect(model.search.loadingPage == 2)
        (model, effects) = AppUpdateTests.type(model, .character("k"), .character("G"))
        #expect(!effects.contains { if case .search(.find) = $0 { true } else { false } }, "asked once: \(effects)")
        let second = (41...46).map { SearchResult.title(Self.matrix(Int64($0))) }
        (model, effects) = AppUpdate.update(model, .search(.found(generation: g, second, page: 2, totalPages: 2)))
        #expect(model.search.results.count == 46 && model.search.cursor.position == 39 && model.search.loadingPage == nil)
        (model, effects) = AppUpdateTests.type(model, .character("G"))
        #expect(model.search.cursor.position == 45 && effects.isEmpty, "the last page: nothing more to ask")
        // A page of an older generation is dropped.
        let before = model
        #expect(AppUpdate.update(before, .search(.found(generation: g - 1, second, page: 3, totalPages: 3))).0 == before)
    }
}
