import EndToEndSupport
import Foundation
import Reel
import ReelTestSupport
import Testing

/// Pictures in `reel ui`, in a real terminal: tmux (no graphics protocol, so symbols in 24-bit
/// colour, read back with `capture-pane -e`), and a pseudo-terminal that keeps every byte for
/// kitty's protocol. The poster beside a title's details in the art's colours, gone without a
/// trace on leaving; thumbnails that follow their rows as the list scrolls and leave nothing
/// where rows moved away; the account's photo in Settings; a terminal without pictures; kitty
/// images deleted by id when they go and all of them at the end.
@Suite struct TerminalPictureTests {
    /// A home on the bundled sample catalog (no credentials), in 24-bit colour.
    static func sampleHome() -> [String: String] {
        [
            "REEL_DATA_DIR": temporaryDirectory("pictures-data"), "XDG_CONFIG_HOME": temporaryDirectory("pictures-config"),
            "XDG_STATE_HOME": temporaryDirectory("pictures-state"), "REEL_USER": "ann", "LANG": "C.UTF-8", "COLORTERM": "truecolor",
        ]
    }

    /// `reel ui` in `home` with no TMDb credentials from the test's own environment, between two
    /// `stty -a` (`TerminalSession.expectTerminalRestored`).
    static func session(_ home: [String: String], width: Int = 100, height: Int = 30) async throws -> TerminalSession {
        try await AppSession.start(nil, width: width, height: height, home: home, unset: ["TMDB_API_TOKEN", "TMDB_API_KEY"])
    }

    /// The screen once its picture cells stopped changing (pictures load on tasks of their own).
    /// The screen once `ready` holds and nothing changed for 300 ms (pictures load on tasks of
    /// their own); the last screen seen after 20 s.
    static func settled(_ terminal: TerminalSession, until ready: (ScreenCells) -> Bool = { _ in true }) async throws -> ScreenCells {
        var budget = WaitBudget(seconds: 20)
        var shown = try await terminal.colouredScreen()
        while !budget.isSpent {
            try await budget.pause(.milliseconds(300))
            let now = try await terminal.colouredScreen()
            if now == shown && ready(ScreenCells(capture: now)) { break }
            shown = now
        }
        return ScreenCells(capture: shown)
    }

    static func describe(_ cells: [(row: Int, column: Int)]) -> String {
        "\(cells.count) picture cells, rows \(Set(cells.map(\.row)).sorted()), columns \(Set(cells.map(\.column)).sorted())"
    }

