import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// OMDb in `reel ui`, in a real terminal (tmux), with the sample catalog and no keys at all (its
/// OMDb facts answered in-process): the saved list's IMDb column, `s` sorting it by OMDb's
/// scores (the column shows the score sorted by, titles without it last), and the details
/// screen's Ratings, Awards (the trophy row), certificate and box office, Director and Writer lines.
@Suite struct TerminalOMDbTests {
    /// A home on the sample catalog: no TMDb or OMDb credentials.
    static func sampleHome() -> [String: String] {
        [
            "REEL_DATA_DIR": temporaryDirectory("omdb-ui-data"), "XDG_CONFIG_HOME": temporaryDirectory("omdb-ui-config"),
            "XDG_STATE_HOME": temporaryDirectory("omdb-ui-state"), "REEL_USER": "ann", "LANG": "C.UTF-8",
        ]
    }

    /// `reel ui` in `home` without the test's own credentials, between two `stty -a`.
    static func session(_ home: [String: String], width: Int = 100, height: Int = 30) async throws -> TerminalSession {
        try await AppSession.start(nil, width: width, height: height, home: home, unset: ["TMDB_API_TOKEN", "TMDB_API_KEY", "OMDB_API_KEY", "REEL_TMDB_BASE_URL", "REEL_OMDB_BASE_URL"])
    }

    /// The screen's lines that name `titles`, in the order shown, once they are in `order` (20 s
    /// at most: the list comes back from the core after the heading changed).
    static func rows(_ terminal: TerminalSession, _ titles: [String], inOrder order: [String]) async throws -> [String] {
        var budget = WaitBudget(seconds: 20)
        var rows: [String] = []
        while !budget.isSpent {
            rows = try await terminal.screen().split(separator: "\n").map(String.init).filter { line in titles.contains { line.contains($0) } }
            if rows.count == order.count, zip(rows, order).allSatisfy({ $0.contains($1) }) { break }
            try await budget.pause()
        }
        return rows
    }

    @Test func theSavedListSortsByOMDbsScoresAndTheDetailsShowThem() async throws {
        let home = Self.sampleHome()
        let reel = Home(environment: home)
        // The Godfather (IMDb 9.2, Metacritic 100), Skellig (OMDb has no score), The Shawshank
        // Redemption (9.3, 82), saved in that order.
        let added = try await reel.reel(["fav", "add", "movie", "238", "17046", "278"], environment: ["OMDB_API_KEY": ""])
        #expect(added.status == 0, "\(added.stderr)")
        let terminal = try await Self.session(home)
        defer { terminal.end() }
        try await terminal.waitFor("Discover movies")
        try await terminal.type("4")
        try await terminal.waitFor("The Shawshank Redemption")
        let titles = ["The Godfather", "Skellig", "The Shawshank Redemption"]
        var rows = try await Self.rows(terminal, titles, inOrder: titles)
        #expect(rows.count == 3 && rows[0].hasSuffix("IMDb 9.2") && rows[1].hasSuffix("IMDb –") && rows[2].hasSuffix("IMDb 9.3"), "\(rows)")
        // title, release, rating, then IMDb: the best first, the title without a score last.
        try await terminal.type("s", "s", "s", "s")
        var screen = try await terminal.waitFor("Saved · by IMDb rating, best first")
        rows = try await Self.rows(terminal, titles, inOrder: ["The Shawshank Redemption", "The Godfather", "Skellig"])
        #expect(rows.count == 3 && rows[0].contains("Shawshank") && rows[1].contains("Godfather") && rows[2].hasSuffix("IMDb –"), "\(rows)")
        // The Metascore: the column shows it.
        try await terminal.type("s")
        screen = try await terminal.waitFor("Saved · by Metascore, best first")
        rows = try await Self.rows(terminal, titles, inOrder: ["The Godfather", "The Shawshank Redemption", "Skellig"])
        #expect(rows.count == 3 && rows[0].hasSuffix("MC 100") && rows[1].hasSuffix("MC 82") && rows[2].hasSuffix("MC –"), "\(rows)\n\(screen)")
        // The Godfather's details: OMDb's lines after TMDb's facts.
        try await terminal.type("g", "Enter")
        screen = try await terminal.waitFor("Awards:")
        for line in [
            "Ratings: IMDb 9.2 (2.1M votes) · Rotten Tomatoes 97%", "Awards: 🏆🏆🏆 3 Oscars · 31 wins · 31 nominations", "Rated R · box office $136,381,073",
            "Writer: Mario Puzo, Francis Ford Coppola",
        ] {
            #expect(screen.contains(line), "\(line) in\n\(screen)")
        }
        // OMDb's director is TMDb's `Directed by`: named once.
        #expect(!screen.contains("Director: Francis Ford Coppola"), "\(screen)")
        // The trophies take two columns each: what follows them is where the app put it.
        let awards = screen.split(separator: "\n").first { $0.contains("Awards:") }.map(String.init) ?? ""
        #expect(awards.hasPrefix("  Awards: 🏆🏆🏆 3 Oscars"), "\(awards)")
        // The Shawshank Redemption: nominated, not won.
        try await terminal.type("Escape", "j", "Enter")
        screen = try await terminal.waitFor("Awards: nominated for 7 Oscars · 21 wins · 42 nominations")
        #expect(screen.contains("Ratings: IMDb 9.3 (3M votes) · Rotten Tomatoes 89%") && screen.contains("Rated R · box office $28,767,189"), "\(screen)")
        try await terminal.type("Escape", "q")
        try await terminal.waitFor("exit 0")
        try terminal.expectTerminalRestored()
    }
}
