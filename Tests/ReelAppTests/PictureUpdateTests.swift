import Reel
import ReelApp
import Testing

/// Pictures in the app's logic, without a terminal: `p` turns thumbnails on and off, only the
/// pictures on screen are asked for (once each), answers are kept, a failed picture is not asked
/// for again, and the pictures kept stay within their bound.
@Suite struct PictureUpdateTests {
    /// A 100×30 app whose terminal draws pictures, `rows` movies loaded (of many pages), every
    /// other one with a poster.
    static func movies(_ rows: Int = 40, pictures: Bool = true, width: Int = 100) -> AppModel {
        var model = AppModel(width: width, height: 30, account: "ann", catalog: .tmdb)
        model.pictures = PictureState(available: pictures, reason: pictures ? "symbols, truecolor (test)" : "none (REEL_IMAGES=none)")
        model.movies.loaded = (0..<rows).map { index in
            TitleRow(key: try! MediaKey(.movie, Int64(index + 1)), title: "Movie \(index + 1)", posterPath: index % 2 == 0 ? "/p\(index).jpg" : nil)
        }
        model.movies.pagesLoaded = 1
        model.movies.totalPages = 100
        return model
    }

    static func thumbnail(_ path: String) -> PictureKey { .poster(path, columns: 4, rows: 3) }

    static func loads(_ effects: [AppEffect]) -> [PictureKey] {
        effects.compactMap { if case .loadPicture(let key) = $0 { key } else { nil } }
    }

    static let drawn = DrawnPicture(kind: .symbols, bytes: [], lines: Array(repeating: Array("▀▀▀▀".utf8), count: 3), columns: 4, rows: 3)

    @Test func pTurnsThumbnailsOnAndAsksForThePostersOfTheRowsOnScreenOnly() {
        var (model, effects) = AppUpdate.update(Self.movies(), .key(.character("p")))
        #expect(model.pictures.thumbnails && model.showsThumbnails && model.rowHeight == 3)
        #expect(model.status.note == "thumbnails on (p turns them off)")
        // 26 lines of list (under the heading and the header row): 8 rows of three lines; rows 1,
        // 3, 5 and 7 have posters.
        #expect(model.visibleListRows == 8)
        #expect(Self.loads(effects) == [0, 2, 4, 6].map { Self.thumbnail("/p\($0).jpg") })
        // Asked for once: moving within the screen asks for nothing more.
        (model, effects) = AppUpdate.update(model, .key(.character("j")))
        #expect(Self.loads(effects).isEmpty)
        // Rows scrolled into view ask for their posters.
        (model, effects) = AppUpdateTests.type(model, .character("j"), .character("j"), .character("j"), .character("j"), .character("j"),
                                               .character("j"), .character("j"), .character("j"), .character("j"))
        #expect(model.movies.cursor.position == 10 && model.movies.cursor.top == 3)
        #expect(Self.loads(effects) == [Self.thumbnail("/p8.jpg"), Self.thumbnail("/p10.jpg")])
        // Off again: one line a row, nothing asked for.
        (model, effects) = AppUpdate.update(model, .key(.character("p")))
        #expect(!model.pictures.thumbnails && model.rowHeight == 1 && model.visibleListRows == 26 && Self.loads(effects).isEmpty)
        #expect(model.status.note == "thumbnails off")
    }

    @Test func pWhereTheTerminalDrawsNoPicturesSaysWhy() {
        let (model, effects) = AppUpdate.update(Self.movies(pictures: false), .key(.character("p")))
        #expect(!model.pictures.thumbnails && !model.showsThumbnails && model.rowHeight == 1 && effects.isEmpty)
        #expect(model.status.note == "no pictures in this terminal: none (REEL_IMAGES=none)")
        // `p` bound elsewhere by keys.toml: the new key toggles, `p` does nothing.
        var bound = Self.movies()
        bound.keys = try! KeyBindings([KeyBindings.Binding(action: .thumbnails, keys: [.character("T")], line: 2)])
        #expect(!AppUpdate.update(bound, .key(.character("p"))).0.pictures.thumbnails)
        #expect(AppUpdate.update(bound, .key(.character("T"))).0.pictures.thumbnails)
    }

    @Test func theCursorStaysOnScreenWhenRowsGrowTaller() {
        var model = Self.movies()
        model.movies.cursor = ListCursor(position: 20, top: 0)
        model = AppUpdate.update(model, .key(.character("p"))).0
        #expect(model.movies.cursor == ListCursor(position: 20, top: 13))
        // A page down moves by the rows that fit.
        model = AppUpdate.update(model, .key(.pageDown)).0
        #expect(model.movies.cursor.position == 28)
    }

