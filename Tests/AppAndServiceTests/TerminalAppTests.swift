import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// `reel ui` in a real terminal (tmux, 100×30) against the fake TMDb server: the Movies tab
/// lists the discover list, paging asks for each page once, tabs switch, `q` and ctrl-c quit with
/// the terminal as it was, a resize lays the screen out again, typing a search quickly asks the
/// server once, and a title saved from its details is in the ledger another process reads.
@Suite struct TerminalAppTests {
    /// How often the server was asked for `path` at `page`.
    static func asked(_ server: FakeTMDbProcess, _ path: String, page: Int) async throws -> Int {
        await (try server.stats()["byPage"] as? [String: Int])?["\(path)?page=\(page)"] ?? 0
    }

    @Test func moviesPageOnceEachSeriesAndQuitRestoringTheTerminal() async throws {
        let server = try FakeTMDbProcess()
        let terminal = try await AppSession.start(server)
        defer { terminal.end() }
        var screen = try await terminal.waitFor("Fight Club")
        #expect(screen.contains("1 Movies") && screen.contains("Discover movies"), "\(screen)")
        #expect(screen.contains("ann · en") && screen.contains("TMDb"), "the status line: \(screen)")
        // To the end, page by page: TMDb's last page says so; each page was asked for once.
        for _ in 0..<12 {
            try await terminal.type("G")
            if try await terminal.settledScreen().contains("end of the list") { break }
        }
        screen = try await terminal.waitFor("end of the list: TMDb's last page")
        var pages: [Int] = []
        for page in 1...6 { pages.append(try await Self.asked(server, "/discover/movie", page: page)) }
        #expect(pages[1] == 1, "page 2 asked for once: \(pages)")
        #expect(pages.dropLast().allSatisfy { $0 == 1 } && pages.last == 0, "pages 1-5 once each, none past the last: \(pages)")
        try await terminal.type("g", "j")
        try await terminal.waitFor("›")

        try await terminal.type("2")
        screen = try await terminal.waitFor("Discover series")
        try await terminal.waitFor("Breaking Bad")
        try await terminal.type("q")
        screen = try await terminal.waitFor("exit 0")
        try terminal.expectTerminalRestored()
    }

    /// The genre picker narrows the discover list, `o` sorts it another way, `l` switches to a
    /// chart: each asks TMDb for the list afresh and the heading says what is shown.
    @Test func genresSortAndChartsChangeWhatMoviesLists() async throws {
        let server = try FakeTMDbProcess()
        let terminal = try await AppSession.start(server)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        // `/` narrows the titles loaded as typed, asking nothing; esc brings them all back.
        try await terminal.type("/", "fight")
        try await terminal.waitFor("/ fight▏")
        let filtered = try await terminal.waitFor(" loaded")
        #expect(filtered.contains("1 of ") && filtered.contains("Fight Club") && filtered.contains("the list loads on"), "\(filtered)")
        try await terminal.type("Escape")
        let all = try await terminal.waitForScreen { $0.contains(" titles") && !$0.contains("/ fight") }
        #expect(!all.contains("loaded"), "every title loaded is listed again: \(all)")
        try await terminal.type("f")
        try await terminal.waitFor("space chooses")
        try await terminal.type("j", "j")
        try await terminal.waitFor("›[ ] Animation")
        try await terminal.type("Space")
        try await terminal.waitFor("›[x] Animation")
        try await terminal.type("Enter")
        var screen = try await terminal.waitFor("Discover movies · by popularity, descending · Animation")
        screen = try await terminal.waitFor("Toy Story")
        #expect(!screen.contains("Fight Club") && !screen.contains("space chooses"), "the picker closed: \(screen)")
        try await terminal.type("o")
        try await terminal.waitFor("by release date, descending · Animation")
        try await terminal.type("l")
        screen = try await terminal.waitFor("Popular movies")
        // The heading changes at once; the page comes when the server has answered.
        try await waitFor("the popular list to be asked for") { ((try? await Self.asked(server, "/movie/popular", page: 1)) ?? 0) > 0 }
        try await waitFor("the popular list to arrive") { (try? await terminal.screen().contains("loading")) == false }
        screen = try await terminal.screen()
        #expect(screen.contains(" titles"), "the popular list arrived: \(screen)")
        let popular = try await Self.asked(server, "/movie/popular", page: 1)
        #expect(popular == 1, "/movie/popular page 1 asked for \(popular) times")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
        try terminal.expectTerminalRestored()
    }

