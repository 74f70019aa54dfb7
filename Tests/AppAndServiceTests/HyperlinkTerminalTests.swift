import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// `reel ui` in a pseudo-terminal whose bytes are read as they come (tmux 3.3a drops OSC 8, so
/// `TerminalSession` cannot show them): a title's trailer is an OSC 8 hyperlink around its visible
/// text when `REEL_HYPERLINKS=1`, and plain text when `REEL_HYPERLINKS=0`.
@Suite struct HyperlinkTerminalTests {
    static let open = "\u{1B}]8;;"
    static let terminator = "\u{1B}\\"
    static let trailer = "https://www.youtube.com/watch?v=dfeUzm6KF4g"

    /// Fight Club's details (it has trailers on the fake server), opened from Search; the output
    /// from the start, and the offset where the list of results was first drawn.
    static func fightClubDetails(_ server: FakeTMDbProcess, hyperlinks: String) async throws -> (RawTerminal, results: Int) {
        var environment = AppSession.environment(server)
        environment["TERM"] = "xterm-256color"
        environment["REEL_HYPERLINKS"] = hyperlinks
        // The details as this test knows them: no poster beside them (issue 21), which at 100
        // columns would take 32 of them and wrap the trailer's line.
        environment["REEL_IMAGES"] = "none"
        let terminal = try RawTerminal([Harness.binaries + "/reel", "ui"], environment: environment, width: 100, height: 30)
        try await terminal.waitFor("Fight Club")
        try terminal.type("3")
        try await terminal.waitFor("Benedict Cumberbatch")
        try terminal.type("\u{1B}OC")  // Right, as keypad mode sends it
        try await terminal.settle(quiet: 100)
        try terminal.type("fight club")
        let results = try await terminal.waitFor("club”")
        try await terminal.settle()
        try terminal.type("\r")
        try await terminal.settle(quiet: 100)
        try terminal.type("\r")
        try await terminal.waitFor("s saves", from: results)
        try await terminal.settle(quiet: 500)
        return (terminal, results)
    }

    /// `q` back to the results, `q` again quits: exit 0.
    static func quit(_ terminal: RawTerminal) async throws {
        try terminal.type("q")
        try await terminal.settle(quiet: 200)
        try terminal.type("q")
        await #expect(try terminal.waitForExit() == 0)
    }

    @Test func aTrailerIsAnOSC8LinkAroundItsVisibleText() async throws {
        let server = try FakeTMDbProcess()
        let (terminal, results) = try await Self.fightClubDetails(server, hyperlinks: "1")
        let output = terminal.text
        // No link before the details: the lists draw as before.
        #expect(RawTerminal.find(Array(Self.open.utf8), in: Array(terminal.output[..<results])) == nil)
        // The link opens with the URL, holds the visible line (URL and name), then closes.
        let prefix = Self.open + Self.trailer + Self.terminator + "Trailer: " + Self.trailer + " · "
        let start = output.range(of: prefix)
        #expect(start != nil, "\(output.suffix(3000).debugDescription)")
        if let start {
            let rest = output[start.upperBound...]
            let close = rest.range(of: Self.open + Self.terminator)
            #expect(close.map { rest[..<$0.lowerBound] } == "20th Anniversary Trailer", "\(rest.prefix(200).debugDescription)")
        }
        // Every trailer and the poster: opened and closed alike.
        let opened = output.components(separatedBy: Self.open + "http").count - 1
        let closed = output.components(separatedBy: Self.open + Self.terminator).count - 1
        #expect(opened >= 4 && opened == closed, "\(opened) opened, \(closed) closed")
        // The fake server names itself as the image host.
        #expect(output.contains(Self.open + server.root + "/t/p/w500/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg" + Self.terminator + "Poster: "))
        // The cursor goes from one line that acts to the next (the first trailer, then the
        // second): the lines written again keep their links, each opened and closed.
        try terminal.type("j")
        try await terminal.settle()
        let before = terminal.output.count
        try terminal.type("j")
        try await terminal.settle()
        let written = String(decoding: terminal.output[before...], as: UTF8.self)
        let again = written.components(separatedBy: Self.open + "http").count - 1
        #expect(again >= 1 && again == written.components(separatedBy: Self.open + Self.terminator).count - 1, "\(again) links written again")
        try await Self.quit(terminal)
    }

    @Test func withoutHyperlinksTheTrailerIsText() async throws {
        let server = try FakeTMDbProcess()
        let (terminal, _) = try await Self.fightClubDetails(server, hyperlinks: "0")
        #expect(terminal.text.contains("youtube.com/watch?v=dfeUzm6KF4g"), "\(terminal.text.suffix(3000).debugDescription)")
        #expect(!terminal.text.contains("\u{1B}]8;"))
        try await Self.quit(terminal)
    }
}
