import ArgumentParser
import FakeTMDb
import Foundation

/// Issue 22's benchmark, each figure beside its baseline in the same run: `reel show` with OMDb
/// from a warm cache against `reel show` without OMDb (whole process each time, a pipe, no
/// poster); and filling a saved list of synthetic titles against the fake servers at 50 ms
/// latency (TMDb's details, then OMDb's scores by the IMDb ids they carry) against the floor the
/// connection limits set: ⌈n / TMDb's connections⌉ + ⌈n / OMDb's connections⌉ round trips.
struct OMDbBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "omdb",
        abstract: "Benchmark reel show with vs without OMDb (warm cache), and filling a saved list from TMDb and OMDb at 50 ms latency vs the connection-limit floor.")

    @Option(help: "Runs of reel show each way.") var runs = 30
    @Option(help: "Titles in the saved list filled.") var titles = 500
    @Option(name: .customLong("latency-ms"), help: "The fake servers' latency for the fill.") var latency = 50
    @Flag(help: "Few runs: a smoke test of the harness, not a measurement.") var quick = false

    func run() async throws {
        let runs = quick ? 2 : self.runs, titles = quick ? 12 : self.titles
        let reel = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reel").path
        guard FileManager.default.isExecutableFile(atPath: reel) else { throw BenchmarkError("no reel binary beside reel-bench: \(reel)") }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-omdb-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }

        // reel show: warm caches, no latency (what is measured is Reel's own cost).
        let warm = try await FakeTMDbServer.start()
        var environment = UIBench.environment(root: root + "/show", server: warm)
        environment["OMDB_API_KEY"] = "bench-key"
        environment["REEL_OMDB_BASE_URL"] = warm.omdbBaseURL
        var without = environment
        without["OMDB_API_KEY"] = nil
        note("reel show movie 550, with and without OMDb, \(runs) runs each")
        _ = try Self.reel(reel, ["show", "movie", "550", "--no-poster"], environment)
        var withOMDb: [Double] = [], withoutOMDb: [Double] = []
        for _ in 0..<runs {
            withOMDb.append(try Self.reel(reel, ["show", "movie", "550", "--no-poster"], environment))
            withoutOMDb.append(try Self.reel(reel, ["show", "movie", "550", "--no-poster"], without))
        }
        let asked = warm.statistics.omdbRequests
        await warm.stop()

        // The fill: a cold saved list of synthetic movies at the given latency, both sources.
        var options = FakeTMDbServer.Options()
        options.latency = .milliseconds(latency)
        options.syntheticMovies = titles
        let slow = try await FakeTMDbServer.start(options: options)
        var fill = UIBench.environment(root: root + "/fill", server: slow)
        fill["OMDB_API_KEY"] = "bench-key"
        fill["REEL_OMDB_BASE_URL"] = slow.omdbBaseURL
        fill["REEL_OMDB_DAILY"] = String(titles * 2)
        let ids = (1...titles).map { String(90_000_000 + $0) }
        // Saved offline, so no details are fetched (and cached) before the timed run.
        _ = try Self.reel(reel, ["fav", "add", "movie", "--offline"] + ids, fill)
        let before = (tmdb: slow.statistics.requests, omdb: slow.statistics.omdbRequests)
        note("reel saved: filling \(titles) titles from TMDb and OMDb at \(latency) ms latency")
        let filled = try Self.reel(reel, ["saved", "--json"], fill)
        let statistics = slow.statistics
        await slow.stop()
        let tmdbConnections = Int(fill["REEL_TMDB_CONNECTIONS"] ?? "8") ?? 8, omdbConnections = 4
        let trips = (titles + tmdbConnections - 1) / tmdbConnections + (titles + omdbConnections - 1) / omdbConnections
        let floor = Double(trips * latency)

        print()
        print(quick ? "reel-bench omdb --quick (smoke test)" : "reel-bench omdb: \(ProcessInfo.processInfo.activeProcessorCount) cores")
        var table = Table(columns: ["benchmark", "Reel p50", "Reel p99", "baseline p50", "difference", "note"])
        let p50 = PosterBench.quantile(withOMDb, 0.5), base = PosterBench.quantile(withoutOMDb, 0.5)
        table.row(["reel show, OMDb warm (ms)", PosterBench.fixed(p50), PosterBench.fixed(PosterBench.quantile(withOMDb, 0.99)),
                   PosterBench.fixed(base), "+" + PosterBench.fixed(p50 - base) + " ms", "baseline: no OMDb key; target ≤ 5 ms more; OMDb asked \(asked)×"])
        table.row(["fill \(titles) saved titles (ms)", PosterBench.fixed(filled), "", PosterBench.fixed(floor),
                   PosterBench.fixed(filled / floor, 2) + "×",
                   "floor: \(trips) round trips of \(latency) ms (\(tmdbConnections) TMDb + \(omdbConnections) OMDb connections); TMDb \(statistics.requests - before.tmdb), OMDb \(statistics.omdbRequests - before.omdb) requests"])
        table.print()
    }

    /// One `reel ARGUMENTS` run to exit with its output to a pipe, in milliseconds.
    static func reel(_ reel: String, _ arguments: [String], _ environment: [String: String]) throws -> Double {
        let start = PseudoTerminal.now()
        let status = Spawn.status([reel] + arguments, environment: environment)
        guard status == 0 else { throw BenchmarkError("reel \(arguments.prefix(3).joined(separator: " ")) exited \(status)") }
        return Double(PseudoTerminal.now() - start) / 1e6
    }

    private func note(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8)) }
}
