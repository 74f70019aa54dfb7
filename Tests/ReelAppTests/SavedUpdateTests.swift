import Reel
import ReelApp
import Testing

/// The Saved tab's logic: sort, genre, the filter-as-you-type, `x` and `u` (the inverse change,
/// a new event), the list asked for once at a time, and live changes.
@Suite struct SavedUpdateTests {
    static let matrix = TitleRow(key: try! MediaKey(.movie, 603), title: "The Matrix", year: 1999, genres: ["Action", "Science Fiction"], rating: 8.2, saved: true)
    static let amelie = TitleRow(key: try! MediaKey(.movie, 194), title: "Amélie", year: 2001, genres: ["Comedy", "Romance"], rating: 7.9, saved: true)
    static let club = TitleRow(key: try! MediaKey(.movie, 550), title: "Fight Club", year: 1999, genres: ["Drama"], rating: 8.4, saved: true)
    static let breaking = TitleRow(key: try! MediaKey(.tv, 1396), title: "Breaking Bad", year: 2008, genres: ["Drama", "Crime"], rating: 8.9, saved: true)

    /// History: v1 opened, v2 added 550, v3 added 603, v4 added 194, v5 removed 603, v6 added 1396.
    static let history: [HistoryLine] = [
        line(1, "opened the account 'ann'"), line(2, "added movie 550 Fight Club (1999)"), line(3, "added movie 603 The Matrix (1999)"),
        line(4, "added movie 194 Amélie (2001)"), line(5, "removed movie 603 The Matrix (1999)"), line(6, "added tv 1396 Breaking Bad (2008)"),
    ]

    /// Version `v` at position `10 v`, on 2026-11-2`v` at 07:24 (wall clock).
    static func line(_ v: UInt64, _ summary: String) -> HistoryLine {
        let day = UTCTime.days(year: 2026, month: 11, day: 20 + Int64(v))!
        return HistoryLine(
            version: v, position: 10 * v, wall: (day * 86_400 + 7 * 3_600 + 24 * 60) * 1_000_000, time: "2026-11-2\(v) 07:24", summary: summary)
    }

    /// The Saved tab at 80×24 with the list now (club, amelie, breaking) and the history loaded.
    static func loaded() -> AppModel {
        var model = AppUpdateTests.type(AppUpdateTests.started(), .character("4")).0
        model = AppUpdate.update(model, .saved(.loaded(SavedRequest(), rows: [club, amelie, breaking], total: 3, language: "en", account: "ann"))).0
        model = AppUpdate.update(model, .saved(.historyLoaded(history, account: "ann"))).0
        return model
    }

    /// The saved list as it is now marks ★ on every tab: what `x`, `u` and other processes
    /// changed shows in Movies too, not only on Saved. A list in the past or of one genre does not.
    @Test func theListNowMarksEveryTabsStars() {
        var model = AppUpdateTests.started()
        model.movies.loaded[0].saved = true  // movie 1, saved before: no longer
        let two = AppUpdateTests.rows(2)[1]  // movie 2
        model = AppUpdateTests.type(model, .character("4")).0
        model = AppUpdate.update(model, .saved(.loaded(SavedRequest(), rows: [two, Self.club], total: 2, language: "en", account: "ann"))).0
        #expect(!model.movies.rows[0].saved && model.movies.rows[1].saved && !model.movies.rows[2].saved)
        // One genre's list, or one of the past, says nothing of the others.
        model.saved.inFlight = SavedRequest(genres: ["Drama"])
        model.saved.request = SavedRequest(genres: ["Drama"])
        model = AppUpdate.update(model, .saved(.loaded(SavedRequest(genres: ["Drama"]), rows: [Self.club], total: 1, language: "en", account: "ann"))).0
        #expect(model.movies.rows[1].saved, "movie 2 is still saved")
    }

    /// A change by another process is read even when Saved was never shown, so ★ on Movies
    /// follows it.
    @Test func aChangeElsewhereIsReadForTheStarsEvenWhenSavedWasNeverShown() {
        let model = AppUpdateTests.started()
        #expect(!model.saved.loaded && model.tab == .movies)
        let (next, effects) = AppUpdate.update(model, .saved(.accountChanged(account: "ann")))
        #expect(effects == [.saved(.load(SavedRequest()))], "\(effects)")
        let two = AppUpdateTests.rows(2)[1]
        let read = AppUpdate.update(next, .saved(.loaded(SavedRequest(), rows: [two], total: 1, language: "en", account: "ann"))).0
        #expect(read.movies.rows[1].saved && !read.movies.rows[0].saved)
        // On Settings, the settings are read again.
        let settings = AppUpdateTests.type(read, .character("5")).0
        let (changedThere, more) = AppUpdate.update(AppUpdate.update(settings, .settings(.loaded(SettingsUpdateTests.info, account: "ann"))).0, .saved(.accountChanged(account: "ann")))
        #expect(more.contains(.settings(.load)) && changedThere.settings.loading, "\(more)")
    }

