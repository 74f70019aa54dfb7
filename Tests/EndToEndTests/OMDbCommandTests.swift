import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// OMDb through the built `reel` binary against `fake-tmdb`'s OMDb (`/omdb/`): the lines and
/// `--json` of `reel show`, the saved list's scores and sorts, the daily budget counted by two
/// processes together, OMDb's failures as notes that never fail TMDb's answer, offline, the key
/// kept out of every file and output, and the sample catalog's own facts with no keys at all.
@Suite struct OMDbCommandTests {

    static let key = "5e1f0c2a"

    /// A home against `server` for both TMDb and OMDb.
    static func home(_ server: FakeTMDbProcess, extra: [String: String] = [:]) -> Home {
        var home = Home(server: server)
        home.environment["OMDB_API_KEY"] = key
        home.environment["REEL_OMDB_BASE_URL"] = server.root + "/omdb/"
        for (k, v) in extra { home.environment[k] = v }
        return home
    }

    static func omdbRequests(_ server: FakeTMDbProcess) async throws -> Int {
        await (try server.stats()["omdb"] as? [String: Any])?["requests"] as? Int ?? -1
    }

    @Test func showAddsOMDbsLinesAndJSON() async throws {
        let server = try FakeTMDbProcess()
        let home = Self.home(server)
        let out = try await home.reel(["show", "movie", "278", "--no-poster"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("Ratings: IMDb 9.3"), "\(out.stdout)")
        #expect(out.stdout.contains("Awards: "), "\(out.stdout)")
        #expect(out.stdout.contains("Director: Frank Darabont"), "\(out.stdout)")
        #expect(out.stdout.contains("Writer: "), "\(out.stdout)")
        await #expect(try Self.omdbRequests(server) == 1)
        let json = try await home.json(["show", "movie", "278"], schema: "show.schema.json")
        #expect(json["imdbID"] as? String == "tt0111161")
        #expect(json["omdbStatus"] as? String == "found")
        let omdb = try #require(json["omdb"] as? [String: Any])
        #expect(omdb["imdbRating"] as? Double == 9.3)
        #expect((omdb["imdbVotes"] as? Int ?? 0) > 1_000_000)
        await #expect(try Self.omdbRequests(server) == 1, "the second show is the cache's (a week)")
        // A series: its IMDb id comes from TMDb's external_ids, appended to the same request.
        let series = try await home.json(["show", "tv", "1396"], schema: "show.schema.json")
        #expect(series["imdbID"] as? String == "tt0903747")
        #expect((series["omdb"] as? [String: Any])?["totalSeasons"] as? Int == 5)
    }

    @Test func withoutAnOMDbKeyTMDbsDetailsStandAlone() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        let json = try await home.json(["show", "movie", "278"], schema: "show.schema.json")
        #expect(json["omdbStatus"] as? String == "off")
        #expect(json["omdb"] is NSNull)
        await #expect(try Self.omdbRequests(server) == 0)
        let status = try await home.json(["omdb", "status"], schema: "omdb-status.schema.json")
        #expect(status["source"] as? String == "off")
    }

    @Test func omdbsFailuresAreNotesNeverErrors() async throws {
        let server = try FakeTMDbProcess()
        for (fault, words) in [
            ("kind=omdb-limit", "daily budget"), ("kind=omdb-invalid-key", "refused the key"), ("kind=status&status=500&count=9", "OMDb is unavailable"),
            ("kind=malformed", "OMDb is unavailable"), ("kind=reset&count=9", "OMDb is unavailable"),
        ] {
            let home = Self.home(server)  // its own budget: OMDb's "limit reached" spends the day
            try await server.fault(fault + "&path=/omdb")
            let out = try await home.reel(["show", "movie", "550", "--no-poster"])
            #expect(out.status == 0, "\(fault): \(out.stderr)")
            #expect(out.stdout.contains("Fight Club"), "\(fault)")
            #expect(!out.stdout.contains("Ratings:"), "\(fault): \(out.stdout)")
            #expect(out.stderr.contains(words), "\(fault): \(out.stderr)")
            #expect(CatalogCommandTests.lines(out.stderr).count == 1, "\(fault): one note: \(out.stderr)")
            #expect(!out.stderr.contains(Self.key))
            _ = try await server.curl(["-s", "-X", "POST", server.root + "/__reset"])
        }
        // A title OMDb does not know: no lines, no note; the JSON says so.
        let home = Self.home(server)
        try await server.fault("kind=omdb-error&message=Incorrect%20IMDb%20ID.&path=/omdb")
        let missing = try await home.json(["show", "movie", "680"], schema: "show.schema.json")
        #expect(missing["omdbStatus"] as? String == "missing")
    }

