import Reel
import ReelApp
import Testing

/// Where the view leaves room for pictures and places them (`ScreenBuffer.pictures`), as text and
/// placements, without a terminal: the poster beside the details, thumbnails at the left of
/// three-line rows, the photo beside the settings; none without pictures; never past the screen's
/// edges, and never under what is drawn over them.
@Suite struct PictureViewTests {
    static let overview = String(repeating: "A long overview that wraps over several lines of the details screen. ", count: 4)

    /// Movie 1's details open at `width`×30, its poster `state` (nil: not asked yet).
    static func details(width: Int = 110, pictures: Bool = true, poster: PictureState.Entry? = nil) -> AppModel {
        var model = PictureUpdateTests.movies(pictures: pictures, width: width)
        model = AppUpdate.update(model, .key(.enter)).0
        var loaded = TitleDetails(key: try! MediaKey(.movie, 1), title: "Movie 1")
        loaded.posterPath = "/poster.jpg"
        loaded.overview = overview
        loaded.cast = (1...30).map { .init(id: $0, name: "Actor \($0)") }
        model = AppUpdate.update(model, .details(.titleLoaded(loaded))).0
        switch poster {
        case .drawn(let picture)?: model = AppUpdate.update(model, .pictureLoaded(posterKey, picture)).0
        case .failed(let why)?: model = AppUpdate.update(model, .pictureFailed(posterKey, reason: why)).0
        case .loading?, nil: break
        }
        return model
    }

    static let posterKey = PictureKey.poster("/poster.jpg", columns: 30, rows: 23)
    static let poster = DrawnPicture(kind: .symbols, bytes: [], lines: Array(repeating: Array("█".utf8), count: 22), columns: 30, rows: 22)

    static func columns(_ line: String) -> Int { line.count }