    @Test func sKeysCycleTheOrderAndSFlipsItEachAskingTheCoreOnce() {
        var (model, effects) = AppUpdateTests.type(Self.loaded(), .character("s"))
        #expect(model.saved.request == SavedRequest(order: .title, descending: false))
        #expect(effects == [.saved(.load(SavedRequest(order: .title)))])
        // Asked again while one is answered: once more after it, with the newest request.
        (model, effects) = AppUpdateTests.type(model, .character("s"), .character("S"))
        #expect(effects.isEmpty && model.saved.request == SavedRequest(order: .release, descending: false), "release is newest first by default, S flips it")
        (model, effects) = AppUpdate.update(model, .saved(.loaded(SavedRequest(order: .title), rows: [Self.amelie], total: 3, language: "en", account: "ann")))
        #expect(model.saved.rows.map(\.key.id) == [550, 194, 1396], "an answer to an older request is not shown")
        #expect(effects == [.saved(.load(SavedRequest(order: .release, descending: false)))])
        (model, _) = AppUpdate.update(model, .saved(.loaded(SavedRequest(order: .release), rows: [Self.club, Self.amelie], total: 3, language: "en", account: "ann")))
        #expect(model.saved.rows.map(\.key.id) == [550, 194] && !model.saved.loading)
        #expect(AppView.draw(model).lines()[1].hasPrefix(" Saved · by release, oldest first"))
    }