    @Test func ctrlCQuitsAndRestoresTheTerminal() async throws {
        let server = try FakeTMDbProcess()
        let terminal = try await AppSession.start(server)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        try await terminal.type("?")
        try await terminal.waitFor("quit, always")
        try await terminal.type("C-c")
        try await terminal.waitFor("exit 0")
        try terminal.expectTerminalRestored()
    }

    @Test func aResizeLaysTheScreenOutAgain() async throws {
        let server = try FakeTMDbProcess()
        let terminal = try await AppSession.start(server)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        try await terminal.resize(width: 60, height: 20)
        try await terminal.waitFor("this one is 60×20")
        try await terminal.resize(width: 120, height: 40)
        let screen = try await terminal.waitFor("Fight Club")
        let status = screen.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.contains("q quit") }
        #expect(status.count == 1 && status[0].count <= 120 && status[0].hasSuffix("q quit"), "the status line at 120 columns: \(screen)")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }

    /// `keys.toml` binds other keys: they act, the defaults they replaced do not, and the help
    /// says so; a file binding one key twice stops the app before it takes the screen.
    @Test func keysTomlRebindsKeysAndAConflictIsOneLineNamingTheLine() async throws {
        let server = try FakeTMDbProcess()
        let terminal = try await AppSession.start(server, keys: "[keys]\ndown = \"n\"\nquit = \"Q\"\n")
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        try await terminal.type("n", "n")
        // The tab bar, the heading, the header row, then the rows: the third row is line 5.
        var screen = try await terminal.waitForScreen { $0.split(separator: "\n").firstIndex { $0.hasPrefix("›") } == 5 }
        #expect(screen.split(separator: "\n").firstIndex { $0.hasPrefix("›") } == 5, "n moved the cursor two rows down: \(screen)")
        try await terminal.type("j", "q")
        // A fixed delay is what this checks: keys that are unbound do nothing, within the time
        // any key takes to show.
        try await Task.sleep(for: .milliseconds(300))
        screen = try await terminal.screen()
        #expect(screen.split(separator: "\n").firstIndex { $0.hasPrefix("›") } == 5 && !screen.contains("exit "), "j and q are unbound: \(screen)")
        try await terminal.type("?")
        try await terminal.waitFor("quit, always")
        screen = try await terminal.screen()
        #expect(screen.contains("n ↑") == false && screen.contains("n  k ↑"), "\(screen)")
        try await terminal.type("Escape", "Q")
        try await terminal.waitFor("exit 0")
        try terminal.expectTerminalRestored()

        let conflict = try await AppSession.start(server, keys: "[keys]\ndown = \"n\"\n\nyear = \"n\"\n")
        defer { conflict.end() }
        screen = try await conflict.waitFor("exit 64")
        // The pane wraps the one line at 100 columns.
        let joined = screen.replacingOccurrences(of: "\n", with: "")
        #expect(joined.contains("reel: ") && joined.contains("keys.toml line 4: n is bound to both down and year"), "\(screen)")
        try conflict.expectTerminalRestored()
    }

    /// The app open on the Saved tab holds no lock and no old snapshot another process waits for:
    /// a deletion of its account from another terminal goes through at once, the ledger verifies.
    @Test func anOpenAppBlocksNoDeletionElsewhere() async throws {
        let server = try FakeTMDbProcess()
        let environment = AppSession.environment(server)
        let add = try await Harness.reel(["fav", "add", "movie", "550"], environment: environment)
        #expect(add.status == 0, "\(add.stderr)")
        let terminal = try await AppSession.start(server, home: environment)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        try await terminal.type("4")
        try await terminal.waitFor("1 saved")
        let delete = try await Harness.reel(["account", "delete", "--yes"], environment: environment)
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(delete.seconds < 10, "the deletion waited \(delete.seconds) s for the app")
        let verify = try await Harness.reel(["audit", "verify"], environment: environment)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }

    /// SIGTERM, SIGHUP and SIGQUIT from elsewhere end the app as q does: the terminal restored,
    /// no backtrace drawn over it.
    @Test(arguments: [SIGTERM, SIGHUP, SIGQUIT])
    func aSignalEndsTheAppAndRestoresTheTerminal(_ signal: Int32) async throws {
        let server = try FakeTMDbProcess()
        let terminal = try await AppSession.start(server)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        // The pane runs a shell that runs the session's script, which runs reel.
        var found: [pid_t] = []
        var parents = await [try terminal.panePID()]
        for _ in 0..<4 where found.isEmpty {
            var children: [pid_t] = []
            for parent in parents {
                children += try await Harness.run("pgrep", ["-P", String(parent)]).stdout.split(separator: "\n").compactMap { pid_t($0) }
            }
            found = children.filter { (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8))?.hasPrefix("reel") == true }
            parents = children
        }
        #expect(found.count == 1, "one reel under the pane: \(found)")
        for pid in found { kill(pid, signal) }
        let screen = try await terminal.waitFor("exit ")
        #expect(!screen.contains("crashed") && !screen.contains("Thread 0"), "\(screen)")
        try terminal.expectTerminalRestored()
    }

    /// A dumb terminal cannot move its cursor: the app refuses to start, with one line, and the
    /// terminal is as it was.
    @Test func aDumbTerminalIsRefused() async throws {
        let server = try FakeTMDbProcess()
        var home = AppSession.environment(server)
        home["TERM"] = "dumb"
        let terminal = try await AppSession.start(server, home: home)
        defer { terminal.end() }
        let screen = try await terminal.waitFor("exit 69")
        #expect(screen.contains("reel: the terminal app cannot start: curses cannot drive this terminal (TERM=dumb)"), "\(screen)")
        try terminal.expectTerminalRestored()
    }

    /// A data directory that is a file is refused before the screen is taken, as every command
    /// refuses it (64).
    @Test func aDataDirectoryThatIsAFileIsRefusedBeforeTheScreen() async throws {
        let server = try FakeTMDbProcess()
        var home = AppSession.environment(server)
        let file = temporaryDirectory("ui-file") + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        home["REEL_DATA_DIR"] = file
        let terminal = try await AppSession.start(server, home: home)
        defer { terminal.end() }
        let screen = try await terminal.waitFor("exit 64").replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("is a file, not a directory"), "\(screen)")
        try terminal.expectTerminalRestored()
    }

    @Test func reelAloneOpensTheAppAtATerminal() async throws {
        let server = try FakeTMDbProcess()
        let terminal = try await AppSession.start(server, [])
        defer { terminal.end() }
        try await terminal.waitFor("Discover movies")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
        // Not at a terminal: the help as before, and `reel ui` says it needs one.
        let home = Home(server: server)
        let plain = try await home.reel([])
        #expect(plain.stdout.contains("USAGE") || plain.stdout.contains("SUBCOMMANDS"), "\(plain.stdout)\(plain.stderr)")
        let ui = try await home.reel(["ui"])
        #expect(ui.status == 64 && ui.stderr.contains("needs a terminal"), "\(ui.status) \(ui.stderr)")
    }

    @Test func typingMatrixQuicklyAsksForOneSearch() async throws {
        let server = try FakeTMDbProcess()
        let terminal = try await AppSession.start(server)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        try await terminal.type("3")
        // The field is empty: the default person's filmography.
        var screen = try await terminal.waitFor("Benedict Cumberbatch")
        #expect(screen.contains("Search:") && screen.contains("[All]"), "\(screen)")
        // Six keys at once, `q` among them after: typed keys are text, they neither quit nor switch tabs.
        try await terminal.type("m", "a", "t", "r", "i", "x")
        screen = try await terminal.waitFor("for “matrix”")
        #expect(screen.contains("The Matrix"), "\(screen)")
        try await Task.sleep(for: .milliseconds(600))  // a second search would have been asked for by now
        let searches = await (try server.stats()["byPath"] as? [String: Int])?.filter { $0.key.hasPrefix("/search/") } ?? [:]
        #expect(searches == ["/search/multi": 1], "one search for six keys: \(searches)")
        // The filter: → asks for movies only, once.
        try await terminal.type("Right")
        screen = try await terminal.waitFor("[Movies]")
        try await terminal.waitFor("for “matrix”")
        try await Task.sleep(for: .milliseconds(600))  // as above: a second search would have been asked for by now
        await #expect((try server.stats()["byPath"] as? [String: Int])?["/search/movie"] == 1)
        try await terminal.type("q", "1")
        screen = try await terminal.waitFor("matrixq1")
        #expect(screen.contains("Search:"), "q and 1 went into the field: \(screen)")
        try await terminal.type("Escape", "q")
        try await terminal.waitFor("exit 0")
        try terminal.expectTerminalRestored()
    }

    @Test func savingFromDetailsIsInTheLedgerAnotherProcessReads() async throws {
        let server = try FakeTMDbProcess()
        let environment = AppSession.environment(server)
        let terminal = try await AppSession.start(server, home: environment)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        try await terminal.type("3")
        try await terminal.waitFor("Benedict Cumberbatch")
        try await terminal.type("Right", "m", "a", "t", "r", "i", "x")
        try await terminal.waitFor("for “matrix”")
        try await terminal.type("Enter", "Enter")
        // The header ("s saves") is drawn at once and the details under it once loaded ("loading…"
        // meanwhile, which a starved CI run caught): wait for the cast.
        var screen = try await terminal.waitFor("Keanu Reeves")
        #expect(screen.contains("The Matrix (1999)") && screen.contains("movie 603") && screen.contains("s saves"), "\(screen)")
        try await terminal.type("s")
        screen = try await terminal.waitFor("★ saved")
        #expect(screen.contains("added movie 603 The Matrix (1999) · u undoes"), "the status line: \(screen)")
        // Another process, while the app holds the ledger open, reads it there.
        let home = Home(environment: environment)
        let saved = try await home.reel(["saved", "--json"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let items = (try Harness.json(saved.stdout)["items"] as? [[String: Any]]) ?? []
        #expect(items.map { $0["id"] as? Int } == [603], "\(saved.stdout)")
        // Back to the results: the ★ shows there too.
        try await terminal.type("Escape")
        screen = try await terminal.waitFor("for “matrix”")
        let row = screen.split(separator: "\n").first { $0.contains("The Matrix") && !$0.contains("Reloaded") && !$0.contains("Revolutions") }
        #expect(row?.contains("★") == true, "\(screen)")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }
}

extension TerminalAppTests {
    /// Space on a row of Movies saves it (★ on the row, the status line says what was appended, and
    /// another process reads it), `u` takes it back from the same tab, and `s` on a search result
    /// saves that title.
    @Test func savingFromAListRowIsInTheLedgerAnotherProcessReadsAndUUndoesIt() async throws {
        let server = try FakeTMDbProcess()
        let (environment, reel) = Self.home(server)
        let terminal = try await AppSession.start(server, home: environment)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        // The cursor is on the first row: Wonka, the most popular in the fake server's catalog.
        try await terminal.type("Space")
        var screen = try await terminal.waitFor("· u undoes")
        #expect(screen.contains("added movie 787699 Wonka (2023)"), "the status line: \(screen)")
        let row = screen.split(separator: "\n").first { $0.contains("Wonka") }
        #expect(row?.contains("★") == true, "\(screen)")
        #expect(try await Self.savedIDs(reel) == [787699])
        try await terminal.type("u")
        screen = try await terminal.waitFor("undo made a new event")
        #expect(screen.contains("removed movie 787699 Wonka (2023)"), "\(screen)")
        #expect(try await Self.savedIDs(reel) == [])
        // Search: the field has the keys until enter; then s saves the result under the cursor.
        try await terminal.type("3")
        try await terminal.waitFor("Benedict Cumberbatch")
        try await terminal.type("Right", "m", "a", "t", "r", "i", "x")
        try await terminal.waitFor("for “matrix”")
        try await terminal.type("Enter", "s")
        screen = try await terminal.waitFor("added movie 603")
        #expect(try await Self.savedIDs(reel) == [603])
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }
}

extension TerminalAppTests {
    /// TMDb answering 503: the screen says so in words with the key that helps, no URL; the
    /// failure whole (its endpoint) is in the app's log, `$XDG_STATE_HOME/reel/ui.log`.
    @Test func aFailedPageIsSaidInWordsAndItsDetailGoesToTheLog() async throws {
        let server = try FakeTMDbProcess()
        let environment = AppSession.environment(server)
        let terminal = try await AppSession.start(server, home: environment)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        try await server.fault("kind=status&status=503&count=50&path=/discover/tv")
        try await terminal.type("2")
        let screen = try await terminal.waitFor("error (r retries): Couldn't reach TMDb: it answered 503 (unavailable)", seconds: 60)
        #expect(screen.contains("page 1 failed: Couldn't reach TMDb: it answered 503 (unavailable) (r retries)"), "\(screen)")
        #expect(!screen.contains("/discover") && !screen.contains("include_adult"), "no URL on the screen: \(screen)")
        let log = try String(contentsOfFile: environment["XDG_STATE_HOME"]! + "/reel/ui.log", encoding: .utf8)
        #expect(log.contains("TMDb is unavailable for /discover/tv?") && log.contains("HTTP 503"), "\(log)")
        #expect(!log.contains("any-token"), "no secret in the log")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }
}

extension TerminalAppTests {
    /// Search scrolls on through TMDb's pages: `G` on “the” reaches all of them, the second page
    /// asked for once.
    @Test func searchScrollsOnThroughTMDbsPages() async throws {
        let server = try FakeTMDbProcess()
        let terminal = try await AppSession.start(server)
        defer { terminal.end() }
        try await terminal.waitFor("Fight Club")
        try await terminal.type("3")
        try await terminal.waitFor("Benedict Cumberbatch")
        try await terminal.type("t", "h", "e")
        // TMDb's first page holds 20; the rest come as the cursor nears the end (at 100×30 the
        // first page is within a screen of it: the second is asked for at once).
        let shown = try await terminal.waitForScreen { screen in
            screen.contains("results for “the”") && !screen.contains("more below") && !screen.contains("loading more")
        }
        let total = shown.split(separator: "\n").first { $0.contains("results for “the”") }.flatMap { Int($0.split(separator: " ").first ?? "") }
        #expect((total ?? 0) > 20, "more than TMDb's first page: \(shown)")
        try await terminal.type("Enter", "G")
        _ = try await terminal.settledScreen()
        #expect(try await Self.asked(server, "/search/multi", page: 2) == 1)
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }
}

/// The Saved and Settings tabs in a real terminal: undo, time travel, the language switch,
/// deleting the account, and a change made by another process showing at once.
extension TerminalAppTests {
    /// A home on `server` and `reel` run in it as another process (`reel fav add` beside the app).
    static func home(_ server: FakeTMDbProcess) -> (environment: [String: String], reel: Home) {
        let environment = AppSession.environment(server)
        return (environment, Home(environment: environment))
    }

    /// The events of ann's stream as `reel history --json` lists them: type and title id.
    static func history(_ reel: Home) async throws -> [String] {
        let out = try await reel.reel(["history", "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
        return (document?["events"] as? [[String: Any]] ?? []).map { event in
            let payload = event["payload"] as? [String: Any]
            return "\(event["type"] ?? "?")" + (payload?["id"].map { " \($0)" } ?? "")
        }
    }

    static func savedIDs(_ reel: Home) async throws -> [Int] {
        let out = try await reel.reel(["saved", "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
        return (document?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }

    @Test func xRemovesAndUUndoesAsANewEvent() async throws {
        let server = try FakeTMDbProcess()
        let (environment, reel) = Self.home(server)
        #expect(try await reel.reel(["fav", "add", "movie", "550", "603"]).status == 0)
        let before = try await Self.history(reel)
        let terminal = try await AppSession.start(server, home: environment)
        defer { terminal.end() }
        try await terminal.waitFor("Discover movies")
        try await terminal.type("4")
        try await terminal.waitFor("The Matrix")
        try await terminal.type("j", "x")
        var screen = try await terminal.waitFor("removed movie 603 The Matrix (1999) · u undoes")
        screen = try await terminal.waitFor("1 saved")
        #expect(!screen.contains("The Matrix  "), "\(screen)")
        await #expect(try Self.savedIDs(reel) == [550], "another process sees the removal")
        try await terminal.type("u")
        screen = try await terminal.waitFor("undo made a new event: added movie 603 The Matrix (1999)")
        try await terminal.waitFor("2 saved")
        await #expect(try Self.savedIDs(reel).sorted() == [550, 603])
        // History is not rewritten: the removal stays, and the undo is an event after it.
        let after = try await Self.history(reel)
        #expect(Array(after.prefix(before.count)) == before && after.dropFirst(before.count) == ["favorite-removed 603", "favorite-added 603"], "\(after)")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }

    @Test func bracketsTravelToAnEarlierVersionAndEscComesBack() async throws {
        let server = try FakeTMDbProcess()
        let (environment, reel) = Self.home(server)
        #expect(try await reel.reel(["fav", "add", "movie", "550", "603"]).status == 0)
        #expect(try await reel.reel(["fav", "remove", "movie", "603"]).status == 0)
        let versions = try await Self.history(reel).count
        let terminal = try await AppSession.start(server, home: environment)
        defer { terminal.end() }
        try await terminal.waitFor("Discover movies")
        try await terminal.type("4")
        _ = try await terminal.waitFor("1 saved")
        // A capture may land while a frame is being written: wait for the row itself.
        var screen = try await terminal.waitFor("Fight Club  ")
        #expect(!screen.contains("The Matrix"))
        // The first [ steps to the version before now's.
        try await terminal.type("[")
        screen = try await terminal.waitFor("as of v\(versions - 1) — ")
        _ = try await terminal.waitFor("2 saved")
        screen = try await terminal.waitFor("The Matrix  ")
        #expect(screen.contains("added movie 603 The Matrix (1999)"), "the list as it was: \(screen)")
        // t jumps to a typed version; esc comes back to now.
        try await terminal.type("t", "v2", "Enter")
        screen = try await terminal.waitFor("as of v2 — ")
        try await terminal.type("Escape")
        screen = try await terminal.waitFor("s sort  S reverse")
        screen = try await terminal.waitFor("1 saved")
        #expect(!screen.contains("The Matrix  ") && !screen.contains("as of"), "\(screen)")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }

    @Test func theLanguageSwitchShowsEveryListInTheNewLanguage() async throws {
        let server = try FakeTMDbProcess()
        let (environment, reel) = Self.home(server)
        #expect(try await reel.reel(["fav", "add", "movie", "278"]).status == 0)
        let terminal = try await AppSession.start(server, home: environment)
        defer { terminal.end() }
        try await terminal.waitFor("The Boy and the Heron")
        try await terminal.type("4")
        try await terminal.waitFor("The Shawshank Redemption")
        try await terminal.type("5")
        try await terminal.waitFor("Language    en")
        try await terminal.type("j", "j", "Enter")
        try await terminal.waitFor("type to narrow")
        try await terminal.type("german", "Enter")
        try await terminal.waitFor("language set to de (German)")
        try await terminal.waitFor("Language    de (German)")
        try await terminal.type("4")
        try await terminal.waitFor("Die Verurteilten")
        try await terminal.type("1")
        let screen = try await terminal.waitFor("Der Junge und der Reiher")
        #expect(screen.contains("ann · de"), "the status line: \(screen)")
        #expect(try await reel.reel(["settings", "--json"]).stdout.contains("\"de\""))
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }

    /// Saved's genre picker is Movies' multi-select (space chooses, `a` any, `c` clears), and a
    /// handle typed into the account picker opens that account.
    @Test func savedsGenrePickerChoosesSeveralAndATypedHandleOpensAnAccount() async throws {
        let server = try FakeTMDbProcess()
        let (environment, reel) = Self.home(server)
        #expect(try await reel.reel(["fav", "add", "movie", "550", "862"]).status == 0)
        let terminal = try await AppSession.start(server, home: environment)
        defer { terminal.end() }
        try await terminal.waitFor("Discover movies")
        try await terminal.type("4")
        try await terminal.waitFor("Toy Story")
        try await terminal.type("f")
        // The list's genres: Fight Club's Drama; Toy Story's Adventure, Animation, Comedy, Family.
        try await terminal.waitFor("›[ ] Adventure")
        try await terminal.type("j", "Space", "Enter")
        var screen = try await terminal.waitFor("Saved · in the order saved · Animation")
        screen = try await terminal.waitFor("1 of 2 saved")
        #expect(screen.contains("Toy Story") && !screen.contains("Fight Club") && !screen.contains("space chooses"), "\(screen)")
        try await terminal.type("f")
        try await terminal.waitFor(" [x] Animation")
        try await terminal.type("j", "j", "j", "Space", "a", "Enter")
        screen = try await terminal.waitFor("Animation + Drama (any)")
        screen = try await terminal.waitFor("2 saved")
        #expect(screen.contains("Toy Story") && screen.contains("Fight Club"), "\(screen)")
        try await terminal.type("f", "j", "Space", "a", "Enter")
        screen = try await terminal.waitFor("Saved · in the order saved · Drama ")
        try await terminal.waitFor("1 of 2 saved")
        try await terminal.type("c")
        screen = try await terminal.waitFor("2 saved")
        #expect(!screen.contains("· Drama"), "c cleared the genres: \(screen)")

        try await terminal.type("5")
        try await terminal.waitFor("Account     ann")
        try await terminal.type("j", "j", "j", "Enter")
        try await terminal.waitFor("Account · type to narrow")
        try await terminal.type("carol", "Enter")
        screen = try await terminal.waitFor("the account is 'carol' now")
        #expect(screen.contains("carol · en"), "the status line names the new account: \(screen)")
        try await terminal.type("4")
        try await terminal.waitFor("nothing saved yet")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }

    @Test func deletingTheAccountAsksForTheHandleAndSaysWhatWasDestroyed() async throws {
        let server = try FakeTMDbProcess()
        let (environment, reel) = Self.home(server)
        #expect(try await reel.reel(["fav", "add", "movie", "550"]).status == 0)
        let terminal = try await AppSession.start(server, home: environment)
        defer { terminal.end() }
        try await terminal.waitFor("Discover movies")
        try await terminal.type("5")
        try await terminal.waitFor("This product uses the TMDB API but is not endorsed or certified by TMDB.")
        try await terminal.type("j", "j", "j", "j", "Enter")
        try await terminal.waitFor("Type the handle")
        try await terminal.type("bob", "Enter")
        try await terminal.waitFor("the handle typed does not match 'ann'; nothing deleted")
        #expect(try await reel.reel(["accounts", "--json"]).stdout.contains("\"open\""))
        try await terminal.type("Enter", "ann", "Enter")
        let screen = try await terminal.waitFor("deleted the account 'ann' for good")
        #expect(screen.contains("3 events stay in the ledger") && screen.contains("the key is destroyed"), "\(screen)")
        #expect(screen.contains("the handle 'ann' is free for a new account"), "\(screen)")
        let accounts = try await reel.reel(["accounts", "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [String: Any]
        let statuses = (document?["accounts"] as? [[String: Any]] ?? []).map { "\($0["status"] ?? "?")" }
        #expect(statuses == ["deleted"], "\(accounts.stdout)")
        // Back on Settings, nothing is offered for deletion, and enter on the row says why.
        try await terminal.type("Escape")
        try await terminal.waitFor("nothing to delete: 'ann' has no account")
        try await terminal.type("Enter")
        try await terminal.waitFor("'ann' has no account to delete")
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }

    @Test func aChangeByAnotherProcessShowsInTheSavedTabAtOnceAndTheAppBlocksNoDeletion() async throws {
        let server = try FakeTMDbProcess()
        let (environment, reel) = Self.home(server)
        let terminal = try await AppSession.start(server, home: environment)
        defer { terminal.end() }
        try await terminal.waitFor("Discover movies")
        try await terminal.type("4")
        try await terminal.waitFor("nothing saved yet")
        // The first change makes the ledger, which the app was not holding: it follows it then.
        // Each shown within two seconds of the command's end: the app follows the ledger, it
        // does not poll it now and then.
        #expect(try await reel.reel(["fav", "add", "movie", "550"]).status == 0)
        try await terminal.waitFor("Fight Club", seconds: 2)
        #expect(try await reel.reel(["fav", "add", "movie", "603"]).status == 0)
        try await terminal.waitFor("The Matrix", seconds: 2)
        // The app holds the ledger open: another process deletes the account all the same.
        let deletion = try await reel.reel(["account", "delete", "--yes"])
        #expect(deletion.status == 0 && deletion.seconds < 10, "\(deletion.seconds) s: \(deletion.stderr)")
        try await terminal.waitFor("deleted", seconds: 2)
        try await terminal.type("q")
        try await terminal.waitFor("exit 0")
    }
}

extension TerminalAppTests {
    /// On a title's details `j` goes from one line that acts to the next (the first trailer,
    /// not the next plain line), and `enter` on a trailer gives its URL to `$BROWSER` (here a
    /// script that records its argument): the status line says so. Without a browser, the URL
    /// is on the status line.
    @Test func enterOnATrailerOpensItInTheBrowser() async throws {
        let server = try FakeTMDbProcess()
        let dir = temporaryDirectory("browser")
        let record = dir + "/opened", script = dir + "/record-browser"
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(record)'\n".write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)
        for browser in [script, ""] {
            var home = AppSession.environment(server)
            home["BROWSER"] = browser
            // No display: xdg-open (installed or not) is not used; the empty BROWSER leaves none.
            home["DISPLAY"] = ""
            home["WAYLAND_DISPLAY"] = ""
            let terminal = try await AppSession.start(nil, home: home)
            defer { terminal.end() }
            try await terminal.waitFor("Fight Club")
            try await terminal.type("3")
            try await terminal.waitFor("Search:")
            try await terminal.type("fight club", "Enter")
            // The results, the cursor on the first.
            try await terminal.waitForScreen { $0.split(separator: "\n").contains { $0.hasPrefix("›") && $0.contains("Fight Club") } }
            try await terminal.type("Enter")
            try await terminal.waitFor("Trailer: https://")
            try await terminal.type("j")
            try await terminal.waitForScreen { $0.split(separator: "\n").contains { $0.hasPrefix("› Trailer: https://") } }
            try await terminal.type("Enter")
            if browser.isEmpty {
                let screen = try await terminal.waitFor("the link: https://www.youtube.com/watch?v=")
                #expect(screen.contains("(no browser"), "the why, as far as the line has room: \(screen)")
            } else {
                try await terminal.waitFor("opened in record-browser")
                var budget = WaitBudget(seconds: 10)
                while (try? String(contentsOfFile: record, encoding: .utf8))?.isEmpty ?? true, !budget.isSpent { try await budget.pause(.milliseconds(50)) }
                let opened = try String(contentsOfFile: record, encoding: .utf8)
                #expect(opened.hasPrefix("https://www.youtube.com/watch?v="), "\(opened)")
            }
            // Back from the details to the results, to Movies, and out.
            try await terminal.type("Escape", "1", "q")
            try await terminal.waitFor("exit 0")
        }
    }
}

extension TerminalAppTests {
    /// Ratings are coloured by score in a colour terminal (green from 7: Fight Club's 8.4), and
    /// under `NO_COLOR` nothing is: no foreground or background colour anywhere on the screen,
    /// the cursor's row still reversed and the header row still there.
    @Test func ratingsAreColouredAndNoColorTakesEveryColourAway() async throws {
        let server = try FakeTMDbProcess()
        for noColor in [false, true] {
            var home = AppSession.environment(server)
            if noColor { home["NO_COLOR"] = "1" }
            // The test runner's own NO_COLOR (swift test may set it) is not the app's.
            let terminal = try await AppSession.start(nil, home: home, unset: noColor ? [] : ["NO_COLOR"])
            defer { terminal.end() }
            try await terminal.waitFor("Released")
            let screen = try await terminal.waitForColours { $0.contains("Fight Club") }
            let codes = Self.sgrCodes(screen)
            if noColor {
                #expect(!codes.contains { Self.isColour($0) }, "\(screen.debugDescription)")
                #expect(codes.contains { $0.first == 7 || $0.contains(7) }, "the cursor's row reversed: \(screen.debugDescription)")
            } else {
                #expect(codes.contains { Self.isColour($0) }, "\(screen.debugDescription)")
            }
            try await terminal.type("q")
            try await terminal.waitFor("exit 0")
        }
    }

    /// The parameters of every SGR sequence (`ESC [ … m`) in a tmux capture.
    static func sgrCodes(_ screen: String) -> [[Int]] {
        screen.split(separator: "\u{1B}").compactMap { part in
            guard part.hasPrefix("["), let end = part.firstIndex(of: "m") else { return nil }
            let body = part[part.index(after: part.startIndex)..<end]
            guard body.allSatisfy({ $0.isNumber || $0 == ";" }) else { return nil }
            return body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        }
    }

    /// Whether SGR parameters set a colour: 30–37, 90–97 (foreground), 40–47, 100–107
    /// (background), 38 or 48 (256 or 24-bit colours).
    static func isColour(_ codes: [Int]) -> Bool {
        var index = 0
        while index < codes.count {
            let code = codes[index]
            if (30...37).contains(code) || (90...97).contains(code) || (40...47).contains(code) || (100...107).contains(code) { return true }
            if code == 38 || code == 48 { return true }
            index += 1
        }
        return false
    }
}
