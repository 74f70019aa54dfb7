import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// The catalog commands (`show`, `cache`, `tmdb`) through the built `reel` binary, each test with
/// its own data and config directories and, where it needs one, its own `fake-tmdb`.
@Suite struct CatalogCommandTests {
    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: true) }

    /// Every regular file below `directory` whose bytes contain `needle`.
    static func files(under directory: String, containing needle: String) throws -> [String] {
        let bytes = Data(needle.utf8)
        var found: [String] = []
        var count = 0
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            count += 1
            let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
            if data.range(of: bytes) != nil { found.append(relative) }
        }
        #expect(count > 0, "no files at all under \(directory)")
        return found
    }

    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions].flatMap { ($0 as? NSNumber)?.intValue }
    }

    // MARK: - 1. The sample catalog

    @Test func withoutCredentialsTheSampleCatalogAnswersWithANote() async throws {
        let home = Home()
        let text = try await home.reel(["show", "movie", "550"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Fight Club (1999)  movie 550\n"), "\(text.stdout)")
        #expect(text.stdout.contains("Not saved (reel fav add movie 550)"))
        #expect(!text.stdout.contains("\u{1B}"), "NO_COLOR is set: no escape codes")
        #expect(Self.lines(text.stderr).count == 1, "\(text.stderr)")
        #expect(text.stderr.contains("sample catalog"), "\(text.stderr)")
        #expect(text.stderr.hasPrefix("reel: note: "), "\(text.stderr)")

        let show = try await home.json(["show", "movie", "550"], schema: "show.schema.json")
        #expect(show["title"] as? String == "Fight Club")
        #expect(show["mediaType"] as? String == "movie")
        #expect(show["id"] as? Int == 550)
        #expect(show["language"] as? String == "en-US")
        #expect(show["saved"] as? Bool == false)
        #expect(show["savedAt"] is NSNull)
        let trailers = show["trailers"] as? [[String: Any]] ?? []
        #expect(!trailers.isEmpty)
        #expect(trailers.allSatisfy { ($0["url"] as? String)?.hasPrefix("https://") == true })
        #expect((show["posterURL"] as? String)?.hasPrefix("https://image.tmdb.org/t/p/w500/") == true, "\(show["posterURL"] ?? "nil")")
        // Reading the catalog creates no ledger and no cache.
        #expect(!FileManager.default.fileExists(atPath: home.data + "/ledger"))
        #expect(!FileManager.default.fileExists(atPath: home.data + "/cache"))

        let series = try await home.json(["show", "tv", "1399"], schema: "show.schema.json")
        #expect(series["mediaType"] as? String == "tv")
        #expect(series["seasons"] as? Int != nil)
    }

    // MARK: - 2. The account's language and saved list

    @Test(arguments: [false, true])
    func detailsComeInTheAccountsLanguageAndSaySaved(overHTTP: Bool) async throws {
        let server = overHTTP ? try FakeTMDbProcess() : nil
        let home = server.map { Home(server: $0) } ?? Home()
        let language = try await home.reel(["settings", "language", "de-DE"])
        #expect(language.status == 0, "\(language.stderr)")

        let text = try await home.reel(["show", "movie", "238"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Der Pate (1972)"), "\(text.stdout)")
        #expect(text.stdout.contains("Original title: The Godfather"))
        #expect(text.stdout.contains("Krimi"), "\(text.stdout)")
        #expect(text.stdout.contains("Not saved (reel fav add movie 238)"))
        if let server {
            #expect(text.stderr.isEmpty, "\(text.stderr)")
            let paths = try await server.stats()["byPath"] as? [String: Int] ?? [:]
            #expect(paths["/movie/238"] == 1, "\(paths)")
        }

        #expect(try await home.reel(["fav", "add", "movie", "238"]).status == 0)
        let saved = try await home.reel(["show", "movie", "238"])
        #expect(saved.status == 0)
        #expect(saved.stdout.contains("Saved since "), "\(saved.stdout)")
        #expect(!saved.stdout.contains("Not saved"))

        let json = try await home.json(["show", "movie", "238"], schema: "show.schema.json")
        #expect(json["saved"] as? Bool == true)
        #expect(json["savedAt"] is String)
        #expect(json["language"] as? String == "de-DE")
        #expect(json["title"] as? String == "Der Pate")
        #expect((json["genres"] as? [String])?.contains("Krimi") == true)

        // Another account has its own language and saved list.
        let other = try await home.json(["show", "movie", "238", "--user", "ben"], schema: "show.schema.json")
        #expect(other["title"] as? String == "The Godfather")
        #expect(other["saved"] as? Bool == false)
    }

    // MARK: - 3. The response cache

    @Test func answersAreCachedAndTheCacheCanBeCleared() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        await #expect(try server.requests() == 0)

        let first = try await home.reel(["show", "movie", "550"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Fight Club (1999)"))
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        let afterFirst = try await server.requests()
        #expect(afterFirst > 0)
        let paths = try await server.stats()["byPath"] as? [String: Int] ?? [:]
        #expect(paths["/movie/550"] == 1, "\(paths)")

        let second = try await home.reel(["show", "movie", "550"])
        #expect(second.status == 0)
        #expect(second.stdout == first.stdout)
        await #expect(try server.requests() == afterFirst, "a fresh cache answers without asking again")

        let stats = try await home.json(["cache", "stats"], schema: "cache-stats.schema.json")
        let entries = stats["entries"] as? Int ?? -1
        #expect(entries > 0)
        #expect(stats["fresh"] as? Int == entries)
        #expect(stats["stale"] as? Int == 0)
        #expect(stats["path"] as? String == home.data + "/cache")
        #expect((stats["byEndpoint"] as? [String: Any])?["details"] != nil, "\(stats)")
        let table = try await home.reel(["cache", "stats"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("\(entries) answers (\(entries) fresh, 0 stale)"), "\(table.stdout)")

        let cleared = try await home.reel(["cache", "clear"])
        #expect(cleared.status == 0)
        #expect(cleared.stdout.contains("cleared \(entries) cached answers"), "\(cleared.stdout)")
        let empty = try await home.json(["cache", "stats"], schema: "cache-stats.schema.json")
        #expect(empty["entries"] as? Int == 0)
        #expect(empty["fresh"] as? Int == 0)
        let again = try await home.json(["cache", "clear"], schema: "cache-clear.schema.json")
        #expect(again["cleared"] as? Int == 0)

        // Cleared means asked again.
        #expect(try await home.reel(["show", "movie", "550"]).status == 0)
        await #expect(try server.requests() > afterFirst)
    }

    @Test func cacheCommandsWithoutACacheSayEmptyAndCreateNothing() async throws {
        let home = Home()
        let stats = try await home.json(["cache", "stats"], schema: "cache-stats.schema.json")
        #expect(stats["entries"] as? Int == 0)
        let text = try await home.reel(["cache"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("empty"))
        let cleared = try await home.reel(["cache", "clear"])
        #expect(cleared.status == 0)
        #expect(cleared.stdout.contains("cleared 0 cached answers"))
        #expect(!FileManager.default.fileExists(atPath: home.data + "/cache/data.mdb"))
    }

    // MARK: - 4. Offline

    @Test func offlineAnswersFromTheCacheOnly() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        let online = try await home.reel(["show", "movie", "550"])
        #expect(online.status == 0, "\(online.stderr)")
        let before = try await server.requests()

        for (arguments, env) in [
            (["show", "movie", "550", "--offline"], [:]),
            (["show", "--offline", "movie", "550"], [:]),
            (["show", "movie", "550"], ["REEL_OFFLINE": "1"]),
            (["show", "movie", "550"], ["REEL_OFFLINE": "true"]),
        ] as [([String], [String: String])] {
            let out = try await home.reel(arguments, environment: env)
            #expect(out.status == 0, "\(arguments) \(env): \(out.stderr)")
            #expect(out.stdout == online.stdout, "\(arguments) \(env)")
            #expect(out.stderr.isEmpty, "\(arguments) \(env): \(out.stderr)")
        }
        await #expect(try server.requests() == before, "offline asks nothing")

        try await home.fails(["show", "movie", "680", "--offline"], status: 69, "offline", "not in the cache")
        try await home.fails(["show", "movie", "680"], environment: ["REEL_OFFLINE": "1"], status: 69, "offline", "not in the cache")
        await #expect(try server.requests() == before)

        // With the server gone, the cache still answers offline.
        server.stop()
        let gone = try await home.reel(["show", "movie", "550", "--offline"])
        #expect(gone.status == 0, "\(gone.stderr)")
        #expect(gone.stdout == online.stdout)
    }

    /// Global options (`--offline`, `--json`, `--data-dir`, `--user`) work before the subcommand too.
    @Test func globalOptionsBeforeTheSubcommand() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        #expect(try await home.reel(["show", "movie", "550"]).status == 0)
        let before = try await server.requests()
        let out = try await home.reel(["--offline", "show", "movie", "550"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasPrefix("Fight Club (1999)"))
        let json = try await home.reel(["--json", "--offline", "show", "movie", "550"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.hasPrefix("{"))
        await #expect(try server.requests() == before)
    }

    // MARK: - 5. Stale answers when TMDb fails

    @Test func aStaleAnswerIsShownWhenTMDbFails() async throws {
        let server = try FakeTMDbProcess(["--max-age", "0"])
        let home = Home(server: server)
        let first = try await home.reel(["show", "movie", "550"])
        #expect(first.status == 0, "\(first.stderr)")
        let stats = try await home.json(["cache", "stats"], schema: "cache-stats.schema.json")
        #expect(stats["fresh"] as? Int == 0, "max-age 0: stored, but stale at once")
        #expect((stats["entries"] as? Int ?? 0) > 0)

        // Only the details fail: the configuration revalidates (304), the movie is served stale.
        try await server.fault("kind=status&status=503&count=50&path=/movie")
        let stale = try await home.reel(["show", "movie", "550"])
        #expect(stale.status == 0, "\(stale.stderr)")
        #expect(stale.stdout == first.stdout)
        #expect(Self.lines(stale.stderr).count == 1, "\(stale.stderr)")
        #expect(stale.stderr.contains("503"), "\(stale.stderr)")
        #expect(stale.stderr.contains("cached"), "\(stale.stderr)")
        #expect(stale.stderr.hasPrefix("reel: note: "), "\(stale.stderr)")
        let byStatus = try await server.stats()["byStatus"] as? [String: Int] ?? [:]
        #expect((byStatus["503"] ?? 0) >= 2, "retried before giving up: \(byStatus)")
        #expect((byStatus["503"] ?? 0) <= 5, "retries are bounded: \(byStatus)")

        // Nothing cached for another title: the failure is reported, exit 69.
        try await home.fails(["show", "movie", "680"], status: 69, "503", "unavailable")
    }

    @Test func everyFailingRequestServedStaleSaysSo() async throws {
        let server = try FakeTMDbProcess(["--max-age", "0"])
        let home = Home(server: server)
        let first = try await home.reel(["show", "movie", "550"])
        #expect(first.status == 0, "\(first.stderr)")
        try await server.fault("kind=status&status=503&count=50")
        let stale = try await home.reel(["show", "movie", "550"])
        #expect(stale.status == 0, "\(stale.stderr)")
        #expect(stale.stdout == first.stdout)
        // One note, however many answers (the configuration and the details) came from the cache.
        let notes = Self.lines(stale.stderr)
        #expect(notes.count == 1, "\(stale.stderr)")
        #expect(notes.allSatisfy { $0.hasPrefix("reel: note: ") && $0.contains("503") && $0.contains("cached") }, "\(stale.stderr)")
    }

    // MARK: - 6. Errors

    @Test func badIdsAndTypesAreUsageErrors() async throws {
        let home = Home()
        try await home.fails(["show", "movie", "0"], status: 64, "not a TMDb id")
        try await home.fails(["show", "movie", "-5"], status: 64, "'-5' is not a TMDb id")
        // Words that are not ids are a title to find, as with fav add (quiet: the search reads the
        // catalog, whose note would be a second line).
        try await home.fails(["show", "movie", "abc"], environment: ["REEL_QUIET": "1"], status: 66, "no movie matches \"abc\"")
        try await home.fails(["show", "film", "5"], environment: ["REEL_QUIET": "1"], status: 66, "no movie or series matches \"film 5\"")
        try await home.fails(["show", "movie"], status: 64, "give at least one TMDb id")
        #expect(!FileManager.default.fileExists(atPath: home.data + "/ledger"))
    }

    @Test func unknownTitlesAreNotFound() async throws {
        // The sample catalog: the note that it is the sample, then the error.
        let sample = try await Home().reel(["show", "movie", "999999999"])
        #expect(sample.status == 66, "\(sample.stderr)")
        #expect(sample.stdout.isEmpty)
        let sampleLines = Self.lines(sample.stderr)
        #expect(sampleLines.last == "reel: the sample catalog has no movie with id 999999999 (TMDb credentials show every title and person)", "\(sample.stderr)")
        #expect(sampleLines.count == 2 && sampleLines.first?.contains("sample catalog") == true, "\(sample.stderr)")

        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        try await home.fails(["show", "movie", "999999999"], status: 66, "TMDb has no movie with id 999999999")
        try await home.fails(["show", "tv", "999999999"], status: 66, "TMDb has no series with id 999999999")
    }

    @Test func refusedCredentialsExit77AndNeverShowTheToken() async throws {
        let server = try FakeTMDbProcess(["--token", "right"])
        let token = "wrong-token-5d1c0b"
        let home = Home(server: server, token: token)
        let out = try await home.fails(["show", "movie", "550"], status: 77, "401", "refused")
        #expect(!out.stderr.contains(token))
        let json = try await home.reel(["show", "movie", "550", "--json"])
        #expect(json.status == 77)
        #expect(json.stdout.isEmpty)
        #expect(!json.stderr.contains(token))
        await #expect(try server.stats()["unauthorized"] as? Int ?? 0 > 0)
        await #expect(try server.stats()["credentialLeaks"] as? Int == 0)

        // The right token works against the same server.
        let right = try await home.reel(["show", "movie", "550"], environment: ["TMDB_API_TOKEN": "right"])
        #expect(right.status == 0, "\(right.stderr)")

        // A v3 key in TMDB_API_TOKEN: the hint names TMDB_API_KEY. (A fresh data directory: the
        // cache is keyed by request, not by credential, so the answer above would be served.)
        let key = "0123456789abcdef0123456789abcdef"
        let hex = try await Home(server: server).fails(["show", "movie", "550"], environment: ["TMDB_API_TOKEN": key], status: 77, "401", "TMDB_API_KEY")
        #expect(!hex.stderr.contains(key))
    }

    @Test func anUnreachableServerIsUnavailable() async throws {
        // Port 1: nothing listens there.
        let home = Home(environment: ["REEL_TMDB_BASE_URL": "http://127.0.0.1:1/3", "TMDB_API_TOKEN": "any-token"])
        try await home.fails(["show", "movie", "550"], status: 69, "unavailable", "--offline")
    }

    // MARK: - 7. tmdb status

    @Test func statusSaysWhichCatalogServesAndWhetherTMDbAcceptsTheCredential() async throws {
        let none = Home()
        let sample = try await none.reel(["tmdb", "status"])
        #expect(sample.status == 0)
        #expect(sample.stdout.contains("sample catalog"), "\(sample.stdout)")
        #expect(sample.stderr.isEmpty, "\(sample.stderr)")
        let sampleJSON = try await none.json(["tmdb", "status"], schema: "tmdb-status.schema.json")
        #expect(sampleJSON["catalog"] as? String == "sample")
        #expect(sampleJSON["credential"] is NSNull)
        #expect(sampleJSON["checked"] as? Bool == false)
        #expect(sampleJSON["configFile"] as? String == none.credentialsFile)
        #expect(try await none.reel(["tmdb"]).stdout == sample.stdout, "status is the default subcommand")

        let server = try FakeTMDbProcess(["--token", "right-token-a41f"])
        let home = Home(server: server, token: "right-token-a41f")
        let text = try await home.reel(["tmdb", "status"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("TMDb accepts it"), "\(text.stdout)")
        #expect(text.stdout.contains(server.baseURL))
        let json = try await home.json(["tmdb", "status"], schema: "tmdb-status.schema.json")
        #expect(json["catalog"] as? String == "tmdb")
        #expect(json["accepted"] as? Bool == true)
        #expect(json["checked"] as? Bool == true)
        #expect(json["credential"] as? String == "token")
        #expect(json["source"] as? String == "the environment (TMDB_API_TOKEN)")
        #expect(json["baseURL"] as? String == server.baseURL)
        for out in [text.stdout, text.stderr, try await home.reel(["tmdb", "status", "--json"]).stdout] {
            #expect(!out.contains("right-token-a41f"))
        }

        let wrong = try await home.reel(["tmdb", "status"], environment: ["TMDB_API_TOKEN": "wrong-token-77e2"])
        #expect(wrong.status == 77, "\(wrong.stderr)")
        #expect(Self.lines(wrong.stderr).count == 1 && wrong.stderr.hasPrefix("reel: ") && wrong.stderr.contains("401"), "\(wrong.stderr)")
        #expect(!(wrong.stdout + wrong.stderr).contains("wrong-token-77e2"))
        let wrongJSON = try await home.json(["tmdb", "status"], environment: ["TMDB_API_TOKEN": "wrong-token-77e2"], status: 77,
                                      schema: "tmdb-status.schema.json")
        #expect(wrongJSON["accepted"] as? Bool == false)
        #expect((wrongJSON["problem"] as? String)?.contains("401") == true)

        // Offline: configured, not checked, no request.
        let before = try await server.requests()
        let offline = try await home.json(["tmdb", "status", "--offline"], schema: "tmdb-status.schema.json")
        #expect(offline["checked"] as? Bool == false)
        #expect(offline["accepted"] is NSNull)
        await #expect(try server.requests() == before)

        // A v3 key from TMDB_API_KEY.
        let key = try await home.json(["tmdb", "status"], environment: ["TMDB_API_TOKEN": "", "TMDB_API_KEY": "a-v3-key"],
                                status: 77, schema: "tmdb-status.schema.json")
        #expect(key["credential"] as? String == "apiKey")
        #expect(key["source"] as? String == "the environment (TMDB_API_KEY)")
    }

    // MARK: - 8. tmdb login / logout

    @Test func loginSavesTheCredentialPrivatelyAndLogoutRemovesIt() async throws {
        let server = try FakeTMDbProcess()
        var home = Home()
        home.environment["REEL_TMDB_BASE_URL"] = server.baseURL
        let secret = "secret-token-123"
        let file = home.credentialsFile

        let login = try await home.reel(["tmdb", "login", "--no-check"], stdin: secret + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("saved"), "\(login.stdout)")
        #expect(login.stdout.contains(file))
        #expect(!(login.stdout + login.stderr).contains(secret))
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(Self.mode(file) == 0o600)
        #expect(Self.mode(home.config + "/reel") == 0o700)
        let contents = try String(contentsOfFile: file, encoding: .utf8)
        #expect(contents.contains("tmdb_api_token"))
        #expect(contents.contains(secret))
        #expect(!FileManager.default.fileExists(atPath: home.data + "/ledger"), "login touches no ledger")

        let status = try await home.json(["tmdb", "status"], schema: "tmdb-status.schema.json")
        #expect((status["source"] as? String)?.contains("credentials.json") == true, "\(status)")
        #expect(status["credential"] as? String == "token")
        #expect(status["accepted"] as? Bool == true)
        let statusText = try await home.reel(["tmdb", "status"])
        #expect(!(statusText.stdout + statusText.stderr).contains(secret))

        // The saved credential is used by show; a file others may read draws a note.
        let shown = try await home.reel(["show", "movie", "550"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stderr.isEmpty, "\(shown.stderr)")
        #expect(chmod(file, 0o644) == 0)
        let exposed = try await home.reel(["show", "movie", "550"])
        #expect(exposed.status == 0)
        #expect(Self.lines(exposed.stderr).count == 1 && exposed.stderr.contains("chmod 600"), "\(exposed.stderr)")

        // Checked against the server, as JSON.
        let checked = try await home.json(["tmdb", "login"], stdin: secret + "\n", schema: "tmdb-login.schema.json")
        #expect(checked["checked"] as? Bool == true)
        #expect(checked["credential"] as? String == "token")
        #expect(Self.mode(file) == 0o600, "a new login writes the file 0600 again")

        // A v3 key is saved as a key, with a note.
        let key = "0123456789abcdef0123456789abcdef"
        let keyLogin = try await home.reel(["tmdb", "login", "--no-check"], stdin: key + "\n")
        #expect(keyLogin.status == 0, "\(keyLogin.stderr)")
        #expect(Self.lines(keyLogin.stderr).count == 1, "\(keyLogin.stderr)")
        #expect(keyLogin.stderr.contains("v3 API key"), "\(keyLogin.stderr)")
        #expect(!(keyLogin.stdout + keyLogin.stderr).contains(key))
        let keyFile = try String(contentsOfFile: file, encoding: .utf8)
        #expect(keyFile.contains("tmdb_api_key"))
        #expect(!keyFile.contains("tmdb_api_token"))
        #expect(Self.mode(file) == 0o600)
        await #expect(try home.json(["tmdb", "status", "--offline"], schema: "tmdb-status.schema.json")["credential"] as? String == "apiKey")

        let logout = try await home.reel(["tmdb", "logout"])
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(logout.stdout.contains("removed"), "\(logout.stdout)")
        #expect(!FileManager.default.fileExists(atPath: file))
        let again = try await home.json(["tmdb", "logout"], schema: "tmdb-logout.schema.json")
        #expect(again["removed"] as? Bool == false)
        await #expect(try home.json(["tmdb", "status"], schema: "tmdb-status.schema.json")["catalog"] as? String == "sample")
    }

    @Test func loginRefusesEmptyInputAndRejectedCredentials() async throws {
        let home = Home()
        try await home.fails(["tmdb", "login", "--no-check"], stdin: "", status: 64, "no credential on standard input")
        try await home.fails(["tmdb", "login", "--no-check"], stdin: "   \n", status: 64, "no credential on standard input")
        try await home.fails(["tmdb", "login", "--no-check"], status: 64, "no credential on standard input")  // /dev/null
        #expect(!FileManager.default.fileExists(atPath: home.credentialsFile))

        let server = try FakeTMDbProcess(["--token", "right"])
        var checked = Home()
        checked.environment["REEL_TMDB_BASE_URL"] = server.baseURL
        let refused = try await checked.fails(["tmdb", "login"], stdin: "wrong-secret-91ab\n", status: 77, "401")
        #expect(!refused.stderr.contains("wrong-secret-91ab"))
        #expect(!FileManager.default.fileExists(atPath: checked.credentialsFile), "a refused credential is not saved")
        let accepted = try await checked.reel(["tmdb", "login"], stdin: "right\n")
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.contains("TMDb accepts it"))
    }

    @Test func theEnvironmentWinsOverTheSavedFileAndLogoutSaysItIsStillSet() async throws {
        var home = Home()
        #expect(try await home.reel(["tmdb", "login", "--no-check"], stdin: "file-secret-31\n").status == 0)
        home.environment["TMDB_API_TOKEN"] = "env-secret-32"
        let status = try await home.json(["tmdb", "status", "--offline"], schema: "tmdb-status.schema.json")
        #expect(status["source"] as? String == "the environment (TMDB_API_TOKEN)")
        let logout = try await home.reel(["tmdb", "logout"])
        #expect(logout.status == 0)
        #expect(logout.stderr.contains("still set"), "\(logout.stderr)")
        #expect(!(logout.stdout + logout.stderr).contains("env-secret-32"))
        #expect(!FileManager.default.fileExists(atPath: home.credentialsFile))
    }

    // MARK: - 9. No secret in the data directory

    @Test func noSecretIsEverWrittenToTheDataDirectory() async throws {
        let server = try FakeTMDbProcess()
        let token = "some-distinct-secret-9f8e7d"
        let key = "another-distinct-key-6c5b4a"
        let login = "login-distinct-secret-3a2b1c"
        let home = Home(server: server, token: token)
        let viaKey = ["TMDB_API_TOKEN": "", "TMDB_API_KEY": key]

        for (arguments, env) in [
            (["show", "movie", "550"], [:]),
            (["show", "movie", "550"], [:]),
            (["show", "movie", "550", "--offline"], [:]),
            (["settings", "language", "de-DE"], [:]),
            (["fav", "add", "movie", "238"], [:]),
            (["show", "movie", "238", "--json"], [:]),
            (["show", "tv", "1399", "--similar"], [:]),
            (["show", "movie", "603"], viaKey),
            (["show", "tv", "66732", "--json"], viaKey),
            (["show", "movie", "238", "--offline"], [:]),
            (["cache", "stats"], [:]),
            (["tmdb", "status"], [:]),
            (["tmdb", "status"], viaKey),
            (["saved"], [:]),
            (["history", "--json"], [:]),
        ] as [([String], [String: String])] {
            let out = try await home.reel(arguments, environment: env)
            #expect(out.status == 0, "\(arguments): \(out.stderr)")
            for secret in [token, key] {
                #expect(!(out.stdout + out.stderr).contains(secret), "\(arguments) printed a secret")
            }
        }
        #expect(try await home.reel(["show", "movie", "680", "--offline"]).status == 69)
        // A credential saved with login, then used.
        #expect(try await home.reel(["tmdb", "login"], environment: ["TMDB_API_TOKEN": ""], stdin: login + "\n").status == 0)
        #expect(try await home.reel(["show", "movie", "11"], environment: ["TMDB_API_TOKEN": ""]).status == 0)

        await #expect(try server.stats()["credentialLeaks"] as? Int == 0)
        for secret in [token, key, login] {
            #expect(try Self.files(under: home.data, containing: secret) == [], "\(secret) written to the data directory")
        }
        #expect(FileManager.default.fileExists(atPath: home.data + "/cache/data.mdb"))
        #expect(FileManager.default.fileExists(atPath: home.data + "/ledger"))
        // Only the credentials file holds the saved one.
        #expect(try Self.files(under: home.config, containing: login) == ["reel/credentials.json"])
    }
}
