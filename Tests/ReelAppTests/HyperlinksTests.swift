import Reel
import ReelApp
import Testing

/// Trailer, poster and backdrop lines of the details screen are recorded as links (the cells
/// written, to a safe URL), which the driver makes OSC 8 hyperlinks where the terminal shows them.
@Suite struct HyperlinksTests {
    static let trailer = "https://www.youtube.com/watch?v=vKQi3bBA1y8"

    static func draw(_ details: DetailsScreen, width: Int = 80, height: Int = 24) -> ScreenBuffer {
        var model = SearchViewTests.searched(editing: false)
        model.width = width
        model.height = height
        model.screens = [.details(details)]
        return AppView.draw(model)
    }

    /// (row, column, width, url) of each link: what a test compares.
    static func regions(_ buffer: ScreenBuffer) -> [String] {
        buffer.links.map { "\($0.row) \($0.column) \($0.width) \($0.url)" }
    }

    @Test func theTrailerLineAt80x24IsALinkOverItsText() {
        let buffer = Self.draw(SearchViewTests.matrixDetails())
        let lines = buffer.lines()
        let text = "Trailer: \(Self.trailer) · Trailer"
        let row = lines.firstIndex(of: "  " + text)
        #expect(row != nil, "\n\(lines.joined(separator: "\n"))")
        #expect(Self.regions(buffer) == ["\(row ?? -1) 2 \(text.count) \(Self.trailer)"])
        // The linked cells hold the visible text, URL included.
        let link = buffer.links[0]
        let cells = buffer.rows[link.row][link.column..<link.column + link.width].map(\.text).joined()
        #expect(cells == text)
    }

    @Test func aSelectedTrailerLineStaysALinkAndOtherLinesAreNone() {
        var details = SearchViewTests.matrixDetails()
        var lines = Self.draw(details).lines()
        let row = lines.firstIndex { $0.hasPrefix("  Trailer: ") } ?? 0
        // The cursor on the trailer's line (the list starts at row 2).
        details.cursor = ListCursor(position: row - 2)
        let buffer = Self.draw(details)
        lines = buffer.lines()
        #expect(lines[row].hasPrefix("› Trailer: "), "\n\(lines.joined(separator: "\n"))")
        #expect(Self.regions(buffer) == ["\(row) 2 \("Trailer: \(Self.trailer) · Trailer".count) \(Self.trailer)"])
        #expect(buffer.rows[row][2].style.attributes.contains(.reverse))
        // The help drawn over the details leaves no link under it.
        var model = SearchViewTests.searched(editing: false)
        model.screens = [.details(details)]
        model.showsHelp = true
        let help = AppView.draw(model)
        #expect(help.links.allSatisfy { link in !help.rows[link.row][link.column..<link.column + link.width].map(\.text).joined().contains("quit") })
        #expect(help.links.count < buffer.links.count, "\(Self.regions(help))")
        // Other screens have none.
        model.screens = []
        model.showsHelp = false
        #expect(AppView.draw(model).links.isEmpty)
    }

