import Reel
import ReelApp
import Testing

/// The Settings tab: its rows and fields, the language and account pickers, and the delete
/// confirmation, which takes the handle typed again.
@Suite struct SettingsUpdateTests {
    static let info = SettingsInfo(
        name: "Ann", photo: nil, language: "en", languageName: "English",
        languages: [PickerItem("de", "de  German"), PickerItem("en", "en  English"), PickerItem("fr", "fr  French")],
        accounts: ["ann", "bob"],
        about: [PickerItem("data directory", "/data"), PickerItem("ledger", "/data/ledger"), PickerItem("account keys", "/data/keys")])

    /// The Settings tab at 80×24, its settings loaded.
    static func loaded() -> AppModel {
        var (model, effects) = AppUpdateTests.type(AppUpdateTests.started(), .character("5"))
        #expect(effects == [.settings(.load)])
        model = AppUpdate.update(model, .settings(.loaded(info, account: "ann"))).0
        return model
    }

    static func typing(_ model: AppModel, _ text: String) -> AppModel {
        text.reduce(model) { model, c in AppUpdateTests.type(model, .character(c)).0 }
    }

    @Test func theNameIsEditedInAFieldThatTakesEveryCharacter() {
        var model = AppUpdateTests.type(Self.loaded(), .enter).0
        #expect(model.settings.editing == .name(TextField("Ann", limit: 1_000)))
        model = AppUpdateTests.type(model, .backspace, .backspace, .backspace).0
        model = Self.typing(model, "q5 Müller")
        #expect(!model.quitting && model.tab == .settings)
        #expect(AppView.draw(model).lines()[3] == "› Name        q5 Müller▏")
        var (next, effects) = AppUpdateTests.type(model, .enter)
        #expect(effects == [.settings(.rename("q5 Müller"))] && next.settings.editing == nil && next.settings.pending == "saving the name…")
        // A change that failed leaves the settings shown; the next one that works reads them again.
        (next, effects) = AppUpdate.update(next, .settings(.failed("the ledger is read-only")))
        #expect(next.settings.info == Self.info && next.settings.pending == nil && next.status.lastError == "the ledger is read-only")
        (next, effects) = AppUpdate.update(next, .settings(.changed("name changed to \"q5 Müller\"", account: "ann")))
        #expect(effects == [.settings(.load)] && next.status.note == "name changed to \"q5 Müller\"")
        // An empty name is refused here, with the domain's reason.
        let empty = AppUpdateTests.type(AppUpdateTests.type(Self.loaded(), .enter, .control("u")).0, .enter)
        #expect(empty.1.isEmpty && empty.0.status.lastError != nil)
    }

    @Test func thePhotoPathAndAnEmptyOneToRemoveIt() {
        var model = AppUpdateTests.type(Self.loaded(), .character("j"), .enter).0
        model = Self.typing(model, "/tmp/me.png")
        #expect(AppUpdateTests.type(model, .enter).1 == [.settings(.photo(path: "/tmp/me.png"))])
        let empty = AppUpdateTests.type(Self.loaded(), .character("j"), .enter, .enter)
        #expect(empty.1 == [.settings(.photo(path: nil))])
    }

