import Reel
import ReelApp
import Testing

/// The preview pane's logic: details are asked for only once the cursor rests on a title, once
/// each; the poster needs no wait; a failure is asked for again with `r`; on a narrow screen
/// there is no pane and nothing is asked for.
@Suite struct PreviewUpdateTests {
    /// Movies at 140×40 (the pane shows), three titles loaded, the cursor on the first.
    static func wide(pictures: Bool = false) -> AppModel {
        var model = AppModel(width: 140, height: 40, account: "ann", catalog: .tmdb)
        model.pictures = PictureState(available: pictures, reason: "symbols (test)")
        model.movies.loaded = ScreenSnapshotTests.movieRows.prefix(3).map { $0 }
        model.movies.pagesLoaded = 1
        model.movies.totalPages = 1
        return model
    }

    static func settles(_ effects: [AppEffect]) -> [Int] {
        effects.compactMap { if case .preview(.settle(let generation)) = $0 { generation } else { nil } }
    }

    static func loads(_ effects: [AppEffect]) -> [MediaKey] {
        effects.compactMap { if case .preview(.load(let key)) = $0 { key } else { nil } }
    }

    @Test func theDetailsAreAskedForOnceTheCursorRestsAndOnlyThen() {
        var (model, effects) = AppUpdate.start(Self.wide())
        let first = ScreenSnapshotTests.movieRows[0].key
        #expect(model.preview.wanted == first && Self.settles(effects) == [model.preview.generation] && Self.loads(effects).isEmpty)
        // Three keys in one batch (a held j): only the newest wait is asked for.
        (model, effects) = AppUpdate.update(model, [.key(.character("j")), .key(.character("j")), .key(.character("k"))])
        #expect(Self.settles(effects) == [model.preview.generation] && Self.loads(effects).isEmpty)
        let generation = model.preview.generation
        // An older wait ending asks for nothing; the newest asks for the title under the cursor.
        #expect(Self.loads(AppUpdate.update(model, .preview(.settled(generation: generation - 1))).1).isEmpty)
        (model, effects) = AppUpdate.update(model, .preview(.settled(generation: generation)))
        let second = ScreenSnapshotTests.movieRows[1].key
        #expect(Self.loads(effects) == [second] && model.preview[second] == .loading)
        // Back on it later: known, so resting on it asks for no second request.
        (model, effects) = AppUpdateTests.type(model, .character("j"), .character("k"))
        #expect(Self.loads(effects).isEmpty && !Self.settles(effects).isEmpty, "\(effects)")
        (model, effects) = AppUpdate.update(model, .preview(.settled(generation: model.preview.generation)))
        #expect(Self.loads(effects).isEmpty && model.preview.settled == second)
        var details = TitleDetails(key: second, title: "The Matrix")
        details.tagline = "Welcome to the Real World."
        (model, _) = AppUpdate.update(model, .preview(.loaded(details)))
        #expect(model.preview[second] == .loaded(details))
        #expect(AppView.draw(model).lines().contains { $0.contains("“Welcome to the Real World.”") })
    }

    @Test func theDetailsOfAScreenOpenedAreThePreviewsToo() {
        var model = Self.wide()
        let key = ScreenSnapshotTests.movieRows[0].key
        model = AppUpdate.update(model, .details(.titleLoaded(TitleDetails(key: key, title: "Fight Club")))).0
        #expect(model.preview[key] == .loaded(TitleDetails(key: key, title: "Fight Club")))
        #expect(Self.settles(AppUpdate.start(model).1).isEmpty, "known: nothing to wait for")
    }

    @Test func aFailureSaysWhyAndRAsksAgain() {
        var model = AppUpdate.start(Self.wide()).0
        let key = ScreenSnapshotTests.movieRows[0].key
        model = AppUpdate.update(model, .preview(.settled(generation: model.preview.generation))).0
        model = AppUpdate.update(model, .preview(.failed(key, message: "Couldn't reach TMDb: it answered 503 (unavailable)"))).0
        let text = AppView.draw(model).lines().joined(separator: "\n")
        #expect(text.contains("no details: Couldn't reach TMDb:") && text.contains("(r retries)"), "\(text)")
        let (retried, effects) = AppUpdateTests.type(model, .character("r"))
        #expect(Self.loads(effects) == [key] && retried.preview[key] == .loading)
    }