    @Test func aWrappedPosterURLLinksEveryPieceAndAScrolledOffLinkIsNone() {
        var details = SearchViewTests.matrixDetails()
        let poster = "https://image.tmdb.org/t/p/original/" + String(repeating: "f", count: 60) + ".jpg"
        details.details?.posterURL = poster
        details.details?.backdropURL = "https://image.tmdb.org/t/p/original/backdrop.jpg"
        let buffer = Self.draw(details, height: 40)
        let lines = buffer.lines()
        let first = lines.firstIndex { $0.hasPrefix("  Poster:") } ?? -1
        let backdrop = lines.firstIndex { $0.hasPrefix("  Backdrop: ") } ?? -1
        // "Poster:", then the URL broken in two: three linked pieces.
        #expect(first > 0 && backdrop == first + 3, "\n\(lines.joined(separator: "\n"))")
        guard first > 0, backdrop == first + 3 else { return }
        let pieces = (first..<backdrop).map { "\($0) 2 \(lines[$0].dropFirst(2).count) \(poster)" }
        #expect(Array(Self.regions(buffer).dropFirst()) == pieces + [
            "\(backdrop) 2 \("Backdrop: https://image.tmdb.org/t/p/original/backdrop.jpg".count) https://image.tmdb.org/t/p/original/backdrop.jpg"
        ], "\n\(lines.joined(separator: "\n"))")
        // Scrolled to the last line on a short screen: the links' lines are off it.
        details.cursor = ListCursor(position: 99)
        let scrolled = Self.draw(details, height: 12)
        #expect(!scrolled.lines().contains { $0.contains("https://") })
        #expect(scrolled.links.isEmpty, "\(Self.regions(scrolled))")
    }

    @Test func anUnsafeURLIsShownWithoutALink() {
        for url in [
            "https://x.test/\u{1B}]8;;evil\u{1B}\\", "https://x.test/a b", "https://x.test/\u{07}", "https://x.test/a\\b",
            "https://x.test/é", "", "https://x.test/" + String(repeating: "a", count: 2100),
        ] {
            #expect(Hyperlinks.safe(url) == nil, "\(url.debugDescription)")
            var details = SearchViewTests.matrixDetails()
            details.details?.trailers = [.init(name: "Trailer", url: url)]
            let buffer = Self.draw(details, height: 60)
            #expect(buffer.links.isEmpty, "\(url.debugDescription): \(Self.regions(buffer))")
            #expect(!buffer.lines().joined().contains("\u{1B}"))
        }
        #expect(Hyperlinks.safe(Self.trailer) == Self.trailer)
        #expect(Hyperlinks.safe("https://x.test/a?b=c&d=%20#e~") != nil)
        // The buffer refuses one too, and links count in equality.
        var buffer = ScreenBuffer(width: 20, height: 2)
        buffer.write("link", row: 0, column: 0)
        let plain = buffer
        buffer.link(row: 0, column: 0, width: 4, url: "https://x.test/\u{1B}")
        buffer.link(row: 5, column: 0, width: 4, url: "https://x.test/")
        #expect(buffer == plain)
        buffer.link(row: 0, column: 0, width: 40, url: "https://x.test/")
        #expect(buffer != plain && Self.regions(buffer) == ["0 0 20 https://x.test/"])
        // Text written over a link's cells ends it; on another row, not.
        buffer.write("x", row: 1, column: 0)
        #expect(buffer.links.count == 1)
        buffer.write("x", row: 0, column: 18)
        #expect(buffer.links.isEmpty)
    }

    @Test(arguments: [
        ([:], false),
        (["TERM": "xterm-256color"], false),
        (["TERM": "xterm-256color", "REEL_HYPERLINKS": "1"], true),
        (["TERM_PROGRAM": "iTerm.app", "REEL_HYPERLINKS": "0"], false),
        (["TERM": "dumb", "REEL_HYPERLINKS": "1"], true),
        (["TERM_PROGRAM": "iTerm.app"], true),
        (["TERM_PROGRAM": "WezTerm"], true),
        (["TERM_PROGRAM": "vscode"], true),
        (["TERM_PROGRAM": "ghostty"], true),
        (["TERM_PROGRAM": "Hyper"], true),
        (["TERM_PROGRAM": "Apple_Terminal"], false),
        (["VTE_VERSION": "7600"], true),
        (["VTE_VERSION": "5000"], true),
        (["VTE_VERSION": "4601"], false),
        (["KITTY_WINDOW_ID": "1"], true),
        (["WT_SESSION": "abc"], true),
        (["TERM": "xterm-kitty"], true),
        (["TERM": "foot-extra"], true),
        (["TERM": "alacritty"], true),
        (["TERM": "dumb", "TERM_PROGRAM": "WezTerm"], false),
        (["TERM_PROGRAM": "WezTerm", "NO_HYPERLINKS": "1"], false),
        (["TMUX": "/tmp/tmux-1/default,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"], false),
        (["TMUX": "/tmp/tmux-1/default,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4"], true),
        (["TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.5a"], true),
        (["TMUX": "/tmp/tmux-1/default,1,0", "VTE_VERSION": "7600", "TERM": "tmux-256color"], false),
        (["TMUX": "/tmp/tmux-1/default,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "2.9"], false),
    ] as [([String: String], Bool)])
    func supportIsDetectedFromTheEnvironment(environment: [String: String], expected: Bool) {
        #expect(Hyperlinks.supported(environment: environment) == expected, "\(environment)")
    }
}