    @Test func theDetailsPosterIsDrawnBesideThemAndLeavesNoPixelsBehind() async throws {
        let server = try FakeTMDbProcess()
        var home = AppSession.environment(server)
        home["COLORTERM"] = "truecolor"
        // Links too (tmux drops them, but the app writes them and has curses rewrite the rows that
        // lose one: the poster beside those rows must survive that).
        home["REEL_HYPERLINKS"] = "1"
        let terminal = try await AppSession.start(server, width: 110, height: 32, home: home)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        try await terminal.type("3")
        try await terminal.waitFor("Benedict Cumberbatch")
        try await terminal.type("Right", "fight club")
        try await terminal.waitFor("for “fight club”")
        try await terminal.type("Enter", "Enter")
        try await terminal.waitFor("s saves")
        var cells = try await Self.settled(terminal) { $0.pictureCells.count > 200 }
        let poster = cells.pictureCells
        // In the poster's box at the right (30 columns from column 79, rows 2 to 24), filling its width.
        #expect(poster.count > 200 && poster.allSatisfy { (79..<109).contains($0.column) && (2..<25).contains($0.row) }, "\(Self.describe(poster))")
        #expect(Set(poster.map(\.column)).count >= 28, "\(Self.describe(poster))")
        #expect(cells.text(row: 2, columns: 0..<78).contains("released 1999"))
        // In the art's colours: the same poster, fetched by `reel poster` and decoded, on average.
        let file = temporaryDirectory("poster") + "/fight-club.jpg"
        let fetched = try await Home(environment: home).reel(["poster", "movie", "550", "--size", "w342", "--out", file])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let art = try PictureDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: file)))).meanColour
        let seen = cells.meanColour(rows: 0..<32, columns: 0..<110)
        #expect(seen.map { abs($0.red - art.red) < 20 && abs($0.green - art.green) < 20 && abs($0.blue - art.blue) < 20 } == true,
                "seen \(String(describing: seen)), the art \(art)")
        // The cursor moving over the lines beside it leaves it as it was.
        try await terminal.type("j", "j", "j", "j", "j")
        let moved = try await Self.settled(terminal) { $0.text(row: 7, columns: 0..<2) == "›" }
        #expect(moved.pictureCells.map { [$0.row, $0.column] } == poster.map { [$0.row, $0.column] })
        #expect(moved.meanColour(rows: 0..<32, columns: 0..<110).map { [$0.red, $0.green, $0.blue] } == seen.map { [$0.red, $0.green, $0.blue] })
        // So does scrolling the lines (the links among them move: their old rows are written whole).
        try await terminal.type("G")
        let scrolled = try await Self.settled(terminal) { $0.text(row: 30, columns: 0..<2) == "›" }
        #expect(scrolled.text(row: 2, columns: 0..<78) != cells.text(row: 2, columns: 0..<78), "the lines scrolled")
        #expect(scrolled.pictureCells.map { [$0.row, $0.column] } == poster.map { [$0.row, $0.column] })
        #expect(scrolled.meanColour(rows: 0..<32, columns: 0..<110).map { [$0.red, $0.green, $0.blue] } == seen.map { [$0.red, $0.green, $0.blue] })
        // Back to the results: not one cell of it stays.
        try await terminal.type("Escape")
        try await terminal.waitFor("for “fight club”")
        cells = try await Self.settled(terminal)
        #expect(cells.pictureCells.isEmpty, "\(Self.describe(cells.pictureCells))")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
        try terminal.expectTerminalRestored()
    }

    /// The titles of the list's three-line rows (from line 3, under the heading and the header
    /// row) and whether each has thumbnail cells.
    static func rows(_ cells: ScreenCells, count: Int = 8) -> [(title: String, thumbnail: Bool)] {
        (0..<count).map { block in
            let row = 3 + block * 3
            // The title column: up to the two spaces before the release date.
            let title = cells.text(row: row, columns: 9..<100).components(separatedBy: "  ").first ?? ""
            return (title, cells.hasPicture(rows: row..<row + 3, columns: 0..<100))
        }
    }

    @Test func thumbnailsFollowTheirRowsAsTheListScrollsAndLeaveNothingBehind() async throws {
        let terminal = try await Self.session(Self.sampleHome())
        defer { terminal.end() }
        try await terminal.waitFor("Wonka")
        try await terminal.type("p")
        try await terminal.waitFor("thumbnails on")
        var cells = try await Self.settled(terminal) { Self.rows($0).allSatisfy(\.thumbnail) }
        let first = Self.rows(cells)
        // Every sample title has a poster (its own art where TMDb's is not ours to ship).
        #expect(first.first?.title == "Wonka" && first.allSatisfy(\.thumbnail), "\(first)")
        // Every picture cell is in a thumbnail's place: columns 2 to 5.
        #expect(cells.pictureCells.allSatisfy { (2..<6).contains($0.column) && (3..<29).contains($0.row) }, "\(Self.describe(cells.pictureCells))")
        // Down 12 rows: the list scrolls by 5; each title keeps its thumbnail.
        for _ in 0..<12 { try await terminal.type("j") }
        cells = try await Self.settled(terminal) { Self.rows($0).first?.title == first[5].title && Self.rows($0).allSatisfy(\.thumbnail) }
        let scrolled = Self.rows(cells)
        #expect(scrolled.first?.title == first[5].title && scrolled.allSatisfy(\.thumbnail), "\(scrolled)")
        #expect(cells.pictureCells.allSatisfy { (2..<6).contains($0.column) }, "\(Self.describe(cells.pictureCells))")
        // At the end of the list the rows below the last title are empty: where thumbnails
        // were, nothing stays.
        var budget = WaitBudget(seconds: 30)
        while try await !terminal.screen().contains("end of the list"), !budget.isSpent {
            // G goes to the last row loaded, which asks for the next page.
            try await terminal.type("G")
            try await budget.pause(.milliseconds(200))
        }
        cells = try await Self.settled(terminal) { Self.rows($0).last?.thumbnail == false }
        let end = Self.rows(cells)
        #expect(end.contains { $0.thumbnail } && end.last.map { !$0.thumbnail } == true, "\(end)")
        let lastWithThumbnail = end.lastIndex { $0.thumbnail } ?? 0
        #expect(!cells.hasPicture(rows: 3 + (lastWithThumbnail + 1) * 3..<29, columns: 0..<100), "\(Self.describe(cells.pictureCells))")
        // And back at the top, as at first.
        try await terminal.type("g")
        cells = try await Self.settled(terminal) { Self.rows($0).first?.title == "Wonka" }
        #expect(Self.rows(cells).map(\.thumbnail) == first.map(\.thumbnail))
        // Off: one line a row, no picture anywhere.
        try await terminal.type("p")
        try await terminal.waitFor("thumbnails off")
        cells = try await Self.settled(terminal)
        #expect(cells.pictureCells.isEmpty, "\(Self.describe(cells.pictureCells))")
        #expect(cells.text(row: 4, columns: 4..<100).hasPrefix(first[1].title + "  "))
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
        try terminal.expectTerminalRestored()
    }

    @Test func settingsShowTheAccountsPhoto() async throws {
        let home = Self.sampleHome()
        let file = temporaryDirectory("photo") + "/red.jpg"
        let jpeg = try PictureEncoder.jpeg(Picture(width: 120, height: 180, filledWith: RGB(200, 40, 40)), quality: 90)
        try Data(jpeg).write(to: URL(fileURLWithPath: file))
        let set = try await Home(environment: home).reel(["settings", "photo", file])
        #expect(set.status == 0, "\(set.stderr)")
        let terminal = try await Self.session(home)
        defer { terminal.end() }
        try await terminal.waitFor("Wonka")
        try await terminal.type("5")
        try await terminal.waitFor("JPEG 120x180")
        var cells = try await Self.settled(terminal) { !$0.pictureCells.isEmpty }
        // At the right of the rows (from column 79, rows 2 to 8), red as the photo is.
        #expect(!cells.pictureCells.isEmpty && cells.pictureCells.allSatisfy { (79..<99).contains($0.column) && (2..<9).contains($0.row) },
                "\(Self.describe(cells.pictureCells))")
        let seen = cells.meanColour(rows: 0..<30, columns: 0..<100)
        #expect(seen.map { abs($0.red - 200) < 12 && abs($0.green - 40) < 12 && abs($0.blue - 40) < 12 } == true, "\(String(describing: seen))")
        let about = (0..<30).map { cells.text(row: $0, columns: 0..<100) }
        #expect(about.contains { $0.hasPrefix("pictures        symbols, truecolor") }, "\(about)")
        try await terminal.type("1")
        try await terminal.waitFor("Discover movies")
        cells = try await Self.settled(terminal)
        #expect(cells.pictureCells.isEmpty, "\(Self.describe(cells.pictureCells))")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }

    @Test func aTerminalWithoutPicturesShowsTheDetailsAtFullWidthAndSaysWhyPDoesNothing() async throws {
        var home = Self.sampleHome()
        home["REEL_IMAGES"] = "none"
        let terminal = try await Self.session(home, width: 110, height: 32)
        defer { terminal.end() }
        try await terminal.waitFor("Wonka")
        try await terminal.type("p")
        try await terminal.waitFor("no pictures in this terminal: none (REEL_IMAGES=none)")
        try await terminal.type("Enter")
        try await terminal.waitFor("s saves")
        // The overview's first line: below TMDb's facts and OMDb's (the sample has Wonka's).
        func overview(_ cells: ScreenCells) -> Int? { (2..<31).first { cells.text(row: $0, columns: 0..<110).hasPrefix("Young Willy Wonka") } }
        let cells = try await Self.settled(terminal) { overview($0) != nil }
        #expect(cells.pictureCells.isEmpty)
        // The overview wraps at the screen's width, not beside a poster.
        let row = try #require(overview(cells), "\((0..<32).map { cells.text(row: $0, columns: 0..<110) })")
        #expect(cells.text(row: row, columns: 80..<110).count > 10, "\(cells.text(row: row, columns: 0..<110))")
        try await terminal.type("Escape", "q")
        try await terminal.waitFor("exit 0")
        try terminal.expectTerminalRestored()
    }

    /// Keys typed while `reel ui` asks the terminal what it shows (here nobody answers: the whole
    /// 150 ms) are read as keys once the app starts, not lost with the answers.
    @Test func keysTypedWhileTheTerminalIsAskedAreNotLost() async throws {
        var environment = Self.sampleHome()
        environment["TERM"] = "xterm-256color"
        let terminal = try RawTerminal([Harness.binaries + "/reel", "ui"], environment: environment, width: 100, height: 30)
        try terminal.type("5")
        let asked = try await terminal.waitFor("\u{1B}[c")
        // The Settings tab (curses writes only the cells that change, so a text new to the screen).
        try await terminal.waitFor("account keys", from: asked)
        try terminal.type("q")
        await #expect(try terminal.waitForExit() == 0)
    }

    @Test func kittyImagesAreDeletedByIdWhenTheyGoAndAllAtTheEnd() async throws {
        var environment = Self.sampleHome()
        environment["TERM"] = "xterm-256color"
        environment["REEL_IMAGES"] = "kitty"
        let terminal = try RawTerminal([Harness.binaries + "/reel", "ui"], environment: environment, width: 110, height: 32)
        try await terminal.waitFor("Wonka")
        try await terminal.settle()
        try terminal.type("\r")
        let placed = try await terminal.waitFor("\u{1B}_Ga=T,q=2,C=1,i=")
        let id = String(decoding: terminal.output[placed...].prefix { (0x30...0x39).contains($0) }, as: UTF8.self)
        #expect(!id.isEmpty)
        try await terminal.settle()
        // Moving over the details sends no image again; it is placed again where it is (curses
        // may have scrolled the rows beside it), by its id.
        let before = terminal.output.count
        try terminal.type("j")
        try await terminal.settle()
        #expect(RawTerminal.find(Array("\u{1B}_Ga=T".utf8), in: terminal.output, from: before) == nil)
        #expect(RawTerminal.find(Array("\u{1B}_Ga=d,d=i,i=\(id),q=2\u{1B}\\".utf8), in: terminal.output, from: before) != nil)
        #expect(RawTerminal.find(Array("\u{1B}_Ga=p,i=\(id),C=1,q=2\u{1B}\\".utf8), in: terminal.output, from: before) != nil)
        try terminal.type("\u{1B}")
        let deleted = try await terminal.waitFor("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\", from: placed)
        try await terminal.settle()
        try terminal.type("q")
        await #expect(try terminal.waitForExit() == 0)
        #expect(RawTerminal.find(Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8), in: terminal.output, from: deleted) != nil, "every image deleted at the end")
    }
}
