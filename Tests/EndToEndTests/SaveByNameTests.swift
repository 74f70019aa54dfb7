import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// `reel fav add|remove` by title (issue 19, "Save by name"), through the built binary with the
/// bundled sample catalog: a title that clearly wins is saved and named; several are listed and
/// nothing is saved (64), or offered as a numbered choice at a real terminal; none is 66; ids and
/// `series` as a media type keep working.
@Suite struct SaveByNameTests {
    typealias Ledger = LedgerHome

    /// Exit `status` and one line on stderr naming `message`, besides the sample catalog's note.
    @discardableResult
    static func fails(_ ledger: Ledger, _ arguments: [String], status: Int32, _ message: String) async throws -> String {
        let out = try await ledger.reel(arguments, user: "ann")
        let lines = out.stderr.split(separator: "\n").filter { !$0.hasPrefix("reel: note:") }
        #expect(out.status == status, "\(arguments): exit \(out.status), \(out.stderr)")
        #expect(lines.count == 1 && lines[0].hasPrefix("reel: ") && lines[0].contains(message), "\(arguments): \(out.stderr)")
        #expect(out.stdout.isEmpty, "\(arguments): \(out.stdout)")
        return out.stderr
    }

    static func saved(_ ledger: Ledger) async throws -> [String] {
        let list = try await ledger.json(["saved"], user: "ann", schema: "saved.schema.json")
        return (list["items"] as? [[String: Any]] ?? []).map { "\($0["mediaType"] ?? "?") \($0["id"] ?? "?")" }
    }

    @Test func aTitleThatClearlyWinsIsSavedAndNamed() async throws {
        let ledger = Ledger()
        let added = try await ledger.reel(["fav", "add", "fight club"], user: "ann")
        #expect(added.status == 0 && added.stdout.contains("added movie 550 Fight Club (1999)"), "\(added.stdout)\(added.stderr)")
        // An exact title beats longer ones ("Dune" over "Dune: Part Two"); words need no quotes.
        let dune = try await ledger.reel(["fav", "add", "Dune"], user: "ann")
        #expect(dune.status == 0 && dune.stdout.contains("added movie 438631 Dune (2021)"), "\(dune.stdout)\(dune.stderr)")
        let series = try await ledger.reel(["fav", "add", "series", "breaking", "bad"], user: "ann")
        #expect(series.status == 0 && series.stdout.contains("added tv 1396 Breaking Bad (2008)"), "\(series.stdout)\(series.stderr)")
        let typed = try await ledger.reel(["fav", "add", "the office", "--type", "series"], user: "ann")
        #expect(typed.status == 0 && typed.stdout.contains("added tv 2316 The Office"), "\(typed.stdout)\(typed.stderr)")
        await #expect(try Self.saved(ledger) == ["movie 550", "movie 438631", "tv 1396", "tv 2316"])

        let removed = try await ledger.reel(["fav", "remove", "Fight Club"], user: "ann")
        #expect(removed.status == 0 && removed.stdout.contains("removed movie 550 Fight Club (1999)"), "\(removed.stdout)\(removed.stderr)")
        await #expect(try Self.saved(ledger) == ["movie 438631", "tv 1396", "tv 2316"])
    }

    /// `reel show` takes a title as `fav add` does: the one that clearly wins is shown, with
    /// whether it is saved; several are named (64, with `show` in the advice); ids work as before.
    @Test func showTakesATitleToo() async throws {
        let ledger = Ledger()
        #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: "ann").status == 0)
        let byTitle = try await ledger.json(["show", "fight club"], user: "ann", schema: "show.schema.json")
        #expect(byTitle["id"] as? Int == 550 && byTitle["mediaType"] as? String == "movie" && byTitle["saved"] as? Bool == true, "\(byTitle)")
        let text = try await ledger.reel(["show", "breaking", "bad"], user: "ann")
        #expect(text.status == 0 && text.stdout.hasPrefix("Breaking Bad (2008)  tv 1396"), "\(text.stdout)\(text.stderr)")
        let byId = try await ledger.json(["show", "series", "1396"], user: "ann", schema: "show.schema.json")
        #expect(byId["id"] as? Int == 1396 && byId["saved"] as? Bool == false, "\(byId)")
        try await Self.fails(ledger, ["show", "avengers"], status: 64, "\"avengers\" could be 2 titles")
        let advice = try await ledger.reel(["show", "avengers"], user: "ann")
        #expect(advice.stderr.contains("nothing shown. Name one by id (reel show movie "), "\(advice.stderr)")
        try await Self.fails(ledger, ["show", "zq no such film"], status: 66, "no movie or series matches \"zq no such film\"")
        try await Self.fails(ledger, ["show", "movie", "550", "603"], status: 64, "show takes one title")
    }

    @Test func severalCandidatesAreNamedAndNothingIsSaved() async throws {
        let ledger = Ledger()
        #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: "ann").status == 0)
        let out = try await ledger.reel(["fav", "add", "avengers"], user: "ann")
        #expect(out.status == 64, "\(out.stderr)")
        #expect(out.stdout.isEmpty && out.stderr.split(separator: "\n").filter { !$0.hasPrefix("reel: note:") }.count == 1, "\(out.stdout)\(out.stderr)")
        for fragment in ["\"avengers\" could be 2 titles", "movie 299534 Avengers: Endgame (2019)", "movie 299536 Avengers: Infinity War (2018)", "nothing saved"] {
            #expect(out.stderr.contains(fragment), "\(out.stderr) should name \(fragment)")
        }
        // --year narrows to one.
        let narrowed = try await ledger.reel(["fav", "add", "avengers", "--year", "2018"], user: "ann")
        #expect(narrowed.status == 0 && narrowed.stdout.contains("added movie 299536 Avengers: Infinity War (2018)"), "\(narrowed.stdout)\(narrowed.stderr)")
        await #expect(try Self.saved(ledger) == ["movie 550", "movie 299536"])
    }