    @Test func thePosterIsAskedForOnceTheCursorRestsAndOnANarrowScreenThereIsNoPane() {
        func posters(_ effects: [AppEffect]) -> [PictureKey] { effects.compactMap { if case .loadPicture(let key) = $0 { key } else { nil } } }
        var (model, effects) = AppUpdate.start(Self.wide(pictures: true))
        #expect(posters(effects).isEmpty, "passing a title by asks for no poster")
        (model, effects) = AppUpdate.update(model, .preview(.settled(generation: model.preview.generation)))
        #expect(posters(effects).map(\.source) == [.tmdb(path: "/550.jpg", kind: .poster)] && posters(effects).first?.columns == 39, "\(effects)")
        // Moving on hides it until the cursor rests again.
        (model, effects) = AppUpdateTests.type(model, .character("j"))
        #expect(posters(effects).isEmpty && !AppView.draw(model).lines().joined().contains("poster…"))
        var narrow = Self.wide(pictures: true)
        narrow.width = 119
        let (small, smallEffects) = AppUpdate.start(narrow)
        #expect(small.preview.wanted == nil && Self.settles(smallEffects).isEmpty && !smallEffects.contains { if case .loadPicture = $0 { true } else { false } })
        #expect(!AppView.draw(small).lines().joined().contains("│"))
    }

    /// The poster is drawn ahead, from the image cache only, once the cursor rests a little
    /// (`prepareMilliseconds`), and shown when it has rested long enough: drawn by then, it is on
    /// the screen at once. Not in the cache, it is asked for properly when its box shows.
    @Test func thePosterIsDrawnAheadFromTheCacheAndShownWhenTheCursorHasRested() throws {
        func prepared(_ effects: [AppEffect]) -> [PictureKey] { effects.compactMap { if case .preparePicture(let key) = $0 { key } else { nil } } }
        func posters(_ effects: [AppEffect]) -> [PictureKey] { effects.compactMap { if case .loadPicture(let key) = $0 { key } else { nil } } }
        var (model, effects) = AppUpdate.start(Self.wide(pictures: true))
        let generation = model.preview.generation
        #expect(effects.contains(.preview(.prepare(generation: generation))) && effects.contains(.preview(.settle(generation: generation))))
        // A rest of an older generation (the cursor moved on) draws nothing ahead.
        #expect(prepared(AppUpdate.update(model, .preview(.resting(generation: generation - 1))).1).isEmpty)
        (model, effects) = AppUpdate.update(model, .preview(.resting(generation: generation)))
        let key = try #require(prepared(effects).first)
        #expect(prepared(effects).count == 1 && key.source == .tmdb(path: "/550.jpg", kind: .poster) && key.columns == 39 && posters(effects).isEmpty, "\(effects)")
        #expect(!AppView.draw(model).lines().joined().contains("poster"), "not shown before the rest is long enough")
        let picture = DrawnPicture(kind: .symbols, bytes: [], lines: Array(repeating: Array("█".utf8), count: key.rows), columns: 12, rows: key.rows)
        model = AppUpdate.update(model, .pictureLoaded(key, picture)).0
        #expect(AppView.draw(model).pictures.isEmpty, "drawn ahead, not yet placed")
        (model, effects) = AppUpdate.update(model, .preview(.settled(generation: generation)))
        #expect(posters(effects).isEmpty, "nothing more to ask for")
        #expect(AppView.draw(model).pictures.map(\.key) == [key], "on screen in the frame the rest ends")
        // Not cached: forgotten, then asked for properly once its box shows.
        (model, _) = AppUpdateTests.type(model, .character("j"))
        let next = model.preview.generation
        (model, effects) = AppUpdate.update(model, .preview(.resting(generation: next)))
        let second = try #require(prepared(effects).first)
        (model, effects) = AppUpdate.update(model, .preview(.settled(generation: next)))
        #expect(posters(effects).isEmpty, "the drawing ahead is still under way")
        (model, effects) = AppUpdate.update(model, .pictureNotCached(second))
        #expect(posters(effects) == [second], "the box shows: fetched now")
    }

    /// Saved with a filter: what the cursor is on is a row the filter lets through (the preview,
    /// `enter` and `s` all ask `underCursor`).
    @Test func onAFilteredSavedListTheCursorIsOnARowShown() {
        var model = SavedUpdateTests.loaded()
        model.width = 140
        model = AppUpdateTests.type(model, .character("/"), .character("b"), .character("r"), .enter).0
        #expect(model.saved.shown.map(\.title) == ["Breaking Bad"])
        #expect(model.preview.wanted == SavedUpdateTests.breaking.key)
        let lines = AppView.draw(model).lines()
        #expect(lines[1].hasSuffix("│ ★ Breaking Bad"), "\(lines[1])")
    }
}
