import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// What a newcomer meets first, through the built `reel` binary: the sample catalog's note once a
/// day per data directory (and `--quiet`, `REEL_QUIET`, `--verbose`), the note for a language the
/// sample catalog lacks, each sort key in its own direction, language tags as people type them
/// and `reel languages`, exit codes that say what went wrong (never 1), the sample catalog naming
/// itself when it lacks a title, `tmdb status` against a server without `/authentication`, and
/// the schemas of `backup --json` and `demo --json`.
@Suite struct NewcomerTests {
    typealias Ledger = LedgerHome

    static let sampleNote =
        "reel: note: no TMDb credentials (set TMDB_API_TOKEN or TMDB_API_KEY, or run 'reel tmdb login'); showing the bundled sample catalog"
    static func frenchNote(_ tag: String) -> String {
        "reel: note: the sample catalog has no \(tag) text; titles are shown in English (TMDb credentials show every language)"
    }

    /// A data directory (a `Ledger`, without TMDb credentials) and a state directory of its own,
    /// so which notes were shown today does not depend on other tests.
    struct Place {
        var ledger = Ledger()
        var state = temporaryDirectory("newcomer-state")

        var notices: String { state + "/reel/notices" }

        /// Runs `reel`; no command here may exit 1 (a bug is 70, a storage failure 71).
        @discardableResult
        func reel(_ arguments: [String], user: String? = nil, environment: [String: String] = [:]) async throws -> Harness.Output {
            var env = ["XDG_STATE_HOME": state]
            env.merge(environment) { _, new in new }
            let out = try await ledger.reel(arguments, user: user, environment: env)
            #expect(out.status != 1, "\(arguments) exited 1: \(out.stderr)")
            return out
        }

