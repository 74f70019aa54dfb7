import Presentation
import Reel
import ReelApp
import Testing

/// A paste is thousands of keys at once (issue 36: 10,000 characters pasted into the Search field
/// froze the app for 20–40 s). The keys that came together are one batch (`AppUpdate.update` with
/// messages), each changing the text in place, and the field draws only the end that fits: time
/// linear in the paste. How long a paste takes, in the real app beside one key typed, is
/// `reel-bench ui`'s row 5 (a timed test here broke on a loaded machine).
@Suite struct PastedTextTests {
    /// 10,000 characters whose end says so.
    static let pasted = String(repeating: "abcdefghij", count: 999) + "PASTED-END"

    @Test func tenThousandCharactersPastedIntoSearchAreOnScreenAtOnce() {
        let start = SearchUpdateTests.onSearch()
        let messages = Self.pasted.map { AppMessage.key(.character($0)) }
        var model = start
        var effects: [AppEffect] = []
        // Through the pure functions the driver calls for one turn of its loop.
        (model, effects) = AppUpdate.update(start, messages)
        let screen = AppView.draw(model)
        #expect(model.search.text == Self.pasted)
        #expect(model.search.generation == start.search.generation + 10_000)
        // One wait for the search, the newest generation's: the others would come back moot.
        #expect(effects == [.search(.debounce(generation: model.search.generation))], "\(effects.count) effects")
        let field = screen.lines()[1]
        #expect(field.hasPrefix(" Search: ") && field.contains("hijabcdefghijPASTED-END"), "\(field)")
        // The field keeps to its room: the filter is still on the right.
        #expect(field.hasSuffix("[All]  Movies   Series   People"), "\(field)")
    }

    /// The view alone: a text of 10,000 characters draws its end (what fits before the filter),
    /// wide characters counted as two columns. (How long, pasted in the real app: `reel-bench
    /// ui`'s row 5, wide characters.)
    @Test func theFieldDrawsTheEndOfALongText() {
        var model = SearchUpdateTests.onSearch()
        model.search.text = String(repeating: "映画", count: 5_000) + "END"
        let screen = AppView.draw(model)
        let field = screen.lines()[1]
        #expect(field.contains("映画映画END"), "\(field)")
        #expect(DisplayWidth.columns(field) <= model.width, "\(field)")
    }

    /// Typing after the paste, a key at a time, goes on as typing does: backspace, ctrl-u.
    @Test func keysAfterAPasteEditItsEnd() {
        var (model, _) = AppUpdate.update(SearchUpdateTests.onSearch(), Self.pasted.map { .key(.character($0)) })
        model = AppUpdateTests.type(model, .backspace, .backspace, .backspace, .character("!")).0
        #expect(model.search.text.hasSuffix("PASTED-!") && model.search.text.count == 9_998)
        model = AppUpdateTests.type(model, .control("u")).0
        #expect(model.search.text.isEmpty && model.search.showsDefaultPerson)
        // Spaces alone search for nothing: the default person shows, as for an empty field.
        model = AppUpdateTests.type(model, .character(" "), .character(" ")).0
        #expect(model.search.text == "  " && model.search.showsDefaultPerson)
    }
}
