import EndToEndSupport
import Foundation
import ReelTestSupport
import Testing

/// A damaged TMDb response cache (`DATA_DIR/cache/data.mdb`): `cache stats` says so in one line
/// (65) and names the cure, `cache clear` cures it, and the commands that only use the cache go on
/// without it, with one note.
@Suite struct DamagedCacheTests {
    typealias Fault = DamagedFileTests.Fault

    /// A cache with a few answers (the details of the saved titles, a discover list).
    static func home(_ server: FakeTMDbProcess) async throws -> Home {
        let home = Home(server: server)
        #expect(try await home.reel(["fav", "add", "movie", "550", "603", "238"]).status == 0)
        #expect(try await home.reel(["movies"]).status == 0)
        let stats = try await home.json(["cache", "stats"], schema: "cache-stats.schema.json")
        #expect(stats["entries"] as? Int ?? 0 > 2)
        return home
    }

    @Test(arguments: Fault.allCases)
    func aDamagedCacheIsReportedClearedAndOtherwiseLeftAside(_ fault: Fault) async throws {
        let server = try FakeTMDbProcess()
        let home = try await Self.home(server)
        let file = home.data + "/cache/data.mdb"
        try fault.apply(to: file)

        // The commands that use the cache: a note at most, and the answer. Random bytes inside
        // the tree are the one damage LMDB (no page checksums) may meet as a fault or an assertion
        // rather than an error, whichever pages they land on: then the handbook's contract for
        // damaged files ("Exit codes") holds instead, one line naming the cache (never the ledger)
        // and its cure, and 65, before anything is written; `cache clear` cures it below all the
        // same.
        for arguments in [["show", "movie", "550"], ["saved"]] {
            let out = try await home.reel(arguments)
            let lines = out.stderr.split(separator: "\n")
            if fault == .random && out.status == 65 {
                #expect(lines.count == 1 && lines[0].hasPrefix("reel: ") && lines[0].contains("cache/data.mdb is damaged"), "\(fault) \(arguments): \(out.stderr)")
                #expect(out.stderr.contains("reel cache clear") && !out.stderr.contains("ledger"), "\(fault) \(arguments): \(out.stderr)")
                continue
            }
            #expect(out.status == 0, "\(fault) \(arguments): \(out.stderr)")
            #expect(lines.allSatisfy { $0.hasPrefix("reel: note: ") } && lines.count <= 1, "\(fault) \(arguments): \(out.stderr)")
            if fault.cutsShort { #expect(out.stderr.contains("reel cache clear"), "\(fault) \(arguments): \(out.stderr)") }
        }
        if fault != .random { #expect(try await home.reel(["show", "movie", "550"]).stdout.contains("Fight Club")) }

        // Stats: one line, 65, the cure named; or, where the damage is in pages it does not read, figures.
        try fault.apply(to: file)
        let stats = try await home.reel(["cache", "stats"])
        #expect(!stats.stderr.contains("Backtrac") && !stats.stderr.contains("Program crashed"), "\(fault): \(stats.stderr)")
        if fault.cutsShort || stats.status != 0 {
            #expect(stats.status == 65, "\(fault): \(stats.stderr)")
            #expect(stats.stderr.hasPrefix("reel: ") && stats.stderr.split(separator: "\n").count == 1, "\(fault): \(stats.stderr)")
            #expect(stats.stderr.contains("cache/data.mdb") && stats.stderr.contains("run 'reel cache clear'"), "\(fault): \(stats.stderr)")
        }

        let cleared = try await home.reel(["cache", "clear", "--json"])
        #expect(cleared.status == 0, "\(fault): \(cleared.stderr)")
        #expect(try Harness.validate(cleared.stdout, against: "cli/cache-clear.schema.json").status == 0)
        if fault.cutsShort { #expect(try Harness.json(cleared.stdout)["damaged"] is String, "\(cleared.stdout)") }
        let empty = try await home.json(["cache", "stats"], schema: "cache-stats.schema.json")
        #expect(empty["entries"] as? Int == 0)
        // The cache works again: the next answer is cached.
        let before = try await server.requests()
        #expect(try await home.reel(["show", "movie", "238"]).status == 0)
        let fetched = try await server.requests()
        #expect(fetched > before)
        #expect(try await home.reel(["show", "movie", "238"]).status == 0)
        await #expect(try server.requests() == fetched)
    }

    @Test func clearingAHealthyCacheStillCountsItsAnswers() async throws {
        let server = try FakeTMDbProcess()
        let home = try await Self.home(server)
        let entries = try await home.json(["cache", "stats"], schema: "cache-stats.schema.json")["entries"] as? Int
        let cleared = try await home.json(["cache", "clear"], schema: "cache-clear.schema.json")
        #expect(cleared["cleared"] as? Int == entries)
        #expect(cleared["damaged"] == nil)
    }
}