    @Test func nothingFoundIs66AndMistakesAre64() async throws {
        let ledger = Ledger()
        #expect(try await ledger.reel(["fav", "add", "movie", "550"], user: "ann").status == 0)
        try await Self.fails(ledger, ["fav", "add", "fight club", "--year", "2005"], status: 66, "no movie or series from 2005 matches \"fight club\"; try reel search \"fight club\"")
        try await Self.fails(ledger, ["fav", "add", "no such title anywhere"], status: 66, "no movie or series matches \"no such title anywhere\"")
        try await Self.fails(ledger, ["fav", "add", "movie", "550", "--year", "1999"], status: 64, "--type and --year narrow a title; ids need neither")
        try await Self.fails(ledger, ["fav", "add", "movie", "heat", "--type", "series"], status: 64, "'movie' and --type series disagree")
        try await Self.fails(ledger, ["fav", "add"], status: 64, "give a title, or movie or series and TMDb ids")
        try await Self.fails(ledger, ["fav", "add", "\u{200B}"], status: 64, "give a title to search for")
        try await Self.fails(ledger, ["fav", "add", "movie", "55x"], status: 64, "55x")
        await #expect(try Self.saved(ledger) == ["movie 550"])
    }

    @Test func idsAndSeriesAsAMediaTypeKeepWorking() async throws {
        let ledger = Ledger()
        #expect(try await ledger.reel(["fav", "add", "movie", "550", "603"], user: "ann").status == 0)
        #expect(try await ledger.reel(["fav", "add", "series", "1396"], user: "ann").status == 0)
        #expect(try await ledger.reel(["fav", "add", "movies", "13"], user: "ann").status == 0)
        await #expect(try Self.saved(ledger) == ["movie 550", "movie 603", "tv 1396", "movie 13"])
        let series = try await ledger.reel(["saved", "--type", "series"], user: "ann")
        #expect(series.status == 0 && series.stdout.contains("Breaking Bad") && !series.stdout.contains("Fight Club"), "\(series.stdout)\(series.stderr)")
        let show = try await ledger.reel(["show", "series", "1396"], user: "ann")
        #expect(show.status == 0 && show.stdout.contains("Breaking Bad"), "\(show.stdout)\(show.stderr)")
    }

    /// At a terminal the candidates are numbered and one can be picked; Enter cancels.
    @Test func aTerminalOffersANumberedChoice() async throws {
        let ledger = Ledger()
        let environment = [
            "TMDB_API_TOKEN": "", "TMDB_API_KEY": "", "XDG_CONFIG_HOME": ledger.dir + "/config", "REEL_DATA_DIR": ledger.dir,
            "REEL_USER": "ann", "NO_COLOR": "1",
        ]
        let pick = try await TerminalSession([Harness.binaries + "/reel", "fav", "add", "the hobbit"], environment: environment)
        defer { pick.end() }
        let asked = try await pick.waitFor("Which one? [1-3, Enter to cancel]")
        #expect(asked.contains("1  movie") && asked.contains("The Hobbit: An Unexpected Journey (2012)"), "\(asked)")
        let line = try #require(asked.split(separator: "\n").first { $0.contains("The Hobbit: The Desolation of Smaug") })
        let number = String(line.trimmingCharacters(in: .whitespaces).prefix(1))
        try await pick.type(number, "Enter")
        let done = try await pick.waitFor("exit ")
        #expect(done.contains("added movie 57158 The Hobbit: The Desolation of Smaug (2013)") && done.contains("exit 0"), "\(done)")
        await #expect(try Self.saved(ledger) == ["movie 57158"])

        let cancel = try await TerminalSession([Harness.binaries + "/reel", "fav", "add", "the hobbit"], environment: environment)
        defer { cancel.end() }
        try await cancel.waitFor("Which one?")
        try await cancel.type("Enter")
        let cancelled = try await cancel.waitFor("exit ")
        #expect(cancelled.contains("reel: cancelled; nothing saved") && cancelled.contains("exit 64"), "\(cancelled)")
        await #expect(try Self.saved(ledger) == ["movie 57158"])

        // More candidates than the nine listed: the rest are counted, and how to narrow is said.
        let many = try await TerminalSession([Harness.binaries + "/reel", "fav", "add", "the"], environment: environment)
        defer { many.end() }
        let listed = try await many.waitFor("Which one? [1-9, Enter to cancel]")
        #expect(listed.contains("  and 11 more (narrow with --type and --year)"), "\(listed)")
        #expect(listed.contains("tv 2316 The Office (2005)"), "\(listed)")
        try await many.type("Enter")
        await #expect(try many.waitFor("exit ").contains("exit 64"))
    }

    /// Candidates name a title's id as every list and history line does (`tv 1396`), and the
    /// command suggested works as written.
    @Test func candidatesNameIdsAsListsDo() async throws {
        let ledger = Ledger()
        let refused = try await Self.fails(ledger, ["fav", "add", "bad"], status: 64, "\"bad\" could be 2 titles: tv 1396 Breaking Bad (2008), movie 429")
        #expect(refused.contains("Name one by id (reel fav add tv 1396)"), "\(refused)")
        let suggested = try await ledger.reel(["fav", "add", "tv", "1396"], user: "ann")
        #expect(suggested.status == 0 && suggested.stdout.contains("added tv 1396 Breaking Bad (2008)"), "\(suggested.stderr)")
    }
}