        /// Runs a `--json` command, checks exit 0, validates against `schema` and parses it.
        func document(_ arguments: [String], user: String? = nil, environment: [String: String] = [:], schema: String) async throws -> Any {
            let out = try await reel(arguments + ["--json"], user: user, environment: environment)
            #expect(out.status == 0, "\(arguments): exit \(out.status), \(out.stderr)")
            let checked = try Harness.validate(out.stdout, against: "cli/" + schema)
            #expect(checked.status == 0, "\(arguments) against \(schema): \(checked.stderr)")
            return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8))
        }

        func json(_ arguments: [String], user: String? = nil, environment: [String: String] = [:], schema: String) async throws -> [String: Any] {
            try await document(arguments, user: user, environment: environment, schema: schema) as? [String: Any] ?? [:]
        }

        /// Expects exit `status`, nothing on stdout, and on stderr exactly one line besides notes,
        /// starting `reel: ` and containing `message`; the whole stderr is returned.
        @discardableResult
        func fails(_ arguments: [String], user: String? = nil, environment: [String: String] = [:], status: Int32, _ message: String) async throws -> String {
            let out = try await reel(arguments, user: user, environment: environment)
            let errors = out.stderr.split(separator: "\n").filter { !$0.hasPrefix("reel: note: ") }
            #expect(out.status == status, "\(arguments): exit \(out.status), \(out.stderr)")
            #expect(out.stdout.isEmpty, "\(arguments): \(out.stdout)")
            #expect(errors.count == 1 && errors[0].hasPrefix("reel: ") && errors[0].contains(message),
                    "\(arguments): '\(message)' not the one error in \(out.stderr)")
            return out.stderr
        }
    }

    // MARK: - 1. The sample catalog's note, once a day per data directory

    @Test func theSampleCatalogNoteIsShownOnceADayPerDataDirectory() async throws {
        let place = Place()
        let first = try await place.reel(["movies"])
        #expect(first.status == 0 && first.stdout.contains("Discover movies"), "\(first.stdout)\(first.stderr)")
        #expect(first.stderr == Self.sampleNote + "\n", "\(first.stderr)")
        // The same data directory, the same day: another catalog command says nothing.
        for command in [["movies"], ["show", "movie", "550"], ["search", "matrix"]] {
            let again = try await place.reel(command)
            #expect(again.status == 0 && !again.stdout.isEmpty, "\(command): \(again.stderr)")
            #expect(again.stderr.isEmpty, "\(command): \(again.stderr)")
        }
        // The state is kept outside the data directory, in XDG_STATE_HOME.
        let kept = try String(contentsOfFile: place.notices, encoding: .utf8)
        #expect(kept.split(separator: "\n").count == 1 && kept.hasSuffix("\tsample-catalog\n"), "\(kept)")

        // Another data directory with the same state directory: the note again, once.
        var other = place
        other.ledger = Ledger()
        #expect(try await other.reel(["movies"]).stderr == Self.sampleNote + "\n")
        #expect(try await other.reel(["movies"]).stderr.isEmpty)
        #expect(try String(contentsOfFile: place.notices, encoding: .utf8).split(separator: "\n").count == 2)

        // --verbose shows it every time, before or after the subcommand.
        for command in [["movies", "--verbose"], ["--verbose", "movies"], ["movies", "--verbose"]] {
            let verbose = try await place.reel(command)
            #expect(verbose.status == 0 && verbose.stderr == Self.sampleNote + "\n", "\(command): \(verbose.stderr)")
        }

        // Another state directory has not shown it yet.
        var elsewhere = place
        elsewhere.state = temporaryDirectory("newcomer-state-2")
        #expect(try await elsewhere.reel(["movies"]).stderr == Self.sampleNote + "\n")

        // --json output is the same whether the note was shown or not.
        var fresh = place
        fresh.state = temporaryDirectory("newcomer-state-3")
        let noted = try await fresh.reel(["movies", "--json"])
        let silent = try await fresh.reel(["movies", "--json"])
        #expect(noted.status == 0 && silent.status == 0)
        #expect(noted.stderr == Self.sampleNote + "\n" && silent.stderr.isEmpty, "\(noted.stderr)|\(silent.stderr)")
        #expect(noted.stdout == silent.stdout && !noted.stdout.isEmpty)
        #expect(try Harness.validate(noted.stdout, against: "cli/title-list.schema.json").status == 0)
    }

    @Test func quietSaysNothingButErrorsAndVerboseEverything() async throws {
        let place = Place()
        for (arguments, environment) in [
            (["movies", "--quiet"], [:]), (["movies", "-q"], [:]), (["-q", "movies"], [:]), (["movies"], ["REEL_QUIET": "1"]),
            (["show", "movie", "550", "-q"], [:]),
        ] {
            let out = try await place.reel(arguments, environment: environment)
            #expect(out.status == 0 && !out.stdout.isEmpty, "\(arguments) \(environment): \(out.stderr)")
            #expect(out.stderr.isEmpty, "\(arguments) \(environment): \(out.stderr)")
        }
        // A note not shown was not used up: the first run that may show it does.
        #expect(try await place.reel(["movies"]).stderr == Self.sampleNote + "\n")

        // Errors still print, alone.
        let quietPlace = Place()
        for (arguments, environment, status, message) in [
            (["-q", "movies", "--genre", "99999"], [String: String](), Int32(64), "reel: no movie genre has the id 99999; the genres are: Action (28),"),
            (["movies", "--genre", "99999"], ["REEL_QUIET": "1"], 64, "reel: no movie genre has the id 99999"),
            (["show", "movie", "999999999", "--quiet"], [:], 66,
             "reel: the sample catalog has no movie with id 999999999 (TMDb credentials show every title and person)"),
        ] {
            let out = try await quietPlace.reel(arguments, environment: environment)
            #expect(out.status == status, "\(arguments): exit \(out.status), \(out.stderr)")
            #expect(out.stdout.isEmpty && out.stderr.hasPrefix(message) && out.stderr.split(separator: "\n").count == 1,
                    "\(arguments): \(out.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: quietPlace.notices), "--quiet records no note as shown")

        // Both at once is a usage error; --verbose beats REEL_QUIET.
        for arguments in [["movies", "--quiet", "--verbose"], ["-q", "movies", "--verbose"]] {
            let both = try await place.reel(arguments)
            #expect(both.status == 64 && both.stdout.isEmpty, "\(arguments): \(both.status) \(both.stderr)")
            #expect(both.stderr == "reel: --quiet and --verbose contradict each other; give one (see 'reel help')\n", "\(both.stderr)")
        }
        #expect(try await place.reel(["movies", "--verbose"], environment: ["REEL_QUIET": "1"]).stderr == Self.sampleNote + "\n")
    }

    // MARK: - 2. A language the sample catalog lacks

    @Test func aLanguageTheSampleCatalogLacksIsNotedOnceADay() async throws {
        let place = Place()
        #expect(try await place.reel(["settings", "language", "fr-FR"]).status == 0)
        // --quiet holds this note back too.
        let quiet = try await place.reel(["movies", "--quiet"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        let first = try await place.reel(["movies"])
        #expect(first.status == 0)
        let notes: [String] = [Self.frenchNote("fr-FR"), Self.sampleNote]
        let firstLines: [String] = first.stderr.split(separator: "\n").map(String.init)
        #expect(firstLines == notes, "\(first.stderr)")
        #expect(first.stdout.contains("Comedy, Family, Fantasy"), "English genre names: \(first.stdout)")
        #expect(try await place.reel(["movies"]).stderr.isEmpty)
        let verbose = try await place.reel(["movies", "--verbose"])
        let verboseLines: [String] = verbose.stderr.split(separator: "\n").map(String.init)
        #expect(verboseLines == notes, "\(verbose.stderr)")

        // German is in the sample catalog: no such note, and German text.
        #expect(try await place.reel(["settings", "language", "de-DE"]).status == 0)
        var fresh = place
        fresh.state = temporaryDirectory("newcomer-state-de")
        let german = try await fresh.reel(["movies"])
        #expect(german.status == 0 && german.stdout.contains("Komödie"), "\(german.stdout)")
        #expect(german.stderr == Self.sampleNote + "\n", "\(german.stderr)")
        #expect(try await fresh.reel(["movies", "--verbose"]).stderr == Self.sampleNote + "\n")
    }

    // MARK: - 3. Sort directions

    @Test func eachSortKeyHasItsOwnDirectionAndTheOtherOnRequest() async throws {
        let place = Place()
        #expect(try await place.reel(["fav", "add", "movie", "550", "603"]).status == 0)
        #expect(try await place.reel(["fav", "add", "movie", "13", "680"]).status == 0)

        func listed(_ arguments: [String]) async throws -> (ids: [Int], descending: Bool?, sort: String?, ratings: [Double], dates: [String]) {
            let list = try await place.json(["saved"] + arguments, schema: "saved.schema.json")
            let items = list["items"] as? [[String: Any]] ?? []
            return (items.compactMap { $0["id"] as? Int }, list["descending"] as? Bool, list["sort"] as? String,
                    items.compactMap { ($0["voteAverage"] as? NSNumber)?.doubleValue }, items.compactMap { $0["date"] as? String })
        }

        let added = try await listed([])
        #expect(added.ids == [550, 603, 13, 680] && added.sort == "added" && added.descending == false, "\(added)")
        await #expect(try listed(["--sort", "added"]).ids == [550, 603, 13, 680])
        let addedDown = try await listed(["--sort", "added", "--desc"])
        #expect(addedDown.ids == [680, 13, 603, 550] && addedDown.descending == true, "\(addedDown)")

        let best = try await listed(["--sort", "rating"])
        #expect(best.ids == [680, 13, 550, 603] && best.descending == true && best.sort == "rating", "\(best)")
        #expect(best.ratings.count == 4 && zip(best.ratings, best.ratings.dropFirst()).allSatisfy { $0 >= $1 }, "\(best.ratings)")
        await #expect(try listed(["--sort", "rating", "--desc"]).ids == best.ids)
        let worst = try await listed(["--sort", "rating", "--asc"])
        #expect(worst.ids == [603, 550, 13, 680] && worst.descending == false, "\(worst)")
        #expect(zip(worst.ratings, worst.ratings.dropFirst()).allSatisfy { $0 <= $1 }, "\(worst.ratings)")

        let az = try await listed(["--sort", "title"])
        #expect(az.ids == [550, 13, 680, 603] && az.descending == false, "\(az)")
        let za = try await listed(["--sort", "title", "--desc"])
        #expect(za.ids == [603, 680, 13, 550] && za.descending == true, "\(za)")
        await #expect(try listed(["--sort", "title", "--asc"]).ids == az.ids)

        let newest = try await listed(["--sort", "release"])
        #expect(newest.ids == [550, 603, 680, 13] && newest.descending == true, "\(newest)")
        #expect(newest.dates.count == 4 && newest.dates == newest.dates.sorted(by: >), "\(newest.dates)")
        await #expect(try listed(["--sort", "release", "--asc"]).ids == [13, 680, 603, 550])

        // The table reads the same way.
        let table = try await place.reel(["saved", "--sort", "rating"])
        let rows = table.stdout.split(separator: "\n").dropFirst().prefix(4)
        #expect(rows.map { $0.contains("Pulp Fiction") ? 680 : $0.contains("Forrest Gump") ? 13 : $0.contains("Fight Club") ? 550 : $0.contains("The Matrix") ? 603 : 0 }
                == [680, 13, 550, 603], "\(table.stdout)")

        try await place.fails(["saved", "--desc", "--asc"], status: 64, "--desc and --asc contradict each other")
        try await place.fails(["saved", "--sort", "title", "--asc", "--desc"], status: 64, "--desc and --asc contradict each other")

        // movies sorts by rating best first too, and --asc turns it round.
        let movies = try await place.json(["movies", "--sort", "rating"], schema: "title-list.schema.json")
        let down = (movies["results"] as? [[String: Any]] ?? []).compactMap { ($0["voteAverage"] as? NSNumber)?.doubleValue }
        #expect(movies["descending"] as? Bool == true && down.count > 5, "\(movies["descending"] ?? "nil") \(down)")
        #expect(zip(down, down.dropFirst()).allSatisfy { $0 >= $1 }, "\(down)")
        let upward = try await place.json(["movies", "--sort", "rating", "--asc"], schema: "title-list.schema.json")
        let up = (upward["results"] as? [[String: Any]] ?? []).compactMap { ($0["voteAverage"] as? NSNumber)?.doubleValue }
        #expect(upward["descending"] as? Bool == false && up.count > 5 && zip(up, up.dropFirst()).allSatisfy { $0 <= $1 }, "\(up)")
    }

    // MARK: - 4. Languages

    @Test func languageTagsAreReadAsPeopleTypeThemAndStoredCanonical() async throws {
        let place = Place()
        func language() async throws -> String? { try await place.json(["settings"], schema: "settings.schema.json")["language"] as? String }

        // Each one changes the language, so each is seen to be stored.
        for (typed, stored) in [
            ("German", "de"), ("en_US", "en-US"), (" pt_br ", "pt-BR"), ("en-us", "en-US"), ("German", "de"), ("EN-us", "en-US"),
            ("de_DE.utf8", "de-DE"), ("en_US.UTF-8", "en-US"), (" pt_br ", "pt-BR"),
        ] {
            let out = try await place.reel(["settings", "language", typed])
            #expect(out.status == 0 && out.stdout.contains("language set to \(stored) ("), "'\(typed)': \(out.stdout)\(out.stderr)")
            await #expect(try language() == stored, "'\(typed)' should be stored as \(stored)")
        }

        try await place.fails(["settings", "language", "en-UK"], status: 64,
                        "'en-UK' is not a language tag: 'UK' is not an ISO 3166-1 region; did you mean en-GB? ('reel languages' lists them)")
        try await place.fails(["settings", "language", "jp"], status: 64, "'jp' is not a language tag: 'jp' is not a TMDb language; did you mean ja?")
        let unknown = try await place.fails(["settings", "language", "xx"], status: 64, "'xx' is not a TMDb language ('reel languages' lists them)")
        #expect(!unknown.contains("did you mean"), "\(unknown)")
        await #expect(try language() == "pt-BR", "a refused tag changes nothing")

        let listing = try await place.reel(["languages"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let lines = listing.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("CODE  LANGUAGE") == true && lines.first?.contains("IN THE SAMPLE CATALOG") == true, "\(lines.first ?? "")")
        let row = { (code: String) in lines.first { $0.hasPrefix(code + " ") } ?? "" }
        #expect(row("pt").contains("Portuguese ★"), "\(row("pt"))")
        #expect(row("de").contains("German") && row("de").hasSuffix("yes") && !row("de").contains("★"), "\(row("de"))")
        #expect(row("fr").contains("French") && !row("fr").contains("yes"), "\(row("fr"))")
        #expect(lines.filter { $0.contains("★") }.count == 2, "one row marked, and the footer: \(listing.stdout)")
        #expect(lines.contains("★ the account's language: pt-BR (Portuguese); change it with 'reel settings language TAG'."), "\(listing.stdout)")

        let report = try await place.json(["languages"], schema: "languages.schema.json")
        #expect(report["current"] as? String == "pt-BR" && report["sampleCatalog"] as? Bool == true)
        let entries = report["languages"] as? [[String: Any]] ?? []
        let entry = { (code: String) in entries.first { $0["code"] as? String == code } }
        #expect(entry("de")?["inSampleCatalog"] as? Bool == true && entry("de")?["name"] as? String == "German")
        #expect(entry("en")?["inSampleCatalog"] as? Bool == true)
        #expect(entry("fr")?["inSampleCatalog"] as? Bool == false && entry("fr")?["name"] as? String == "French")
        #expect(entry("ja") != nil && entry("jp") == nil)
        let regions = report["regions"] as? [String] ?? []
        #expect(regions.contains("GB") && regions.contains("BR") && !regions.contains("UK") && regions == regions.sorted())

        // Without an account: en-US, marked the same way.
        let nobody = try await place.json(["languages"], user: "nobody", schema: "languages.schema.json")
        #expect(nobody["current"] as? String == "en-US")
    }

    // MARK: - 5. Exit codes

    @Test func mistakesAreUsageErrorsNotFailures() async throws {
        let place = Place()
        #expect(try await place.reel(["fav", "add", "movie", "550"], user: "ann").status == 0)
        #expect(try await place.reel(["fav", "add", "movie", "603"], user: "bob").status == 0)
        let files = temporaryDirectory("newcomer-files")
        let export = files + "/ann.json"
        #expect(try await place.reel(["account", "export", "--out", export], user: "ann").status == 0)
        let events = try await place.ledger.eventCount()

        // Importing into a handle that exists.
        try await place.fails(["account", "import", export, "--as", "bob"], status: 64,
                        "there is an account 'bob' already; import under another handle with --as")
        try await place.fails(["account", "import", export], status: 64, "there is an account 'ann' already")
        await #expect(try place.ledger.eventCount() == events)

        // A genre id the list lacks, like a name it lacks.
        try await place.fails(["movies", "--genre", "99999"], status: 64, "no movie genre has the id 99999; the genres are:")
        try await place.fails(["movies", "--genre", "nonsense"], status: 64, "no movie genre 'nonsense'")

        // Writing where a directory cannot be.
        try await place.fails(["account", "export", "--out", files], user: "ann", status: 64, "\(files) is a directory")
        let file = files + "/file"
        try Data("hi\n".utf8).write(to: URL(fileURLWithPath: file))
        try await place.fails(["backup", file], status: 64, "\(file) exists and is not an empty directory")
        for dataDirectory in [file, file + "/below", file + "/below/deeper"] {
            try await place.fails(["fav", "add", "movie", "13", "--data-dir", dataDirectory], status: 64, "\(file) is a file, not a directory")
            // Reading there is the same mistake, not an empty first run.
            for read in [["saved"], ["accounts"], ["history"], ["settings"], ["movies"], ["audit", "verify"]] {
                try await place.fails(read + ["--data-dir", dataDirectory], user: "ann", status: 64, "\(file) is a file, not a directory")
            }
        }
        // Also from REEL_DATA_DIR.
        let viaEnvironment = Place(ledger: Ledger(dir: file + "/below"), state: place.state)
        try await viaEnvironment.fails(["settings", "name", "Ann"], status: 64, "\(file) is a file, not a directory")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "hi\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: files).sorted() == ["ann.json", "file"])

        // A base URL that is not one, where it is used.
        for url in ["notaurl", "ftp://example.com/3", "127.0.0.1:8080/3"] {
            try await place.fails(["show", "movie", "550"], environment: ["TMDB_API_TOKEN": "a-token", "REEL_TMDB_BASE_URL": url], status: 64,
                            "REEL_TMDB_BASE_URL '\(url)' is not an http(s) URL (such as https://api.themoviedb.org/3)")
        }
        await #expect(try place.ledger.eventCount() == events)
    }

    @Test func deletingAtATerminalIsCancelledByCtrlDOrAWrongHandle() async throws {
        let place = Place()
        #expect(try await place.reel(["fav", "add", "movie", "550"], user: "ann").status == 0)
        let environment = [
            "TMDB_API_TOKEN": "", "TMDB_API_KEY": "", "XDG_CONFIG_HOME": place.ledger.dir + "/config", "REEL_DATA_DIR": place.ledger.dir,
            "XDG_STATE_HOME": place.state, "REEL_USER": "ann", "NO_COLOR": "1",
        ]
        func accounts() async throws -> [String] {
            await (try place.json(["accounts"], schema: "accounts.schema.json")["accounts"] as? [[String: Any]] ?? [])
                .map { "\($0["user"] ?? "?") \($0["status"] ?? "?")" }
        }

        let cancelled = try await TerminalSession([Harness.binaries + "/reel", "account", "delete"], environment: environment)
        defer { cancelled.end() }
        try await cancelled.waitFor("Type the handle to confirm:")
        try await cancelled.type("C-d")
        let afterCtrlD = try await cancelled.waitFor("exit ")
        #expect(afterCtrlD.contains("reel: cancelled; nothing deleted") && afterCtrlD.contains("exit 64"), "\(afterCtrlD)")
        await #expect(try accounts() == ["ann open"])

        let mistyped = try await TerminalSession([Harness.binaries + "/reel", "account", "delete"], environment: environment)
        defer { mistyped.end() }
        try await mistyped.waitFor("Type the handle to confirm:")
        try await mistyped.type("anne", "Enter")
        let afterTypo = try await mistyped.waitFor("exit ")
        #expect(afterTypo.contains("reel: the handle typed does not match 'ann'; nothing deleted") && afterTypo.contains("exit 64"), "\(afterTypo)")
        await #expect(try accounts() == ["ann open"])
        let saved = try await place.json(["saved"], user: "ann", schema: "saved.schema.json")
        #expect((saved["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [550])
    }

    // MARK: - 6. The sample catalog names itself

    @Test func theSampleCatalogSaysItIsTheOneLackingATitleOrPerson() async throws {
        let place = Place()
        for (arguments, message) in [
            (["show", "movie", "999999999"], "reel: the sample catalog has no movie with id 999999999 (TMDb credentials show every title and person)"),
            (["show", "tv", "999999999"], "reel: the sample catalog has no series with id 999999999 (TMDb credentials show every title and person)"),
            (["person", "Nobody Atall"], "reel: the sample catalog knows no person named 'Nobody Atall' (TMDb credentials show every title and person)"),
        ] {
            let out = try await place.reel(arguments)
            #expect(out.status == 66, "\(arguments): exit \(out.status), \(out.stderr)")
            #expect(out.stdout.isEmpty)
            let problems: [String] = out.stderr.split(separator: "\n").filter { !$0.hasPrefix("reel: note: ") }.map(String.init)
            #expect(problems == [message], "\(out.stderr)")
        }
    }

    // MARK: - 7. tmdb status where the server has no /authentication

    @Test func statusVerifiesWithACatalogRequestWhereThereIsNoAuthentication() async throws {
        let server = try FakeTMDbProcess()
        var home = Home(server: server)
        home.environment["XDG_STATE_HOME"] = temporaryDirectory("newcomer-state-tmdb")
        try await server.fault("kind=status&status=404&path=/authentication&count=20")

        let text = try await home.reel(["tmdb", "status"], environment: ["COLUMNS": "200"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stderr.isEmpty, "\(text.stderr)")
        let expected: [String] = [
            "catalog: TMDb at \(server.baseURL)",
            "credential: TMDb read access token (hidden) from the environment (TMDB_API_TOKEN)",
            "TMDb accepts it (\(server.baseURL) has no /authentication; a catalog request with the credential works)",
        ]
        let printed: [String] = text.stdout.split(separator: "\n").map(String.init)
        #expect(printed == expected, "\(text.stdout)")
        // In a narrow terminal the prose wraps at spaces.
        let narrow = try await home.reel(["tmdb", "status"], environment: ["COLUMNS": "40"])
        for line in narrow.stdout.split(separator: "\n") where line.contains(" ") {
            #expect(line.count <= 40, "\(line)")
        }
        #expect(narrow.stdout.replacingOccurrences(of: "\n", with: " ").contains("a catalog request with the credential works"), "\(narrow.stdout)")
        let json = try await home.json(["tmdb", "status"], schema: "tmdb-status.schema.json")
        #expect(json["accepted"] as? Bool == true && json["checked"] as? Bool == true)
        #expect(json["problem"] as? String == "\(server.baseURL) has no /authentication; a catalog request with the credential works", "\(json)")
        let paths = try await server.stats()["byPath"] as? [String: Int] ?? [:]
        #expect(paths["/authentication"] == 3 && paths["/genre/movie/list"] == 3, "\(paths)")

        // The catalog request failing too: not verified, and TMDb could not be reached (69).
        try await server.fault("kind=status&status=503&path=/genre&count=100")
        let down = try await home.reel(["tmdb", "status"])
        #expect(down.status == 69, "exit \(down.status): \(down.stderr)")
        #expect(down.stdout.split(separator: "\n").count == 2 && !down.stdout.contains("accepts"), "\(down.stdout)")
        let downLines = down.stderr.split(separator: "\n").map(String.init)
        #expect(downLines.count == 1, "\(down.stderr)")
        #expect(downLines.first?.hasPrefix(
            "reel: could not verify the credential: \(server.baseURL) has no /authentication, and a catalog request failed: TMDb is unavailable for /genre/movie/list") == true,
                "\(down.stderr)")
        #expect(downLines.first?.contains("HTTP 503") == true, "\(down.stderr)")
        let downJSON = try await home.json(["tmdb", "status"], status: 69, schema: "tmdb-status.schema.json")
        #expect(downJSON["accepted"] is NSNull && downJSON["checked"] as? Bool == true, "\(downJSON)")
        #expect((downJSON["problem"] as? String)?.hasPrefix("could not verify the credential: \(server.baseURL) has no /authentication") == true, "\(downJSON)")
    }

    @Test func aCatalogRequestThatRefusesTheCredentialIsARefusal() async throws {
        let server = try FakeTMDbProcess(["--token", "right-token-5c1d"])
        var home = Home(server: server, token: "wrong-token-9e0a")
        home.environment["XDG_STATE_HOME"] = temporaryDirectory("newcomer-state-tmdb-2")
        try await server.fault("kind=status&status=404&path=/authentication&count=20")
        let wrong = try await home.json(["tmdb", "status"], status: 77, schema: "tmdb-status.schema.json")
        #expect(wrong["accepted"] as? Bool == false, "\(wrong)")
        #expect((wrong["problem"] as? String)?.contains("401") == true, "\(wrong)")
        let right = try await home.json(["tmdb", "status"], environment: ["TMDB_API_TOKEN": "right-token-5c1d"], schema: "tmdb-status.schema.json")
        #expect(right["accepted"] as? Bool == true, "\(right)")
    }

    // MARK: - 8. Schemas of backup and demo

    @Test func backupAndDemoJSONMatchTheirSchemas() async throws {
        let place = Place()
        #expect(try await place.reel(["fav", "add", "movie", "550", "603"], user: "ann").status == 0)
        let target = temporaryDirectory("newcomer-backup") + "/copy"
        let backup = try await place.json(["backup", target], schema: "backup.schema.json")
        #expect(backup["target"] as? String == target && backup["events"] as? Int == 3, "\(backup)")
        #expect((backup["headHash"] as? String)?.count == 64)
        let copy = Place(ledger: Ledger(dir: target), state: place.state)
        let check = try Harness.json(try await copy.reel(["audit", "verify", "--json"]).stdout)
        #expect(check["ok"] as? Bool == true && check["headHash"] as? String == backup["headHash"] as? String, "\(check)")

        let tour = temporaryDirectory("newcomer-demo") + "/tour"
        let envelopes = try await place.document(["demo", "--data-dir", tour], schema: "demo.schema.json") as? [[String: Any]] ?? []
        let tourLedger = Place(ledger: Ledger(dir: tour), state: place.state)
        await #expect(envelopes.count == (try tourLedger.ledger.eventCount()) && envelopes.count > 5, "\(envelopes.count)")
        #expect(envelopes.compactMap { $0["position"] as? Int } == Array(1...envelopes.count))
        // The schema does check: an envelope without its hash is refused.
        var broken = envelopes
        broken[0]["hash"] = nil
        let refused = try Harness.validate(String(decoding: try JSONSerialization.data(withJSONObject: broken), as: UTF8.self), against: "cli/demo.schema.json")
        #expect(refused.status != 0, "a document missing a hash passed the demo schema")
    }

    // MARK: - 9. What a second look found

    /// `tmdb login` and `logout` keep the credentials file, not the data directory, and ask no
    /// account: their help lists neither, nor `--offline` (`--no-check` is login's way).
    @Test func credentialCommandsListOnlyTheirOwnOptions() async throws {
        let place = Place()
        for command in [["tmdb", "login"], ["tmdb", "logout"]] {
            let help = try await place.reel(command + ["--help"])
            #expect(help.status == 0)
            for hidden in ["--offline", "--data-dir", "--user"] { #expect(!help.stdout.contains(hidden), "\(command): \(hidden) in \(help.stdout)") }
            #expect(help.stdout.contains("--json"), "\(help.stdout)")
        }
        let status = try await place.reel(["tmdb", "status", "--help"])
        #expect(status.stdout.contains("--offline") && status.stdout.contains("--data-dir"), "\(status.stdout)")
    }

    /// An answer from /authentication that makes no sense is bad data (65), not TMDb down (69).
    @Test func aMalformedAnswerToTheCredentialCheckIsBadData() async throws {
        let server = try FakeTMDbProcess()
        var home = Home(server: server)
        home.environment["XDG_STATE_HOME"] = temporaryDirectory("newcomer-state-malformed")
        try await server.fault("kind=malformed&path=/authentication&count=20")
        let out = try await home.reel(["tmdb", "status"])
        #expect(out.status == 65, "exit \(out.status): \(out.stderr)")
        #expect(out.stderr.split(separator: "\n").count == 1 && out.stderr.contains("/authentication"), "\(out.stderr)")
        let json = try await home.json(["tmdb", "status"], status: 65, schema: "tmdb-status.schema.json")
        #expect(json["accepted"] is NSNull && json["checked"] as? Bool == true, "\(json)")
    }

    /// An argument of thousands of characters is not echoed whole: the line keeps its start and its
    /// end and says how much was left out.
    @Test func aHugeArgumentIsNotEchoedWhole() async throws {
        let place = Place()
        let huge = String(repeating: "x", count: 20_000)
        let stderr = try await place.fails(["settings", "language", huge], status: 64, "characters left out")
        #expect(stderr.count < 1_000, "\(stderr.count) characters")
        #expect(stderr.contains("is not a language tag"), "\(stderr)")
        #expect(stderr.hasSuffix("(see 'reel help')\n"), "\(stderr)")
    }

    /// Removing from a data directory with no ledger changes nothing and makes nothing.
    @Test func removingWhereThereIsNoLedgerMakesNone() async throws {
        let place = Place(ledger: Ledger(dir: temporaryDirectory("newcomer-none") + "/data"))
        let out = try await place.reel(["fav", "remove", "movie", "550", "--quiet"], user: "ann")
        #expect(out.status == 0 && out.stdout == "movie 550 Fight Club (1999) is not saved; nothing to do\n", "\(out.stdout)\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: place.ledger.dir), "the data directory was made")
        let json = try await place.json(["fav", "remove", "movie", "550"], user: "ann", schema: "command-result.schema.json")
        #expect((json["appended"] as? [Any])?.isEmpty == true && json["changed"] as? Bool == false && json["stream"] is NSNull, "\(json)")
        #expect(!FileManager.default.fileExists(atPath: place.ledger.dir), "the data directory was made")
    }

    /// A language's name misspelt gets the nearest one suggested.
    @Test func aMisspeltLanguageNameGetsTheNearestSuggested() async throws {
        let place = Place()
        try await place.fails(["settings", "language", "portugese"], user: "ann", status: 64, "did you mean pt (Portuguese)?")
        try await place.fails(["settings", "language", "Germna"], user: "ann", status: 64, "did you mean de (German)?")
        try await place.fails(["settings", "language", "klingon"], user: "ann", status: 64, "('reel languages' lists them)")
        #expect(try await place.reel(["settings", "language", "portuguese"], user: "ann").status == 0)
    }
}