    @Test func answersAreKeptAFailureIsNotAskedForAgainAndALateAnswerIsDropped() {
        var (model, _) = AppUpdate.update(Self.movies(), .key(.character("p")))
        let first = Self.thumbnail("/p0.jpg"), second = Self.thumbnail("/p2.jpg")
        #expect(model.pictures[first] == .loading)
        model = AppUpdate.update(model, .pictureLoaded(first, Self.drawn)).0
        model = AppUpdate.update(model, .pictureFailed(second, reason: "not cached (offline)")).0
        #expect(model.pictures[first] == .drawn(Self.drawn) && model.pictures[second] == .failed("not cached (offline)"))
        // Every later turn leaves both alone: no retry in a loop.
        var effects: [AppEffect]
        (model, effects) = AppUpdateTests.type(model, .character("j"), .character("k"))
        #expect(Self.loads(effects).isEmpty)
        // An answer nobody asked for (or for a picture forgotten) is not kept.
        let stranger = Self.thumbnail("/elsewhere.jpg")
        #expect(AppUpdate.update(model, .pictureLoaded(stranger, Self.drawn)).0.pictures[stranger] == nil)
    }

    @Test func theDetailsAskForTheirPosterOnAWideScreenOnly() {
        func details(width: Int, pictures: Bool = true, poster: String? = "/poster.jpg") -> [PictureKey] {
            let model = AppUpdate.update(Self.movies(pictures: pictures, width: width), .key(.enter)).0
            var loaded = TitleDetails(key: try! MediaKey(.movie, 1), title: "Movie 1")
            loaded.posterPath = poster
            return Self.loads(AppUpdate.update(model, .details(.titleLoaded(loaded))).1)
        }
        // 30 columns, as tall as the screen allows less a line (27 rows of screen here).
        #expect(details(width: 110) == [.poster("/poster.jpg", columns: 30, rows: 23)])
        #expect(details(width: 100) == [.poster("/poster.jpg", columns: 30, rows: 23)])
        #expect(details(width: 99).isEmpty)
        #expect(details(width: 110, pictures: false).isEmpty)
        #expect(details(width: 110, poster: nil).isEmpty)
    }

    @Test func settingsAskForTheAccountsPhotoByItsDigest() {
        var model = Self.movies()
        model = AppUpdate.update(model, .key(.character("5"))).0
        var info = SettingsUpdateTests.info
        info.photoDigest = String(repeating: "ab", count: 32)
        info.photo = "JPEG 120x180, 4,000 bytes"
        let effects = AppUpdate.update(model, .settings(.loaded(info, account: "ann"))).1
        #expect(Self.loads(effects) == [PictureKey(.accountPhoto(account: "ann", sha256: info.photoDigest!), columns: 20, rows: 7)])
        // Without a photo, nothing.
        #expect(Self.loads(AppUpdate.update(model, .settings(.loaded(SettingsUpdateTests.info, account: "ann"))).1).isEmpty)
    }

    @Test func searchResultsAskForPostersAndPeoplesPhotos() {
        var model = Self.movies()
        model = AppUpdateTests.type(model, .character("3"), .character("x"), .escape, .character("p")).0
        let results: [SearchResult] = [
            .title(TitleRow(key: try! MediaKey(.movie, 603), title: "The Matrix", posterPath: "/matrix.jpg")),
            .person(.init(id: 6384, name: "Keanu Reeves", department: "Acting", profilePath: "/keanu.jpg")),
            .person(.init(id: 1, name: "Nobody")),
        ]
        let effects = AppUpdate.update(model, .search(.found(generation: model.search.generation, results))).1
        #expect(Self.loads(effects) == [Self.thumbnail("/matrix.jpg"), PictureKey(.tmdb(path: "/keanu.jpg", kind: .profile), columns: 4, rows: 3)])
    }

    @Test func thePicturesKeptStayWithinTheBoundAndKeepWhatIsOnScreen() {
        var model = AppUpdate.update(Self.movies(1_000), .key(.character("p"))).0
        for _ in 0..<70 { model = AppUpdate.update(model, .key(.pageDown)).0 }
        #expect(model.movies.cursor.position > 500)
        #expect(model.pictures.entries.count == PictureState.limit)
        let top = model.movies.cursor.top
        for index in top..<top + model.visibleListRows where index % 2 == 0 {
            #expect(model.pictures[Self.thumbnail("/p\(index).jpg")] == .loading, "row \(index) is on screen")
        }
        #expect(model.pictures[Self.thumbnail("/p0.jpg")] == nil, "the first asked for is forgotten")
    }
}
