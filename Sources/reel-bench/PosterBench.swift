import ArgumentParser
import Catalog
import FakeTMDb
import Foundation
import Pictures

/// The fetching and whole-process parts of issue 21's benchmark, against the fake TMDb server at
/// 50 ms latency in the same run: a first fetch of a w342 poster through the image client (cache
/// miss, single flight, slots, checks, store) beside the floor of one raw GET of the same image
/// through the same HTTP client; lookups from a warm image cache (p50/p99) and the resident
/// memory they add; and `reel show` with the poster against `reel show --no-poster` in a
/// pseudo-terminal that answers the terminal query as a real one does (warm caches, whole
/// process each time). And the sample catalog's poster art made in-process (a 342 × 513
/// picture; it was a timed test) beside setting that many RGBA bytes to one value.
struct PosterBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "posters",
        abstract: "Benchmark poster fetching (first fetch at 50 ms latency, warm cache lookups, memory) and reel show with vs without the poster.")

    @Option(help: "Posters fetched for the first time (distinct titles; the sample has 30 movies with one).") var posters = 20
    @Option(help: "Lookups timed from the warm cache.") var lookups = 10_000
    @Option(help: "Runs of reel show each way.") var runs = 20
    @Option(name: .customLong("latency-ms"), help: "The fake server's latency.") var latency = 50
    @Flag(help: "Few runs: a smoke test of the harness, not a measurement.") var quick = false

    func run() async throws {
        let posters = quick ? 3 : self.posters, lookups = quick ? 100 : self.lookups, runs = quick ? 2 : self.runs
        let reel = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reel").path
        guard FileManager.default.isExecutableFile(atPath: reel) else { throw BenchmarkError("no reel binary beside reel-bench: \(reel)") }
        var options = FakeTMDbServer.Options()
        options.latency = .milliseconds(latency)
        let server = try await FakeTMDbServer.start(options: options)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-posters-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }

        let catalog = CatalogClient.tmdb(baseURL: server.baseURL, credentials: .bearer("bench"), cache: try ResponseCache.open(at: root + "/cache"))
        let cache = try ImageCache.open(at: root + "/images")
        let images = ImageClient(catalog: catalog, transport: HTTPImageTransport(maxConnections: 4), cache: cache)
        let configuration = try await catalog.configuration().images
        var paths: [String] = []
        for id in SampleCatalog.bundled.movieIDs where paths.count < posters {
            if let path = try await catalog.movie(id, language: "en-US").posterPath { paths.append(path) }
        }
        note("first fetch of \(paths.count) w342 posters at \(latency) ms latency, and a raw GET of each")
        let raw = HTTPImageTransport(maxConnections: 1)
        var first: [Double] = [], floor: [Double] = []
        for path in paths {
            first.append(try await Self.milliseconds { _ = try await images.image(path, kind: .poster, size: .named("w342")) })
            let url = configuration.url(path, kind: .poster, size: "w342")!
            floor.append(try await Self.milliseconds { _ = try await raw.fetch(url) })
        }
        await raw.shutdown()

        note("\(lookups) lookups from the warm cache")
        let before = Self.residentKiB()
        var warm: [Double] = [], direct: [Double] = []
        for n in 0..<lookups {
            let path = paths[n % paths.count]
            warm.append(try await Self.milliseconds { _ = try await images.image(path, kind: .poster, size: .named("w342")) })
            let key = "w342" + path
            direct.append(try await Self.milliseconds { _ = try cache.lookup(key, now: Int64(Date().timeIntervalSince1970 * 1e6)) })
        }
        let grown = Self.residentKiB() - before
        await images.shutdown()
        await catalog.shutdown()

        let environment = UIBench.environment(root: root, server: server).merging(["COLORTERM": "truecolor"]) { $1 }
        note("reel show movie 550, with and without the poster, \(runs) runs each")
        _ = try show(reel, environment, poster: true)
        var withPoster: [Double] = [], without: [Double] = []
        for _ in 0..<runs {
            withPoster.append(try show(reel, environment, poster: true))
            without.append(try show(reel, environment, poster: false))
        }
        await server.stop()

        note("sample poster art, 342 × 513, made \(runs * 5) times in-process")
        var art: [Double] = [], fill: [Double] = []
        for n in 0..<(runs * 5) {
            art.append(try await Self.milliseconds { _ = PosterArt.picture(title: "The Shawshank Redemption \(n)", subtitle: "1999", kind: .poster, width: 342, height: 513) })
            fill.append(try await Self.milliseconds { _ = [UInt8](repeating: UInt8(n % 256), count: 342 * 513 * 4) })
        }
        print()
        print(quick ? "reel-bench posters --quick (smoke test)" : "reel-bench posters: \(ProcessInfo.processInfo.activeProcessorCount) cores; fake TMDb at \(latency) ms latency; sample poster art (JPEG)")
        var table = Table(columns: ["benchmark", "Reel p50", "Reel p99", "baseline p50", "ratio", "note"])
        table.row(["first w342 fetch (ms)", Self.fixed(Self.quantile(first, 0.5)), Self.fixed(Self.quantile(first, 0.99)),
                   Self.fixed(Self.quantile(floor, 0.5)), Self.fixed(Self.quantile(first, 0.5) / Self.quantile(floor, 0.5), 2) + "×", "baseline: one raw GET of it"])
        table.row(["warm: image client (ms)", Self.fixed(Self.quantile(warm, 0.5), 3), Self.fixed(Self.quantile(warm, 0.99), 3), "–", "", "configuration + cache"])
        table.row(["warm: cache lookup (ms)", Self.fixed(Self.quantile(direct, 0.5), 3), Self.fixed(Self.quantile(direct, 0.99), 3), "–", "", "one LMDB read"])
        table.row(["resident memory after lookups", "\(grown) KiB", "", "", "", "\(lookups) lookups of \(paths.count) posters"])
        table.row(["reel show, poster (ms)", Self.fixed(Self.quantile(withPoster, 0.5)), Self.fixed(Self.quantile(withPoster, 0.99)),
                   Self.fixed(Self.quantile(without, 0.5)), Self.fixed(Self.quantile(withPoster, 0.5) / Self.quantile(without, 0.5), 2) + "×",
                   "baseline: --no-poster; symbols"])
        let artP50 = Self.quantile(art, 0.5)
        table.row(["sample poster art, 342 × 513 (ms)", Self.fixed(artP50, 2), Self.fixed(Self.quantile(art, 0.99), 2),
                   Self.fixed(Self.quantile(fill, 0.5), 2), Self.fixed(artP50 / Self.quantile(fill, 0.5), 1) + "×",
                   "baseline: its RGBA bytes set to one value; target p50 < 40 ms: " + (artP50 < 40 ? "yes" : "NO")])
        table.print()
    }

    /// One `reel show movie 550` in a 120×50 pseudo-terminal, start to exit, in milliseconds.
    private func show(_ reel: String, _ environment: [String: String], poster: Bool) throws -> Double {
        let start = PseudoTerminal.now()
        let terminal = try PseudoTerminal([reel, "show", "movie", "550"] + (poster ? [] : ["--no-poster"]), environment: environment, width: 120, height: 50, trace: false)
        let status = try terminal.waitForExit(within: 30)
        guard status == 0 else { throw BenchmarkError("reel show exited \(status)") }
        return Double(PseudoTerminal.now() - start) / 1e6
    }

    static func milliseconds(_ body: () async throws -> Void) async throws -> Double {
        let start = PseudoTerminal.now()
        try await body()
        return Double(PseudoTerminal.now() - start) / 1e6
    }

    static func quantile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
    }

    static func residentKiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(getpagesize()) / 1024
    }

    static func fixed(_ v: Double, _ d: Int = 1) -> String { v.isFinite ? String(format: "%.\(d)f", v) : "–" }

    private func note(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8)) }
}
