import EndToEndSupport
import Foundation
import Pictures
import ReelTestSupport
import Testing

/// Posters through the built `reel` binary: `reel poster` against `fake-tmdb` (which serves
/// generated JPEG art at TMDb's image paths), the image cache under the data directory (cap,
/// offline, single flight across processes, stats and clear), and pictures drawn in a real
/// terminal (tmux) by `reel show` and `reel settings`.
@Suite struct PosterCommandTests {

    /// Fight Club's poster in the sample catalog (as TMDb gives it).
    static let fightClubPoster = "/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg"
    static let postered = ["550", "278", "238", "240", "424", "389", "129", "155", "497", "680", "122", "13", "429", "769"]

    static func imageRequests(_ server: FakeTMDbProcess, _ path: String) async throws -> Int {
        await (try server.stats()["byPath"] as? [String: Int] ?? [:])[path] ?? 0
    }

    @Test func aPosterIsWrittenToAFileOrAPipeAsTMDbServesIt() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        let file = temporaryDirectory() + "/fight-club.jpg"
        let wrote = try await home.reel(["poster", "movie", "550", "--out", file])
        #expect(wrote.status == 0, "\(wrote.stderr)")
        #expect(wrote.stdout.contains("500×750 JPEG (w500"), "\(wrote.stdout)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        let picture = try PictureDecoder().decode(bytes)
        #expect(picture.width == 500 && picture.height == 750)
        // The same image comes from the cache the second time: one request for it in all.
        let json = try await home.json(["poster", "movie", "550", "--size", "w500"], schema: "poster.schema.json")
        #expect(json["cached"] as? Bool == true)
        #expect((json["url"] as? String)?.hasPrefix(server.root + "/t/p/w500/") == true, "\(json)")
        await #expect(try Self.imageRequests(server, "/t/p/w500" + Self.fightClubPoster) == 1)
        // stdout that is no terminal gets the bytes themselves.
        let raw = try await Harness.run("/bin/sh", ["-c", "\(Harness.binaries)/reel poster movie 550 --size w92 | od -An -tx1 -N3"], environment: home.environment.merging(["REEL_DATA_DIR": home.data, "XDG_CONFIG_HOME": home.config]) { $1 })
        #expect(raw.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ff d8 ff", "\(raw.stdout) \(raw.stderr)")
    }

    @Test func backdropsAndProfilePhotosHaveTheirOwnSizes() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        let backdrop = try await home.json(["poster", "movie", "550", "--backdrop"], schema: "poster.schema.json")
        #expect(backdrop["size"] as? String == "w1280")
        #expect(backdrop["width"] as? Int == 1280 && backdrop["height"] as? Int == 720)
        let photo = try await home.json(["poster", "person", "287"], schema: "poster.schema.json")
        #expect(photo["size"] as? String == "h632")
        #expect(photo["height"] as? Int == 632)
        try await home.fails(["poster", "person", "287", "--size", "w500"], status: 64, "no profile size w500", "w45, w185, h632, original")
        try await home.fails(["poster", "movie", "550", "--size", "huge"], status: 64, "--size huge")
        try await home.fails(["poster", "person", "287", "--backdrop"], status: 64, "not a backdrop")
        try await home.fails(["poster", "movie", "550", "--out", temporaryDirectory()], status: 64, "directory")
        try await server.fault("kind=status&status=403&count=1&path=/t/p/")
        try await home.fails(["poster", "movie", "550", "--size", "w154"], status: 69, "HTTP 403")
    }

    @Test func offlineOnlyTheCacheAnswersAndClearingForgetsTheImages() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        try await home.fails(["poster", "movie", "550", "--offline", "--size", "w342"], status: 69, "offline")
        let online = try await home.reel(["poster", "movie", "550", "--size", "w342", "--out", temporaryDirectory() + "/a.jpg"])
        #expect(online.status == 0, "\(online.stderr)")
        server.stop()
        let offline = try await home.json(["poster", "movie", "550", "--size", "w342", "--offline"], schema: "poster.schema.json")
        #expect(offline["cached"] as? Bool == true)
        let stats = try await home.json(["cache", "stats"], schema: "cache-stats.schema.json")
        let images = try #require(stats["images"] as? [String: Any])
        #expect(images["images"] as? Int == 1)
        #expect((images["bytes"] as? Int ?? 0) > 1000)
        let cleared = try await home.json(["cache", "clear", "--images"], schema: "cache-clear.schema.json")
        #expect((cleared["images"] as? [String: Any])?["cleared"] as? Int == 1)
        #expect(cleared["cleared"] == nil, "--images leaves the answers alone")
        try await home.fails(["poster", "movie", "550", "--offline", "--size", "w342"], status: 69, "offline")
        // The answers are still there: the title's details and /configuration.
        await #expect((try home.json(["cache", "stats"], schema: "cache-stats.schema.json")["entries"] as? Int ?? 0) >= 2)
    }

    @Test func theCacheStaysWithinItsCapLeastRecentlyUsedFirst() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        let cap = ["REEL_IMAGE_CACHE_MB": "1"]
        var total = 0
        for id in Self.postered {
            let got = try await home.json(["poster", "movie", id, "--size", "original"], environment: cap, schema: "poster.schema.json")
            total += got["bytes"] as? Int ?? 0
        }
        #expect(total > 1 << 20, "the posters together pass the cap (\(total) bytes)")
        let stats = try await #require(try home.json(["cache", "stats"], environment: cap, schema: "cache-stats.schema.json")["images"] as? [String: Any])
        #expect((stats["bytes"] as? Int ?? .max) <= 1 << 20)
        #expect((stats["images"] as? Int ?? 0) < Self.postered.count)
        // The newest stayed, the first went.
        await #expect(try home.json(["poster", "movie", Self.postered.last!, "--size", "original", "--offline"], environment: cap, schema: "poster.schema.json")["cached"] as? Bool == true)
        try await home.fails(["poster", "movie", Self.postered.first!, "--size", "original", "--offline"], environment: cap, status: 69, "offline")
    }

    @Test func twoCommandsAtOnceFetchAnImageOnce() async throws {
        let server = try FakeTMDbProcess(["--latency-ms", "400"])
        let home = Home(server: server)
        // The details first, so both commands reach the image at about the same moment.
        #expect(try await home.reel(["show", "movie", "550"]).status == 0)
        let statuses = await withTaskGroup(of: Int32.self) { group in
            for n in 0..<3 {
                group.addTask {
                    let out = try? await home.reel(["poster", "movie", "550", "--size", "w780", "--out", temporaryDirectory("twice-\(n)") + "/p.jpg"])
                    return out?.status ?? -1
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == [0, 0, 0])
        await #expect(try Self.imageRequests(server, "/t/p/w780" + Self.fightClubPoster) == 1)
    }

    @Test func aDamagedImageIsOneClearLineAndIsNotCached() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        try await server.fault("kind=half&count=1&path=/t/p/")
        try await home.fails(["poster", "movie", "550", "--size", "w185"], status: 65, "malformed", "truncated")
        await #expect(try home.json(["cache", "stats"], schema: "cache-stats.schema.json")["images"].flatMap { ($0 as? [String: Any])?["images"] as? Int } ?? 0 == 0)
        // The fault is used up: the next try works.
        #expect(try await home.reel(["poster", "movie", "550", "--size", "w185", "--out", temporaryDirectory() + "/p.jpg"]).status == 0)
    }

    /// The image cache would tell which titles an account looked at: deleting the account removes
    /// it, as it removes the response cache.
    @Test func deletingAnAccountRemovesTheImageCache() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        #expect(try await home.reel(["fav", "add", "movie", "550"]).status == 0)
        #expect(try await home.reel(["poster", "movie", "550", "--size", "w92", "--out", temporaryDirectory() + "/p.jpg"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: home.data + "/images/data.mdb"))
        let deleted = try await home.reel(["account", "delete", "--yes"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.data + "/images"))
    }

    /// A damaged image cache: `cache stats` still shows the answers, then one line naming the
    /// cure (65); pictures are fetched without the cache meanwhile; `clear --images` cures it.
    @Test func aDamagedImageCacheIsOneLineWithItsCure() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        #expect(try await home.reel(["poster", "movie", "550", "--size", "w92", "--out", temporaryDirectory() + "/p.jpg"]).status == 0)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: home.data + "/images/data.mdb"))
        try file.write(contentsOf: Data(repeating: 0xAB, count: 16384))
        try file.close()
        let stats = try await home.reel(["cache", "stats"])
        #expect(stats.status == 65, "\(stats.stderr)")
        #expect(stats.stdout.contains("answers"), "\(stats.stdout)")
        #expect(CatalogCommandTests.lines(stats.stderr).count == 1 && stats.stderr.contains("reel cache clear --images"), "\(stats.stderr)")
        let poster = try await home.reel(["poster", "movie", "550", "--size", "w92", "--out", temporaryDirectory() + "/q.jpg"])
        #expect(poster.status == 0 && poster.stderr.contains("image cache"), "\(poster.stderr)")
        #expect(try await home.reel(["cache", "clear", "--images"]).status == 0)
        #expect(try await home.reel(["cache", "stats"]).status == 0)
        let odd = try await home.reel(["poster", "movie", "550", "--size", "w92", "--out", temporaryDirectory() + "/r.jpg"], environment: ["REEL_IMAGE_CACHE_MB": "lots"])
        #expect(odd.status == 0 && odd.stderr.contains("REEL_IMAGE_CACHE_MB=lots is not a whole number"), "\(odd.stderr)")
    }

    @Test func theSampleCatalogDrawsItsArtWithNoNetwork() async throws {
        let home = Home()
        let out = try await home.json(["poster", "movie", "550", "--size", "w154"], schema: "poster.schema.json")
        #expect(out["width"] as? Int == 154)
        let cache = try await home.json(["cache", "stats"], schema: "cache-stats.schema.json")
        #expect((cache["images"] as? [String: Any])?["images"] as? Int == 0, "sample art is made, not cached")
    }

    /// The poster drawn beside the details in a real terminal: coloured cells at the left of the
    /// title's lines, none with --no-poster, and none when stdout is a pipe.
    @Test func showDrawsThePosterBesideTheDetailsAtATerminal() async throws {
        let server = try FakeTMDbProcess()
        let home = Home(server: server)
        var environment = home.environment
        environment["REEL_DATA_DIR"] = home.data
        environment["XDG_CONFIG_HOME"] = home.config
        environment["LANG"] = "C.UTF-8"
        environment["COLORTERM"] = "truecolor"
        environment["TERM"] = "tmux-256color"
        let session = try await TerminalSession([Harness.binaries + "/reel", "show", "movie", "550"], environment: environment, width: 120, height: 50)
        defer { session.end() }
        try await session.waitFor("exit 0")
        let screen = try await session.colouredScreen()
        let titleLine = try #require(screen.split(separator: "\n").first { $0.contains("Fight Club (1999)") })
        let before = String(titleLine[..<titleLine.range(of: "Fight Club")!.lowerBound])
        #expect(before.contains("\u{1B}[") && before.contains("48;2;"), "truecolor cells of the poster before the title: \(before.debugDescription)")
        let plain = try await session.screen()
        #expect(plain.contains("Poster: " + server.root + "/t/p/w500"), "\(plain)")

        let bare = try await TerminalSession([Harness.binaries + "/reel", "show", "movie", "550", "--no-poster"], environment: environment, width: 120, height: 50)
        defer { bare.end() }
        try await bare.waitFor("exit 0")
        await #expect(!(try bare.colouredScreen()).contains("48;2;"), "no picture with --no-poster")

        // A slow image host: the details come after at most 3 s, with a note, and no poster.
        try await server.fault("kind=latency&ms=25000&count=10&path=/t/p/")
        let started = Date()
        // (A data directory of its own: the first one has the poster cached.)
        let slow = try await TerminalSession(
            [Harness.binaries + "/reel", "show", "movie", "550"], environment: environment.merging(["REEL_DATA_DIR": temporaryDirectory("slow")]) { $1 },
            width: 120, height: 50)
        defer { slow.end() }
        let shown = try await slow.waitFor("exit 0", seconds: 15)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(shown.contains("Fight Club (1999)") && shown.contains("did not answer within 3 s"), "\(shown)")

        // The bytes of a JPEG are not for a terminal.
        let raw = try await TerminalSession([Harness.binaries + "/reel", "poster", "movie", "550", "--out", "-"], environment: environment, width: 120, height: 20)
        defer { raw.end() }
        await #expect(try raw.waitFor("exit 64").contains("reel: --out - writes the image's bytes to stdout, which is a terminal here"))

        let piped = try await home.reel(["show", "movie", "550"], environment: ["COLORTERM": "truecolor"])
        #expect(!piped.stdout.contains("\u{1B}"), "no escape in a pipe")
    }

    @Test func settingsDrawsTheAccountsPhoto() async throws {
        let home = Home()
        let photo = temporaryDirectory() + "/me.jpg"
        let red = try PictureEncoder.jpeg(Picture(width: 120, height: 160, filledWith: RGB(220, 20, 30)))
        try Data(red).write(to: URL(fileURLWithPath: photo))
        #expect(try await home.reel(["settings", "photo", photo]).status == 0)
        var environment = home.environment
        environment["REEL_DATA_DIR"] = home.data
        environment["XDG_CONFIG_HOME"] = home.config
        environment["LANG"] = "C.UTF-8"
        environment["COLORTERM"] = "truecolor"
        let session = try await TerminalSession([Harness.binaries + "/reel", "settings"], environment: environment, width: 100, height: 30)
        defer { session.end() }
        try await session.waitFor("exit 0")
        let screen = try await session.colouredScreen()
        // The photo's red, near enough (JPEG), in the cells beside the table.
        let reds = screen.split(separator: "\n").filter { $0.contains(";2;2") && ($0.contains("48;2;2") || $0.contains("38;2;2")) }
        #expect(reds.count >= 6, "\(screen.debugDescription)")
        await #expect(try session.screen().contains("JPEG 120x160"))
    }
}
