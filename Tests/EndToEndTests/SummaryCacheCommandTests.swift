import Foundation
import ReelTestSupport
import Testing

/// The summary cache through the built `reel` binary against `fake-tmdb`: lists of saved titles
/// are answered from the per-title summaries kept in `DATA_DIR/cache` (no request, same output),
/// per language, revalidated when they expire, served offline, and gone after `reel cache clear`.
@Suite struct SummaryCacheCommandTests {
    typealias Home = CatalogCommandTests.Home

    static let saved: [(type: String, ids: [String])] = [("movie", ["550", "603", "238"]), ("tv", ["1399"])]
    static let paths = ["/movie/550", "/movie/603", "/movie/238", "/tv/1399"]

    static func home(_ server: FakeTMDbProcess) throws -> Home {
        var home = Home(server: server)
        home.environment["COLUMNS"] = "100"
        for (type, ids) in saved {
            let added = try home.reel(["fav", "add", type] + ids)
            #expect(added.status == 0, "\(added.stderr)")
        }
        return home
    }

    /// Requests the server saw for each saved title's details.
    static func detailRequests(_ server: FakeTMDbProcess) throws -> [Int] {
        let byPath = try server.stats()["byPath"] as? [String: Int] ?? [:]
        return paths.map { byPath[$0] ?? 0 }
    }

    /// `reel ARGUMENTS`, which must succeed with nothing on stderr; its stdout.
    static func quiet(_ home: Home, _ arguments: [String]) throws -> String {
        let out = try home.reel(arguments)
        #expect(out.status == 0, "\(arguments): exit \(out.status), \(out.stderr)")
        #expect(out.stderr.isEmpty, "\(arguments): \(out.stderr)")
        return out.stdout
    }

    @Test func aSavedListIsAnsweredFromTheCacheWithTheSameOutput() throws {
        let server = try FakeTMDbProcess()
        let home = try Self.home(server)
        // `fav add` checked each id with TMDb: that is the only request for each title.
        #expect(try Self.detailRequests(server) == [1, 1, 1, 1])

        let text = try Self.quiet(home, ["saved"])
        #expect(text.contains("Fight Club") && text.contains("The Godfather") && text.contains("Game of Thrones"), "\(text)")
        let json = try home.json(["saved"], schema: "saved.schema.json")
        #expect(json["detailsMissing"] as? Int == 0)
        for _ in 0..<2 {
            #expect(try Self.quiet(home, ["saved"]) == text)
            #expect(try Self.quiet(home, ["saved", "--sort", "rating", "--desc"]).contains("Fight Club"))
        }
        #expect(try Self.detailRequests(server) == [1, 1, 1, 1], "answered from the cache")

        // Offline, and with the server gone, the same list.
        #expect(try Self.quiet(home, ["saved", "--offline"]) == text)
        server.stop()
        #expect(try Self.quiet(home, ["saved", "--offline"]) == text)
    }

    @Test func eachLanguageIsFetchedOnceAndKeptApart() throws {
        let server = try FakeTMDbProcess()
        let home = try Self.home(server)
        let english = try Self.quiet(home, ["saved"])
        #expect(english.contains("The Godfather"), "\(english)")

        #expect(try home.reel(["settings", "language", "de-DE"]).status == 0)
        let german = try Self.quiet(home, ["saved"])
        #expect(german.contains("Der Pate") && german.contains("Krimi") && !german.contains("The Godfather"), "\(german)")
        #expect(try Self.detailRequests(server) == [2, 2, 2, 2], "German details fetched once each")
        #expect(try Self.quiet(home, ["saved"]) == german)

        #expect(try home.reel(["settings", "language", "en-US"]).status == 0)
        #expect(try Self.quiet(home, ["saved"]) == english)
        #expect(try Self.detailRequests(server) == [2, 2, 2, 2], "both languages answered from the cache")
    }

    @Test func expiredDetailsAreRevalidatedNotServedFromTheCache() throws {
        let server = try FakeTMDbProcess(["--max-age", "1"])
        let home = try Self.home(server)
        func notModified() throws -> Int { try server.stats()["notModified"] as? Int ?? -1 }
        let asked = try Self.detailRequests(server)
        let revalidated = try notModified()

        // Each run after a title's answer expired asks for it again, with its ETag (304).
        Thread.sleep(forTimeInterval: 1.2)
        let text = try Self.quiet(home, ["saved"])
        #expect(try Self.detailRequests(server) == asked.map { $0 + 1 })
        #expect(try notModified() == revalidated + 4)
        Thread.sleep(forTimeInterval: 1.2)
        #expect(try Self.quiet(home, ["saved"]) == text)
        #expect(try Self.detailRequests(server) == asked.map { $0 + 2 })
        #expect(try notModified() == revalidated + 8)
    }

    @Test func clearingTheCacheForgetsTheSummariesToo() throws {
        let server = try FakeTMDbProcess()
        let home = try Self.home(server)
        let text = try Self.quiet(home, ["saved"])
        let stats = try home.json(["cache", "stats"], schema: "cache-stats.schema.json")
        #expect(stats["entries"] as? Int == 4, "one answer per title; the summaries are not counted as answers")

        let cleared = try home.json(["cache", "clear"], schema: "cache-clear.schema.json")
        #expect(cleared["cleared"] as? Int == 4)
        // Offline now, nothing is left to show: not an answer, not a summary.
        let offline = try home.json(["saved", "--offline"], schema: "saved.schema.json")
        #expect(offline["detailsMissing"] as? Int == 4, "\(offline)")
        #expect((try home.json(["cache", "stats"], schema: "cache-stats.schema.json"))["entries"] as? Int == 0)

        // Online, every title is fetched again, and the list is as it was.
        #expect(try Self.quiet(home, ["saved"]) == text)
        #expect(try Self.detailRequests(server) == [2, 2, 2, 2])
        #expect(try Self.quiet(home, ["saved"]) == text)
        #expect(try Self.detailRequests(server) == [2, 2, 2, 2])
    }
}