    @Test func fOpensMoviesGenrePickerOverTheListsGenresAndCClearsThem() {
        var model = Self.loaded()
        #expect(model.saved.genres == ["Comedy", "Crime", "Drama", "Romance"])
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .character("f"))
        #expect(effects.isEmpty && model.saved.genrePicker == GenrePicker(names: ["Comedy", "Crime", "Drama", "Romance"], chosen: [], anyGenre: false))
        #expect(model.keyContext == nil, "the picker takes its own keys: space chooses, s does not sort")
        // Comedy and Drama, any of them: the core is asked once, on enter.
        (model, effects) = AppUpdateTests.type(model, .character(" "), .character("j"), .character("j"), .character(" "), .character("s"), .character("a"))
        #expect(effects.isEmpty && model.saved.request == SavedRequest(), "nothing is asked before enter")
        #expect(model.saved.genrePicker?.chosen == ["Comedy", "Drama"] && model.saved.genrePicker?.anyGenre == true)
        #expect(AppView.draw(model).lines().joined(separator: "\n").contains("[x] Comedy"))
        (model, effects) = AppUpdateTests.type(model, .enter)
        let both = SavedRequest(genres: ["Comedy", "Drama"], anyGenre: true)
        #expect(model.saved.genrePicker == nil && effects == [.saved(.load(both))])
        #expect(both.query.genres == ["Comedy", "Drama"] && both.query.anyGenre, "the core's query takes them all")
        (model, _) = AppUpdate.update(model, .saved(.loaded(both, rows: [Self.amelie], total: 3, language: "en", account: "ann")))
        #expect(model.saved.genres.count == 4, "a filtered answer keeps the whole list's genres")
        #expect(AppView.draw(model).lines()[1].contains("Saved · in the order saved · Comedy + Drama (any)"))
        // Open again: the chosen ones marked; esc changes nothing.
        (model, effects) = AppUpdateTests.type(model, .character("f"), .character(" "), .escape)
        #expect(effects.isEmpty && model.saved.request == both && model.saved.genrePicker == nil)
        (model, effects) = AppUpdateTests.type(model, .character("c"))
        #expect(model.saved.request.genres.isEmpty && effects == [.saved(.load(SavedRequest()))])
        (model, _) = AppUpdateTests.type(model, .character("c"))
        #expect(model.status.note == "no filters to clear")
    }

    @Test func aGenreNothingHasSaysSoAndHowToClearIt() {
        var model = Self.loaded()
        let horror = SavedRequest(genres: ["Comedy", "Crime"])
        model.saved.request = horror
        model.saved.inFlight = horror
        (model, _) = AppUpdate.update(model, .saved(.loaded(horror, rows: [], total: 3, language: "en", account: "ann")))
        #expect(AppView.draw(model).lines().joined(separator: "\n").contains("nothing saved has all of Comedy, Crime (c clears)"))
    }

    @Test func slashFiltersAsYouTypeIgnoringCaseAndAccents() {
        var model = Self.loaded()
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .character("/"), .character("A"), .character("M"), .character("E"))
        #expect(effects.isEmpty, "filtering asks the core nothing")
        #expect(model.saved.shown.map(\.title) == ["Amélie"] && model.saved.typing == .filter)
        (model, _) = AppUpdateTests.type(model, .backspace, .backspace)
        #expect(model.saved.filter.text == "A" && model.saved.shown.map(\.title) == ["Amélie", "Breaking Bad"])
        // q, digits and j are text while typing; enter keeps the filter.
        (model, _) = AppUpdateTests.type(model, .character("q"), .character("1"), .enter)
        #expect(!model.quitting && model.tab == .saved && model.saved.filter.text == "Aq1" && model.saved.typing == nil && model.saved.shown.isEmpty)
        #expect(AppView.draw(model).lines()[5] == "    nothing saved matches “Aq1” (esc clears the filter)", "under the keys' two lines at 80 columns")
        (model, _) = AppUpdateTests.type(model, .escape)
        #expect(model.saved.filter.text.isEmpty && model.saved.shown.count == 3)
        // The key matches too, and esc while typing drops the filter.
        (model, _) = AppUpdateTests.type(model, .character("/"), .character("1"), .character("3"), .character("9"))
        #expect(model.saved.shown.map(\.title) == ["Breaking Bad"])
        (model, _) = AppUpdateTests.type(model, .escape)
        #expect(model.saved.typing == nil && model.saved.shown.count == 3)
    }

    @Test func xRemovesTheTitleUnderTheCursorAndUUndoesItByTheInverseChange() {
        var model = Self.loaded()
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .character("j"), .character("x"))
        let removal = FavoriteChange(.remove, Self.amelie.key, title: "Amélie")
        #expect(effects == [.saved(.change(removal, undoing: false))])
        (model, effects) = AppUpdate.update(model, .saved(.changed(removal, undoing: false, message: "removed movie 194 Amélie (2001)", account: "ann")))
        #expect(model.saved.undo == [removal] && model.status.note == "removed movie 194 Amélie (2001) · u undoes")
        #expect(effects.contains(.saved(.load(SavedRequest()))), "the list is read again: \(effects)")
        // u: the inverse, a new event (an add), and the undo is taken off at once.
        (model, effects) = AppUpdateTests.type(model, .character("u"))
        #expect(effects == [.saved(.change(FavoriteChange(.add, Self.amelie.key, title: "Amélie"), undoing: true))])
        #expect(model.saved.undo.isEmpty)
        (model, effects) = AppUpdateTests.type(model, .character("u"))
        #expect(effects.isEmpty && model.status.note == "nothing left to undo since the app opened")
        // An undo that failed can be asked for again.
        (model, _) = AppUpdate.update(model, .saved(.changeFailed(removal.inverse, undoing: true, message: "TMDb is unavailable")))
        #expect(model.saved.undo == [removal] && model.status.lastError == "TMDb is unavailable")
        // An undone change is not itself undone by the next u.
        (model, _) = AppUpdate.update(model, .saved(.changed(removal.inverse, undoing: true, message: "added movie 194 Amélie (2001)", account: "ann")))
        #expect(model.saved.undo == [removal] && model.status.note == "undo made a new event: added movie 194 Amélie (2001)")
    }

    @Test func aChangeInAnotherProcessReadsTheListAndTheHistoryAgain() {
        var model = Self.loaded()
        var effects: [AppEffect]
        (model, effects) = AppUpdate.update(model, .saved(.accountChanged(account: "ann")))
        #expect(effects == [.saved(.loadHistory), .saved(.load(SavedRequest()))])
        // A burst while those are answered: each once more after, not once per change.
        (model, effects) = AppUpdate.update(model, .saved(.accountChanged(account: "ann")))
        (model, effects) = AppUpdate.update(model, .saved(.accountChanged(account: "ann")))
        #expect(effects.isEmpty && model.saved.stale && model.saved.historyStale)
        (model, effects) = AppUpdate.update(model, .saved(.loaded(SavedRequest(), rows: [Self.club], total: 1, language: "en", account: "ann")))
        #expect(effects == [.saved(.load(SavedRequest()))] && model.saved.rows == [Self.club])
        // Another account's change, or an answer for one switched away from, is not this one's.
        #expect(AppUpdate.update(model, .saved(.accountChanged(account: "bob"))).1.isEmpty)
        #expect(AppUpdate.update(model, .saved(.historyLoaded([], account: "bob"))).0 == model)
    }
}
