import ArgumentParser
import Catalog
import FakeTMDb
import Foundation
import Ledger
import Reel
import Stores

/// The benchmark of issue 38: the web app in headless Chromium (`Tools/web_bench.py`) against
/// the real `reel serve` and the fake TMDb server: time to first render of the Movies tab and of
/// the Saved tab of an account with 5,000 saved titles (target ≤ 300 ms, from a warm cache),
/// the page weight (HTML, CSS and JavaScript; target ≤ 100 KB before images), and a poster from
/// the warm image cache under wrk (target p99 ≤ 5 ms) beside Reel's static file route and a plain
/// Hummingbird route serving the same poster's bytes from memory (the baseline).
struct WebBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web", abstract: "Benchmark the web app: first render in headless Chromium, the page weight, the poster route under wrk.")

    @Option(help: "Saved titles of the account whose Saved tab is rendered.") var titles = 5_000
    @Option(help: "Reloads timed per tab (median, 90th percentile and max reported).") var renders = 10
    @Option(help: "Seconds per wrk run.") var seconds = 10
    @Option(help: "Connections per wrk run.") var connections = 16
    @Flag(help: "Small sizes: a smoke test of the harness, not a measurement.") var quick = false

    func run() async throws {
        let titles = quick ? 100 : self.titles, renders = quick ? 2 : self.renders, seconds = quick ? 1 : self.seconds
        let reel = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reel").path
        guard FileManager.default.isExecutableFile(atPath: reel) else { throw BenchmarkError("no reel binary beside reel-bench: \(reel)") }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tools/web_bench.py").standardized.path
        guard FileManager.default.fileExists(atPath: script) else { throw BenchmarkError("Tools/web_bench.py is not where this checkout has it: \(script)") }
        var options = FakeTMDbServer.Options()
        options.syntheticMovies = titles
        let server = try await FakeTMDbServer.start(options: options)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-web-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let data = root + "/data"

        note("saving \(titles) titles for the account 'bench'")
        let keys = try (1...titles).map { try MediaKey(.movie, Int64(SampleCatalog.syntheticBase + $0)) }
        _ = try AccountService.open(at: data).execute(.addFavorites(keys), for: try AccountHandle("bench"))
        let environment = [
            "TMDB_API_TOKEN": "bench-token", "REEL_TMDB_BASE_URL": server.baseURL, "REEL_TMDB_RATE": "100000", "REEL_TMDB_CONNECTIONS": "8",
        ]
        let service = try ServeBench.service(reel, data, extra: environment)
        let (status, out) = Spawn.output(
            [reel, "token", "create", "--user", "bench", "--link", "--url", service.url, "--json", "--data-dir", data],
            environment: environment.merging(["XDG_CONFIG_HOME": data + "/config"]) { $1 })
        guard status == 0, let link = (try? JSONValue(parsing: Array(out.utf8)))?["link"]?.stringValue else {
            throw BenchmarkError("reel token create --link failed (exit \(status)): \(out)")
        }

        note("first render in headless Chromium: Movies, and Saved with \(titles) titles, \(renders) reloads each from a warm cache")
        let configuration = "{\"url\":\"\(service.url)\",\"link\":\"\(link)\",\"renders\":\(renders)}"
        let browser = Spawn.captured("/usr/bin/env", ["python3", script, configuration])
        guard browser.status == 0, let result = try? JSONValue(parsing: Array((browser.stdout.split(separator: "\n").last ?? "").utf8)) else {
            throw BenchmarkError("Tools/web_bench.py failed (exit \(browser.status)): \(browser.stderr.suffix(2_000))")
        }

        let poster = "/images/poster/w342/reel-sample-movie-603-poster.jpg"
        let (fetched, bytes) = Spawn.output(
            ["/usr/bin/env", "curl", "-sf", "-o", root + "/poster.jpg", "-w", "%{size_download}", service.url + poster], environment: ProcessInfo.processInfo.environment)
        guard fetched == 0, let posterBytes = FileManager.default.contents(atPath: root + "/poster.jpg") else {
            throw BenchmarkError("the poster route did not answer: \(bytes)")
        }
        note("the poster from the warm image cache, Reel's static file route and a plain route with the same bytes: wrk, \(connections) connections, \(seconds) s each")
        let baseline = try await ServeBench.baseline(connections: connections, seconds: seconds, body: Array(posterBytes), type: "image/jpeg")
        let posterRun = try WrkRun.run(service.url + poster, connections: connections, seconds: seconds)
        let staticRun = try WrkRun.run(service.url + "/app/app.js", connections: connections, seconds: seconds)
        _ = service.stop()
        await server.stop()

        var figures = Table(columns: ["figure", "median", "p90", "max", "target", "met"])
        for (name, label) in [("movies", "first render, Movies (ms)"), ("saved", "first render, Saved with \(titles) titles (ms)")] {
            guard case .array(let values)? = result["renders"]?[name] else { continue }
            let times = values.compactMap { value -> Double? in
                switch value {
                case .double(let d): d
                case .integer(let i): Double(i)
                default: nil
                }
            }.sorted()
            guard !times.isEmpty else { continue }
            let median = times[times.count / 2], p90 = times[min(times.count - 1, Int(Double(times.count) * 0.9))], worst = times.last ?? 0
            figures.row([label, String(format: "%.0f", median), String(format: "%.0f", p90), String(format: "%.0f", worst), "≤ 300", median <= 300 ? "yes" : "NO"])
        }
        let weight = result["weight"]
        let code = Int(["html", "css", "js"].compactMap { weight?[$0]?.integerValue }.reduce(0, +))
        figures.row([
            "page weight, HTML + CSS + JS (KB)", String(format: "%.1f", Double(code) / 1000), "", "", "≤ 100", code <= 100_000 ? "yes" : "NO",
        ])
        figures.row(["images on the first screen (KB, not counted)", String(format: "%.1f", Double(weight?["images"]?.integerValue ?? 0) / 1000), "", "", "", ""])
        figures.print()
        print("")
        var routes = Table(columns: ["route", "requests/s", "p50 ms", "p99 ms", "max ms", "non-2xx", "vs baseline"])
        routes.row(ServeBench.row("plain Hummingbird route, the poster's \(posterBytes.count) bytes (baseline)", baseline, baseline))
        routes.row(ServeBench.row("GET \(poster) (warm cache)", posterRun, baseline))
        routes.row(ServeBench.row("GET /app/app.js (Reel's static file route)", staticRun, baseline))
        routes.print()
        print(posterRun.p99 <= 5 ? "poster p99 \(String(format: "%.2f", posterRun.p99)) ms: within the 5 ms target" : "poster p99 \(String(format: "%.2f", posterRun.p99)) ms: OVER the 5 ms target")
    }

    private func note(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8)) }
}