    @Test func offlineTheCachedAnswerIsShown() async throws {
        let server = try FakeTMDbProcess()
        let home = Self.home(server)
        #expect(try await home.reel(["show", "movie", "278", "--no-poster"]).status == 0)
        server.stop()
        let out = try await home.reel(["show", "movie", "278", "--no-poster", "--offline"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("Ratings: IMDb 9.3"))
    }

    @Test func hostileTextFromOMDbNeverReachesTheTerminal() async throws {
        let server = try FakeTMDbProcess()
        let home = Self.home(server)
        try await server.fault("kind=hostile&path=/omdb")
        let out = try await home.reel(["show", "movie", "278", "--no-poster"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("Director:"))
        for forbidden in ["\u{1B}", "\u{07}", "\r", "\u{9B}", "\u{7F}", "\u{202E}"] {
            #expect(!out.stdout.contains(forbidden), "U+\(String(forbidden.unicodeScalars.first!.value, radix: 16)) in \(out.stdout)")
        }
    }

    @Test func savedSortsByOMDbsScoresWithAnIMDbColumn() async throws {
        let server = try FakeTMDbProcess()
        let home = Self.home(server)
        #expect(try await home.reel(["fav", "add", "movie", "550", "278", "680", "13"]).status == 0)
        let json = try await home.json(["saved", "--sort", "imdb"], schema: "saved.schema.json")
        let items = try #require(json["items"] as? [[String: Any]])
        let ratings = items.compactMap { ($0["omdb"] as? [String: Any])?["imdbRating"] as? Double }
        #expect(ratings.count == 4)
        #expect(ratings == ratings.sorted(by: >), "best first: \(ratings)")
        #expect(items.first?["id"] as? Int == 278)
        let fill = try #require(json["omdbFill"] as? [String: Any])
        #expect(fill["left"] as? Int == 0)
        let text = try await home.reel(["saved", "--sort", "metascore", "--asc"], environment: ["COLUMNS": "160"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("IMDB"), "\(text.stdout)")
        await #expect(try Self.omdbRequests(server) == 4, "each title asked once, then the cache's")
        let status = try await home.json(["omdb", "status"], schema: "omdb-status.schema.json")
        #expect((status["saved"] as? [String: Any])?["answered"] as? Int == 4)
        #expect((status["budget"] as? [String: Any])?["used"] as? Int == 4)
    }

    /// Two `reel saved` at once fill a list of 60 with a budget of 20: bulk work stops at 18 for
    /// both together (the store is shared), what is opened next still gets its answer, and the
    /// status says how far the list got.
    @Test func twoProcessesSpendOneBudget() async throws {
        let server = try FakeTMDbProcess(["--synthetic-movies", "60"])
        let home = Self.home(server, extra: ["REEL_OMDB_DAILY": "20"])
        #expect(try await home.reel(["fav", "add", "movie"] + (1...60).map { String(90_000_000 + $0) }).status == 0)
        async let first = Task.detached { try await home.reel(["saved", "--json"]) }.value
        async let second = Task.detached { try await home.reel(["saved", "--json"]) }.value
        let (a, b) = try await (first, second)
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        await #expect(try Self.omdbRequests(server) == 18, "nine tenths of 20, for both processes together")
        let status = try await home.json(["omdb", "status"], schema: "omdb-status.schema.json")
        let budget = try #require(status["budget"] as? [String: Any])
        #expect(budget["used"] as? Int == 18)
        #expect(budget["bulkLimit"] as? Int == 18)
        #expect((status["saved"] as? [String: Any])?["waiting"] as? Int == 42)
        #expect(a.stderr.contains("filling lists") || b.stderr.contains("filling lists"), "\(a.stderr) \(b.stderr)")
        // What the user opens goes first: the kept tenth answers it.
        let opened = try await home.json(["show", "movie", "90000001"], schema: "show.schema.json")
        #expect(opened["omdbStatus"] as? String == "found" || opened["omdbStatus"] as? String == "missing")
        let shown = try await home.json(["show", "movie", "90000060"], schema: "show.schema.json")
        #expect(["found", "budget-spent"].contains(shown["omdbStatus"] as? String ?? ""))
    }

    @Test func loginChecksAndSavesTheKeyWhereNoOutputOrCacheHasIt() async throws {
        let server = try FakeTMDbProcess(["--omdb-key", Self.key])
        var home = Home(server: server)
        home.environment["REEL_OMDB_BASE_URL"] = server.root + "/omdb/"
        try await home.fails(["omdb", "login"], stdin: "0badbad0\n", status: 77, "OMDb refused the key")
        #expect(!FileManager.default.fileExists(atPath: home.config + "/reel/omdb.json"))
        try await home.fails(["omdb", "login"], stdin: "two words\n", status: 64, "OMDb key")
        let saved = try await home.json(["omdb", "login"], stdin: Self.key + "\n", schema: "omdb-login.schema.json")
        #expect(saved["checked"] as? Bool == true)
        #expect(CatalogCommandTests.mode(home.config + "/reel/omdb.json") == 0o600)
        var outputs: [String] = []
        for arguments in [["show", "movie", "550", "--no-poster"], ["saved"], ["omdb", "status"], ["omdb", "status", "--json", "--check"]] {
            let out = try await home.reel(arguments)
            #expect(out.status == 0, "\(arguments): \(out.stderr)")
            outputs += [out.stdout, out.stderr]
        }
        #expect(outputs.joined().contains("Ratings:"))
        for output in outputs { #expect(!output.contains(Self.key)) }
        #expect(try CatalogCommandTests.files(under: home.data, containing: Self.key).isEmpty)
        #expect(try CatalogCommandTests.files(under: home.config, containing: Self.key) == ["reel/omdb.json"])
        let out = try await home.json(["omdb", "logout"], schema: "omdb-logout.schema.json")
        #expect(out["removed"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: home.config + "/reel/omdb.json"))
    }

    @Test func theSampleCatalogHasItsOwnOMDbFacts() async throws {
        let home = Home()
        let out = try await home.reel(["show", "movie", "278", "--no-poster"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("Ratings: IMDb 9.3"), "\(out.stdout)")
        #expect(out.stdout.contains("🏆") || out.stdout.contains("nominated for"), "\(out.stdout)")
        let status = try await home.json(["omdb", "status"], schema: "omdb-status.schema.json")
        #expect(status["source"] as? String == "sample")
        let about = try await home.json(["about"], schema: "about.schema.json")
        #expect((about["omdbLicense"] as? String)?.contains("CC BY-NC 4.0") == true)
    }

    @Test func badSettingsAreOneLine() async throws {
        let server = try FakeTMDbProcess()
        let home = Self.home(server)
        try await home.fails(["show", "movie", "550"], environment: ["REEL_OMDB_DAILY": "lots"], status: 64, "REEL_OMDB_DAILY")
        try await home.fails(["show", "movie", "550"], environment: ["REEL_OMDB_BASE_URL": "ftp://x"], status: 64, "REEL_OMDB_BASE_URL")
        try await home.fails(["show", "movie", "550"], environment: ["OMDB_API_KEY": "a\tb"], status: 64, "OMDB_API_KEY")
    }
}
