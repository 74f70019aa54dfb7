import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// The summary cache through the built `reel` binary against `fake-tmdb`: lists of saved titles
/// are answered from the per-title summaries kept in `DATA_DIR/cache` (no request, same output),
/// per language, revalidated when they expire, served offline, and gone after `reel cache clear`.
@Suite struct SummaryCacheCommandTests {

    static let saved: [(type: String, ids: [String])] = [("movie", ["550", "603", "238"]), ("tv", ["1399"])]
    static let paths = ["/movie/550", "/movie/603", "/movie/238", "/tv/1399"]

    static func home(_ server: FakeTMDbProcess) async throws -> Home {
        var home = Home(server: server)
        home.environment["COLUMNS"] = "100"
        for (type, ids) in saved {
            let added = try await home.reel(["fav", "add", type] + ids)
            #expect(added.status == 0, "\(added.stderr)")
        }
        return home
    }

    /// Requests the server saw for each saved title's details.
    static func detailRequests(_ server: FakeTMDbProcess) async throws -> [Int] {
        let byPath = try await server.stats()["byPath"] as? [String: Int] ?? [:]
        return paths.map { byPath[$0] ?? 0 }
    }

    /// `reel ARGUMENTS`, which must succeed with nothing on stderr; its stdout.
    static func quiet(_ home: Home, _ arguments: [String]) async throws -> String {
        let out = try await home.reel(arguments)
        #expect(out.status == 0, "\(arguments): exit \(out.status), \(out.stderr)")
        #expect(out.stderr.isEmpty, "\(arguments): \(out.stderr)")
        return out.stdout
    }

    @Test func aSavedListIsAnsweredFromTheCacheWithTheSameOutput() async throws {
        let server = try FakeTMDbProcess()
        let home = try await Self.home(server)
        // `fav add` checked each id with TMDb: that is the only request for each title.
        await #expect(try Self.detailRequests(server) == [1, 1, 1, 1])

        let text = try await Self.quiet(home, ["saved"])
        #expect(text.contains("Fight Club") && text.contains("The Godfather") && text.contains("Game of Thrones"), "\(text)")
        let json = try await home.json(["saved"], schema: "saved.schema.json")
        #expect(json["detailsMissing"] as? Int == 0)
        for _ in 0..<2 {
            await #expect(try Self.quiet(home, ["saved"]) == text)
            await #expect(try Self.quiet(home, ["saved", "--sort", "rating", "--desc"]).contains("Fight Club"))
        }
        await #expect(try Self.detailRequests(server) == [1, 1, 1, 1], "answered from the cache")

        // Offline, and with the server gone, the same list.
        await #expect(try Self.quiet(home, ["saved", "--offline"]) == text)
        server.stop()
        await #expect(try Self.quiet(home, ["saved", "--offline"]) == text)
    }

    @Test func eachLanguageIsFetchedOnceAndKeptApart() async throws {
        let server = try FakeTMDbProcess()
        let home = try await Self.home(server)
        let english = try await Self.quiet(home, ["saved"])
        #expect(english.contains("The Godfather"), "\(english)")

        #expect(try await home.reel(["settings", "language", "de-DE"]).status == 0)
        let german = try await Self.quiet(home, ["saved"])
        #expect(german.contains("Der Pate") && german.contains("Krimi") && !german.contains("The Godfather"), "\(german)")
        await #expect(try Self.detailRequests(server) == [2, 2, 2, 2], "German details fetched once each")
        await #expect(try Self.quiet(home, ["saved"]) == german)

        #expect(try await home.reel(["settings", "language", "en-US"]).status == 0)
        await #expect(try Self.quiet(home, ["saved"]) == english)
        await #expect(try Self.detailRequests(server) == [2, 2, 2, 2], "both languages answered from the cache")
    }

    @Test func expiredDetailsAreRevalidatedNotServedFromTheCache() async throws {
        let server = try FakeTMDbProcess(["--max-age", "1"])
        let home = try await Self.home(server)
        func notModified() async throws -> Int { try await server.stats()["notModified"] as? Int ?? -1 }
        let asked = try await Self.detailRequests(server)
        let revalidated = try await notModified()

        // Each run after a title's answer expired asks for it again, with its ETag (304). A fixed
        // delay is what this checks: answers of max-age 1 s expire on the clock `reel` reads.
        try await Task.sleep(for: .milliseconds(1200))
        let text = try await Self.quiet(home, ["saved"])
        await #expect(try Self.detailRequests(server) == asked.map { $0 + 1 })
        await #expect(try notModified() == revalidated + 4)
        try await Task.sleep(for: .milliseconds(1200))  // as above: the answers expire again
        await #expect(try Self.quiet(home, ["saved"]) == text)
        await #expect(try Self.detailRequests(server) == asked.map { $0 + 2 })
        await #expect(try notModified() == revalidated + 8)
    }

    @Test func clearingTheCacheForgetsTheSummariesToo() async throws {
        let server = try FakeTMDbProcess()
        let home = try await Self.home(server)
        let text = try await Self.quiet(home, ["saved"])
        let stats = try await home.json(["cache", "stats"], schema: "cache-stats.schema.json")
        #expect(stats["entries"] as? Int == 4, "one answer per title; the summaries are not counted as answers")

        let cleared = try await home.json(["cache", "clear"], schema: "cache-clear.schema.json")
        #expect(cleared["cleared"] as? Int == 4)
        // Offline now, nothing is left to show: not an answer, not a summary.
        let offline = try await home.json(["saved", "--offline"], schema: "saved.schema.json")
        #expect(offline["detailsMissing"] as? Int == 4, "\(offline)")
        await #expect((try home.json(["cache", "stats"], schema: "cache-stats.schema.json"))["entries"] as? Int == 0)

        // Online, every title is fetched again, and the list is as it was.
        await #expect(try Self.quiet(home, ["saved"]) == text)
        await #expect(try Self.detailRequests(server) == [2, 2, 2, 2])
        await #expect(try Self.quiet(home, ["saved"]) == text)
        await #expect(try Self.detailRequests(server) == [2, 2, 2, 2])
    }
}