    @Test func theLanguagePickerNarrowsAsYouTypeAndASwitchReadsEveryListAgain() {
        var model = AppUpdateTests.type(Self.loaded(), .character("j"), .character("j"), .enter).0
        #expect(model.settings.picker?.current == PickerItem("en", "en  English"), "the cursor on the language now")
        model = Self.typing(model, "germ")
        #expect(model.settings.picker?.shown == [PickerItem("de", "de  German")])
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .enter)
        #expect(effects == [.settings(.language("de"))] && model.settings.picker == nil)
        // The switch: every list is read again in German, each when it shows; sort is kept.
        model.saved.request.order = .title
        model.movies.query.order = .rating
        model.search.text = "matrix"
        model.search.results = [SearchResult.title(AppUpdateTests.rows(1)[0])]
        let generation = model.search.generation
        (model, effects) = AppUpdate.update(model, .settings(.languageSwitched("de", message: "language set to de (German)", account: "ann")))
        #expect(model.status.language == "de" && model.movies.rows.isEmpty && model.movies.pagesLoaded == 0 && !model.saved.loaded)
        #expect(model.saved.request == SavedRequest(order: .title))
        // The search is asked again (after the pause typing has), its text kept; browse sorts kept.
        #expect(model.search.results.isEmpty && model.search.text == "matrix" && model.search.generation == generation + 1)
        #expect(effects == [.search(.debounce(generation: generation + 1)), .settings(.load)], "\(effects)")
        var sorted = BrowseQuery()
        sorted.order = .rating
        (model, effects) = AppUpdateTests.type(model, .character("1"))
        #expect(effects == [.loadPage(.movie, page: 1, query: sorted)])
    }

    /// A tag with a region typed whole is offered first (the list has languages only); the note
    /// in a label is not matched.
    @Test func theLanguagePickerTakesATagWithItsRegion() {
        var picker = Picker(
            .language, items: [PickerItem("de", "German (the sample catalog shows English)"), PickerItem("en", "English")], selected: "en", visible: 10)
        picker.narrow(to: TextField("de-DE", limit: 40), visible: 10)
        #expect(picker.shown.first == PickerItem("de-DE", "use de-DE: a language with its region") && picker.current?.value == "de-DE")
        picker.narrow(to: TextField("engl", limit: 40), visible: 10)
        #expect(picker.shown.map(\.value) == ["en"], "the note's 'English' is not a match for German")
        picker.narrow(to: TextField("de", limit: 40), visible: 10)
        #expect(picker.shown.map(\.value) == ["de"])
    }

    @Test func theAccountSwitcherListsHandlesAndANewOne() {
        var model = AppUpdateTests.type(Self.loaded(), .character("j"), .character("j"), .character("j"), .enter).0
        #expect(model.settings.picker?.shown.map(\.value) == ["ann", "bob", ""])
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .down, .enter)
        #expect(effects == [.settings(.switchAccount("bob"))])
        (model, effects) = AppUpdate.update(model, .settings(.switched(account: "bob")))
        #expect(model.status.account == "bob" && model.saved == SavedList() && effects == [.loadStatus, .saved(.watch), .settings(.load)])
        // A new one: its handle typed.
        model = AppUpdateTests.type(Self.loaded(), .character("j"), .character("j"), .character("j"), .enter, .end, .enter).0
        #expect(model.settings.editing == .newAccount(TextField(limit: 64)))
        (model, effects) = AppUpdateTests.type(Self.typing(model, "carol"), .enter)
        #expect(effects == [.settings(.switchAccount("carol"))])
        // Or typed into the picker: no handle matches, `a new account…` stays, enter opens it.
        model = AppUpdateTests.type(Self.loaded(), .character("j"), .character("j"), .character("j"), .enter).0
        model = Self.typing(model, "dave")
        #expect(model.settings.picker?.shown.map(\.value) == [""])
        (model, effects) = AppUpdateTests.type(model, .enter)
        #expect(effects == [.settings(.switchAccount("dave"))] && model.settings.picker == nil)
        // A handle that cannot be one says why, and opens nothing.
        model = AppUpdateTests.type(Self.loaded(), .character("j"), .character("j"), .character("j"), .enter).0
        (model, effects) = AppUpdateTests.type(Self.typing(model, "Dave!"), .enter)
        #expect(effects.isEmpty && model.status.lastError?.contains("handle") == true, "\(model.status.lastError ?? "")")
    }

    @Test func deletingAsksForTheHandleTypedAgainThenShowsWhatWasDestroyed() {
        var model = AppUpdateTests.type(Self.loaded(), .character("G"), .character("j"), .character("j"), .character("j"), .character("j"), .enter).0
        #expect(model.settings.row == .delete && model.settings.editing == .confirmDelete(TextField(limit: 64)))
        var lines = AppView.draw(model).lines()
        #expect(lines[9] == "  This deletes the account 'ann' for good: its saved list, settings and")
        #expect(lines[10] == "  history become unreadable. Type the handle, then enter (esc cancels).")
        // A wrong handle deletes nothing.
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(Self.typing(model, "bob"), .enter)
        #expect(effects.isEmpty && model.status.lastError == "the handle typed does not match 'ann'; nothing deleted")
        // esc cancels.
        (model, effects) = AppUpdateTests.type(model, .enter, .character("a"), .escape)
        #expect(effects.isEmpty && model.settings.editing == nil && model.status.note == "cancelled; nothing deleted")
        // The handle: deleted; what was destroyed is shown.
        (model, effects) = AppUpdateTests.type(Self.typing(AppUpdateTests.type(model, .enter).0, "ann"), .enter)
        #expect(effects == [.settings(.deleteAccount("ann"))] && model.settings.pending == "deleting the account 'ann'…")
        let destroyed = ["deleted the account 'ann' for good", "7 events stay in the ledger (stream s), their payloads unreadable: the key is destroyed"]
        (model, effects) = AppUpdate.update(model, .settings(.deleted(destroyed, account: "ann")))
        #expect(effects == [.loadStatus, .saved(.watch), .settings(.load)] && model.saved == SavedList())
        model = AppUpdate.update(model, .settings(.loaded(Self.info, account: "ann"))).0
        lines = AppView.draw(model).lines()
        #expect(lines[12] == "  deleted the account 'ann' for good" && lines[13].hasPrefix("  7 events stay in the ledger"), "\(lines)")
        #expect(AppUpdateTests.type(model, .escape).0.settings.deleted == nil)
    }

    /// A setting with a region (`en-US`, the default) opens the picker on its language, not on
    /// the list's first (`aa Afar`).
    @Test func theLanguagePickerOpensOnTheLanguageOfATagWithARegion() {
        var model = Self.loaded()
        model.settings.info?.language = "fr-CA"
        model = AppUpdateTests.type(model, .character("j"), .character("j"), .enter).0
        #expect(model.settings.picker?.current == PickerItem("fr", "fr  French"))
    }
}
