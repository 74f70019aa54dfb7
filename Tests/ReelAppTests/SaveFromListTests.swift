import Reel
import Testing

@testable import ReelApp

/// Saving and removing from every list of titles (`SaveToggle`): `s` or space on a row of
/// Movies, Series, Search's results and its default person, a person's filmography; ★ flips at
/// once, the one effect is the Saved tab's change, and `u` takes it back from any tab.
@Suite struct SaveFromListTests {
    static func add(_ id: Int64, _ title: String) -> AppEffect {
        .saved(.change(FavoriteChange(.add, try! MediaKey(.movie, id), title: title), undoing: false))
    }

    @Test func sOrSpaceOnAMoviesRowSavesItAndUUndoesIt() {
        var (model, effects) = AppUpdateTests.type(AppUpdateTests.started(), .character("j"), .character("s"))
        #expect(effects == [Self.add(2, "Movie 2")])
        #expect(model.movies.rows[1].saved && !model.movies.rows[0].saved, "★ flips at once")
        #expect(model.saved.pending == [try! MediaKey(.movie, 2)])
        let change = FavoriteChange(.add, try! MediaKey(.movie, 2), title: "Movie 2")
        (model, effects) = AppUpdate.update(model, .saved(.changed(change, undoing: false, message: "saved movie 2 Movie 2 (2000)", account: "ann")))
        #expect(model.status.note == "saved movie 2 Movie 2 (2000) · u undoes" && model.saved.pending.isEmpty)
        #expect(effects.contains(.saved(.load(model.saved.request))), "the saved list is read again, and ★ everywhere with it")
        // Space on the same row removes it; u on Movies takes the last change back.
        (model, effects) = AppUpdateTests.type(model, .character(" "))
        #expect(effects == [.saved(.change(change.inverse, undoing: false))] && !model.movies.rows[1].saved)
        (model, effects) = AppUpdateTests.type(model, .character("u"))
        #expect(effects == [.saved(.change(change.inverse, undoing: true))], "the removal never came back: u takes back the save")
    }

    @Test func aSearchResultAndAPersonsFilmographySaveAsTheListsDo() {
        var model = SearchUpdateTests.onSearch()
        model.search.editing = false
        model.search.text = "matrix"
        model.search.results = [.person(.init(id: 6384, name: "Keanu Reeves")), .title(SearchUpdateTests.matrix())]
        model.search.resultsText = "matrix"
        // On a person, s says where it works; on the title, it saves.
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .character("s"))
        #expect(effects.isEmpty && model.status.note == "s saves the title under the cursor: move onto a title first")
        (model, effects) = AppUpdateTests.type(model, .down, .character("s"))
        #expect(effects == [Self.add(603, "The Matrix")])
        guard case .title(let row) = model.search.results[1] else { Issue.record("not a title"); return }
        #expect(row.saved)
        // A person's filmography, opened over the tab.
        let page = PersonPage(id: 6384, name: "Keanu Reeves", credits: [.init(row: SearchUpdateTests.matrix(604), role: "Neo")])
        model.screens = [.person(PersonScreen(id: 6384, name: "Keanu Reeves"))]
        model = AppUpdate.update(model, .details(.personLoaded(page))).0
        (model, effects) = AppUpdateTests.type(model, .character(" "))
        #expect(effects == [Self.add(604, "The Matrix")])
    }

    @Test func whileTheSearchFieldHasFocusSAndSpaceAreText() {
        let (model, effects) = AppUpdateTests.type(SearchUpdateTests.onSearch(), .character("s"), .character(" "))
        #expect(model.search.text == "s " && !effects.contains { if case .saved = $0 { true } else { false } })
    }

    @Test func onSavedSSortsAndOnSettingsItSavesNothing() {
        var (model, effects) = AppUpdateTests.type(AppUpdateTests.started(), .character("4"), .character("s"))
        #expect(!effects.contains { if case .saved(.change) = $0 { true } else { false } }, "s sorts Saved: \(effects)")
        (model, effects) = AppUpdateTests.type(model, .character("5"), .character("s"))
        #expect(!effects.contains { if case .saved(.change) = $0 { true } else { false } })
    }

    @Test func keysTomlMayMoveSaveOffSAndBothKeysWorkWhereItWorks() throws {
        let keys = try KeyBindings([.init(action: .toggleSaved, keys: [.character("w")], line: 3)])
        for context in [KeyAction.Context.browse, .search, .details] {
            #expect(keys.translate(.character("w"), context: context) == .character("s"), "\(context)")
            #expect(keys.translate(.character("s"), context: context) == nil, "s no longer saves on \(context)")
        }
        #expect(keys.translate(.character("s"), context: .saved) == .character("s"), "s still sorts Saved")
        #expect(keys.translate(.character("w"), context: .saved) == .character("w"))
        // A key that sorts Movies cannot also save there.
        #expect(throws: KeyBindingError.self) { try KeyBindings([.init(action: .toggleSaved, keys: [.character("o")], line: 1)]) }
        // Undo works everywhere, so it cannot share a key with anything.
        #expect(throws: KeyBindingError.self) { try KeyBindings([.init(action: .undo, keys: [.character("x")], line: 1)]) }
    }
}

extension SaveFromListTests {
    @Test func anOpenGenrePickerOrYearFieldTakesSAndSpaceAsItsOwn() {
        var model = AppUpdateTests.type(AppUpdateTests.started(), .character("f")).0
        #expect(model.movies.genrePicker != nil)
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .character(" "), .character("s"))
        #expect(!effects.contains { if case .saved = $0 { true } else { false } } && !model.movies.rows[0].saved)
        model = AppUpdateTests.type(model, .escape, .character("y")).0
        #expect(model.movies.yearField != nil)
        (model, effects) = AppUpdateTests.type(model, .character("s"))
        #expect(effects.isEmpty && !model.movies.rows[0].saved)
    }
}

/// A key that does nothing where it is typed says where it works.
@Suite struct KeysElsewhereTests {
    @Test func aKeyOfAnotherTabSaysWhereItWorks() {
        var (model, effects) = AppUpdateTests.type(AppUpdateTests.started(), .character("x"))
        #expect(effects.isEmpty && model.status.note == "x does nothing here (Saved: remove)", "\(model.status.note ?? "")")
        (model, _) = AppUpdateTests.type(model, .character("h"))
        #expect(model.status.note == "h does nothing here (Saved: history)")
        (model, _) = AppUpdateTests.type(model, .left)
        #expect(model.status.note == "← does nothing here (Search: search-previous-type)", "\(model.status.note ?? "")")
        // A key bound nowhere says nothing; one that works here does its work.
        model.status.note = nil
        (model, _) = AppUpdateTests.type(model, .character("z"))
        #expect(model.status.note == nil)
        (model, _) = AppUpdateTests.type(model, .character("j"))
        #expect(model.movies.cursor.position == 1 && model.status.note == nil)
    }
}