    @Test func theDetailsPosterIsAtTheRightAndTheLinesLeaveItRoom() {
        let model = Self.details(poster: .drawn(Self.poster))
        let screen = AppView.draw(model)
        #expect(screen.pictures == [ScreenBuffer.Placement(row: 2, column: 79, key: Self.posterKey, picture: Self.poster)])
        let lines = screen.lines()
        // The lines end before the poster's gap (column 77); the overview wraps there.
        for row in 2..<29 { #expect(Self.columns(lines[row]) <= 77, "row \(row): \(lines[row])") }
        #expect(lines.contains { $0.hasPrefix("  A long overview") && Self.columns($0) > 60 })
        // The cursor's line is reversed only as far as the text goes.
        #expect(screen.rows[2][76].style.attributes.contains(.reverse) && !screen.rows[2][77].style.attributes.contains(.reverse))
        // The poster's cells are left blank.
        #expect(screen.rows[2..<24].allSatisfy { row in row[79..<109].allSatisfy { $0 == .blank } })
        // The header keeps the whole width.
        #expect(lines[1].hasSuffix("s saves"))
    }

    @Test func aPosterLoadingOrMissingSaysSoInItsPlace() {
        var lines = AppView.draw(Self.details()).lines()
        #expect(lines[2].hasSuffix("poster…") && lines[2].count == 79 + 7)
        let screen = AppView.draw(Self.details(poster: .failed("image w342/poster.jpg is not cached, and reel is offline")))
        lines = screen.lines()
        #expect(screen.pictures.isEmpty)
        #expect(lines[2].hasSuffix(" no poster: image") && lines[3].hasSuffix(" w342/poster.jpg is not cached,"), "\(lines)")
        #expect(lines[4].hasSuffix(" and reel is offline") && lines[4].count == 79 + 19)
    }

    @Test func withoutPicturesOrOnANarrowScreenTheLinesTakeTheWholeWidth() {
        for model in [Self.details(pictures: false), Self.details(width: 99, poster: .drawn(Self.poster))] {
            let screen = AppView.draw(model)
            #expect(screen.pictures.isEmpty)
            #expect(screen.lines().contains { $0.hasPrefix("  A long overview") && Self.columns($0) > 90 })
            #expect(!screen.lines().joined().contains("poster…"))
        }
    }

    @Test func thumbnailsSitAtTheLeftOfThreeLineRows() {
        var model = AppUpdate.update(PictureUpdateTests.movies(), .key(.character("p"))).0
        let thumbnail = PictureUpdateTests.drawn
        model = AppUpdate.update(model, .pictureLoaded(PictureUpdateTests.thumbnail("/p0.jpg"), thumbnail)).0
        model = AppUpdate.update(model, .pictureLoaded(PictureUpdateTests.thumbnail("/p4.jpg"), thumbnail)).0
        let screen = AppView.draw(model)
        // Movies 1 and 5 have theirs; Movie 2 has no poster, Movie 3's is still loading.
        #expect(screen.pictures.map { [$0.row, $0.column] } == [[3, 2], [15, 2]])
        let lines = screen.lines()
        #expect(lines[2].hasPrefix("         Title"), "the header row, past the thumbnails' column")
        #expect(lines[3].hasPrefix("›        Movie 1") && lines[6].hasPrefix("         Movie 2") && lines[9].hasPrefix("         Movie 3"))
        #expect(lines[4].isEmpty && lines[5].isEmpty)
        // The cursor's row is reversed on its three lines, but not under the thumbnail.
        for row in 3..<6 {
            #expect(screen.rows[row][1].style.attributes.contains(.reverse) && screen.rows[row][7].style.attributes.contains(.reverse))
            #expect(screen.rows[row][2..<6].allSatisfy { $0 == .blank })
        }
        // Eight rows fit: the eighth (Movie 8) starts at line 24.
        #expect(lines[24].hasPrefix("         Movie 8") && lines[27].isEmpty && lines[29].contains("thumbnails on"))
    }

    @Test func inPixelsThumbnailsAreLargerAndRowsFourLinesTall() {
        var model = PictureUpdateTests.movies()
        model.pictures = PictureState(available: true, reason: "kitty (test)", drawsPixels: true)
        var effects: [AppEffect]
        (model, effects) = AppUpdate.update(model, .key(.character("p")))
        let big = PictureKey.poster("/p0.jpg", columns: 6, rows: 4)
        #expect(PictureUpdateTests.loads(effects).first == big, "a 6×4-cell thumbnail is asked for")
        let picture = DrawnPicture(kind: .pixels, bytes: Array("pixels".utf8), lines: [], columns: 6, rows: 4)
        model = AppUpdate.update(model, .pictureLoaded(big, picture)).0
        let screen = AppView.draw(model)
        #expect(screen.pictures.map { [$0.row, $0.column] } == [[3, 2]])
        let lines = screen.lines()
        #expect(lines[2].hasPrefix("           Title"), "the header row, past the wider thumbnails' column")
        #expect(lines[3].hasPrefix("›          Movie 1") && lines[7].hasPrefix("           Movie 2") && lines[11].hasPrefix("           Movie 3"))
        #expect(model.visibleListRows == 6, "six rows of four lines fit under the heading")
    }

    @Test func whatIsDrawnOverAPictureTakesItAway() {
        // The help over the poster.
        var model = Self.details(poster: .drawn(Self.poster))
        model.showsHelp = true
        #expect(AppView.draw(model).pictures.isEmpty)
        // The year field over the header row, no thumbnail.
        var list = AppUpdate.update(PictureUpdateTests.movies(), .key(.character("p"))).0
        for path in ["/p0.jpg", "/p2.jpg"] { list = AppUpdate.update(list, .pictureLoaded(PictureUpdateTests.thumbnail(path), PictureUpdateTests.drawn)).0 }
        #expect(AppView.draw(list).pictures.map(\.row) == [3, 9])
        list = AppUpdate.update(list, .key(.character("y"))).0
        #expect(AppView.draw(list).pictures.map(\.row) == [3, 9])
        #expect(AppView.draw(list).lines()[2].hasPrefix(" Year: "))
    }

    @Test func aPictureIsPlacedWholeWithinTheScreenAndOnce() {
        var screen = ScreenBuffer(width: 20, height: 10)
        let picture = PictureUpdateTests.drawn  // 4×3
        let key = PictureUpdateTests.thumbnail("/a.jpg")
        screen.place(picture, key: key, row: 8, column: 0)  // rows 8-10: past the bottom
        screen.place(picture, key: key, row: 0, column: 16)  // columns 16-19: onto the last column
        screen.place(picture, key: key, row: -1, column: 0)
        #expect(screen.pictures.isEmpty)
        screen.place(picture, key: key, row: 7, column: 15)
        screen.place(picture, key: key, row: 0, column: 0)  // the same key again
        #expect(screen.pictures.map { [$0.row, $0.column] } == [[7, 15]] && screen.pictures[0].lines == 7..<10)
        // Text beside it leaves it; text over one of its cells takes it away.
        screen.write("abc", row: 8, column: 12)
        #expect(screen.pictures.count == 1)
        screen.write("abcd", row: 9, column: 12)
        #expect(screen.pictures.isEmpty)
    }

    @Test func theAccountsPhotoIsBesideTheSettings() {
        var model = AppUpdate.update(PictureUpdateTests.movies(), .key(.character("5"))).0
        var info = SettingsUpdateTests.info
        info.photo = "JPEG 120x180, 4,000 bytes"
        info.photoDigest = String(repeating: "cd", count: 32)
        info.name = String(repeating: "N", count: 100)
        model = AppUpdate.update(model, .settings(.loaded(info, account: "ann"))).0
        let key = PictureKey(.accountPhoto(account: "ann", sha256: info.photoDigest!), columns: 20, rows: 7)
        let photo = DrawnPicture(kind: .symbols, bytes: [], lines: Array(repeating: Array("█".utf8), count: 7), columns: 5, rows: 7)
        #expect(AppView.draw(model).lines()[2].hasSuffix("photo…"))
        model = AppUpdate.update(model, .pictureLoaded(key, photo)).0
        let screen = AppView.draw(model)
        #expect(screen.pictures == [ScreenBuffer.Placement(row: 2, column: 79, key: key, picture: photo)])
        // The rows' text ends before the photo (a long name is cut); the cursor's row too.
        let lines = screen.lines()
        #expect(lines[3].hasPrefix("› Name        NNNN") && lines[3].hasSuffix("N…") && Self.columns(lines[3]) == 77)
        #expect(!screen.rows[3][77].style.attributes.contains(.reverse))
        #expect(lines[4] == "  Photo       JPEG 120x180, 4,000 bytes")
    }
}
