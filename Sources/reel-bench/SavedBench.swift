import Stores
import ArgumentParser
import Catalog
import FakeTMDb
import Foundation
import Ledger
import Reel

/// The benchmark of issue 5: `reel saved` for an account with 500 saved titles, as whole
/// processes against the fake TMDb server (50 ms of latency per request): first with an empty
/// response cache, where the floor is titles × latency / connections, then from the cache.
struct SavedBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saved",
        abstract: "Benchmark `reel saved` with catalog details: a cold cache against the fake server, then a warm one.")

    @Option(help: "Saved titles.") var titles = 500
    @Option(name: .customLong("latency-ms"), help: "Server latency per request.") var latencyMs = 50
    @Option(help: "Connections (REEL_TMDB_CONNECTIONS).") var connections = 8
    @Option(help: "Runs of each timed command (the median is reported).") var runs = 5
    @Flag(help: "Also time a cold run at the default rate limit (30 requests/s: about titles / 30 seconds).") var politeRun = false
    @Flag(help: "Small sizes: a smoke test of the harness, not a measurement.") var quick = false

    func run() async throws {
        let titles = quick ? 40 : self.titles
        let runs = quick ? 2 : self.runs
        let reel = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reel").path
        guard FileManager.default.isExecutableFile(atPath: reel) else { throw BenchmarkError("no reel binary beside reel-bench: \(reel)") }
        var options = FakeTMDbServer.Options()
        options.latency = .milliseconds(latencyMs)
        options.syntheticMovies = titles
        let server = try await FakeTMDbServer.start(options: options)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-saved-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let data = root + "/data"

        note("saving \(titles) titles in a new ledger")
        let service = try AccountService.open(at: data)
        let keys = try (1...titles).map { try MediaKey(.movie, Int64(SampleCatalog.syntheticBase + $0)) }
        _ = try service.execute(.addFavorites(keys), for: try AccountHandle("bench"))

        // The rate limit out of the way: the connection limit sets the floor.
        var env = [
            "REEL_DATA_DIR": data, "REEL_USER": "bench", "XDG_CONFIG_HOME": root + "/config", "NO_COLOR": "1",
            "TMDB_API_TOKEN": "bench-token", "TMDB_API_KEY": "", "REEL_TMDB_BASE_URL": server.baseURL,
            "REEL_TMDB_CONNECTIONS": String(connections), "REEL_TMDB_RATE": "100000", "REEL_OFFLINE": "",
        ]
        func clearCache() throws { try? FileManager.default.removeItem(atPath: data + "/cache") }

        note("reel saved with an empty cache, \(runs) runs (\(latencyMs) ms latency, \(connections) connections)")
        var cold: [Double] = []
        var coldRequests = 0
        var maxInFlight = 0
        for _ in 0..<runs {
            try clearCache()
            server.reset()
            cold.append(try Self.time(reel, ["saved"], env))
            coldRequests = max(coldRequests, server.statistics.requests)
            maxInFlight = max(maxInFlight, server.statistics.maxInFlight)
        }
        let floor = Double(titles) * Double(latencyMs) / 1000 / Double(connections)

        note("reel saved from the cache, \(runs) runs")
        server.reset()
        var warm: [Double] = []
        for _ in 0..<runs { warm.append(try Self.time(reel, ["saved"], env)) }
        let warmRequests = server.statistics.requests
        var version: [Double] = []
        for _ in 0..<runs { version.append(try Self.time(reel, ["--version"], env)) }

        var polite: Double?
        if politeRun {
            note("reel saved with an empty cache at the default rate limit")
            try clearCache()
            env["REEL_TMDB_RATE"] = nil
            polite = try Self.time(reel, ["saved"], env)
        }
        await server.stop()

        let c = Self.median(cold), w = Self.median(warm), v = Self.median(version)
        var table = Table(columns: ["benchmark", "Reel", "floor", "ratio", "target", "met"])
        table.row(["1. reel saved, \(titles) titles, empty cache (s, p50)", fixed(c, 2), fixed(floor, 2), fixed(c / floor, 2) + "×", "≤ 1.25 × floor", c <= 1.25 * floor ? "yes" : "NO"])
        table.row(["   requests the server saw / most in flight", "\(coldRequests) / \(maxInFlight)", "", "", "\(titles) / ≤ \(connections)", coldRequests == titles && maxInFlight <= connections ? "yes" : "NO"])
        table.row(["2. reel saved, \(titles) titles, from the cache (ms, p50)", fixed(w * 1e3, 1), fixed(v * 1e3, 1), fixed(w / v, 1) + "×", "≤ 100 ms", w <= 0.1 ? "yes" : "NO"])
        table.row(["   requests the server saw", "\(warmRequests)", "", "", "0", warmRequests == 0 ? "yes" : "NO"])
        if let polite {
            let politeFloor = Double(titles) / CatalogLimits().requestsPerSecond
            table.row(["3. empty cache at the default 30 requests/s (s)", fixed(polite, 2), fixed(politeFloor, 2), fixed(polite / politeFloor, 2) + "×", "(reported)", ""])
        }
        print()
        print(quick ? "reel-bench saved --quick (smoke test; sizes too small to mean anything)"
            : "reel-bench saved: \(ProcessInfo.processInfo.activeProcessorCount) cores; floor 1 = titles × latency / connections (rate limit lifted); floor 2 = `reel --version`")
        table.print()
    }

    /// Wall time of one whole process; a non-zero exit is an error.
    static func time(_ executable: String, _ arguments: [String], _ environment: [String: String]) throws -> Double {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        return try Timing.run([executable] + arguments, environment: env)
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    private func fixed(_ v: Double, _ d: Int) -> String { v.isFinite ? String(format: "%.\(d)f", v) : "–" }
    private func note(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8)) }
}
