import ArgumentParser
import Catalog
import FakeTMDb
import Foundation

/// The benchmark of issue 4: details for 1,000 titles through the fake TMDb server with 50 ms of
/// latency per request and 8 connections; the default rate limit as the server measures it; and
/// the same 1,000 again from the cache. Then issue 41's wall-clock figures, which tests check on
/// a clock of their own: requests at a given rate with no latency (the server's count of the
/// most in any second, and the mean, beside the rate), and a request whose answer is 2 s away
/// given up at a 400 ms timeout and asked again (the time to the answer beside the timeout).
struct CatalogBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Benchmark the TMDb client against the fake server: throughput, rate limiting, cache.")

    @Option(help: "Distinct titles fetched.") var titles = 1_000
    @Option(name: .customLong("latency-ms"), help: "Server latency per request.") var latencyMs = 50
    @Option(help: "Connections (requests in flight).") var connections = 8
    @Option(name: .customLong("rate-requests"), help: "Requests in the rate-limit phase.") var rateRequests = 300
    @Option(name: .customLong("paced-rate"), help: "The rate limit (requests a second) of the phase without latency.") var pacedRate = 20.0
    @Option(name: .customLong("paced-requests"), help: "Requests in the phase without latency.") var pacedRequests = 200
    @Flag(help: "Small sizes: a smoke test of the harness, not a measurement.") var quick = false

    func run() async throws {
        let titles = quick ? 100 : self.titles
        let rateRequests = quick ? 60 : self.rateRequests
        var options = FakeTMDbServer.Options()
        options.latency = .milliseconds(latencyMs)
        options.syntheticMovies = titles + rateRequests
        let server = try await FakeTMDbServer.start(options: options)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bench-catalog-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }

        // 1. Throughput: the rate limit out of the way, 8 connections, 50 ms per request.
        var fast = CatalogLimits()
        fast.requestsPerSecond = 1_000_000
        fast.maxConnections = connections
        let cache = try ResponseCache.open(at: root + "/cache")
        let ids = (1...titles).map { SampleCatalog.syntheticBase + $0 }
        note("fetching \(titles) titles through the fake server (\(latencyMs) ms latency, \(connections) connections)")
        let client = CatalogClient.tmdb(baseURL: server.baseURL, credentials: .bearer("bench"), cache: cache, limits: fast)
        let cold = try await Self.fetchAll(ids, client)
        let coldRequests = server.statistics.requests
        let coldStats = server.statistics
        await client.shutdown()
        let floor = Double(titles) * Double(latencyMs) / 1000 / Double(connections)

        // 2. The same titles again, from the cache, in a new client (as a new process would).
        server.reset()
        note("fetching the same \(titles) titles again (cache)")
        let again = CatalogClient.tmdb(baseURL: server.baseURL, credentials: .bearer("bench"), cache: cache, limits: fast)
        let warm = try await Self.fetchAll(ids, again)
        let warmRequests = server.statistics.requests
        let hits = again.counts.cacheHits
        await again.shutdown()

        // 3. The default rate limit, measured by the server, on titles not cached yet.
        server.reset()
        let limits = CatalogLimits()
        note("fetching \(rateRequests) new titles at the default rate limit (\(Int(limits.requestsPerSecond))/s)")
        let polite = CatalogClient.tmdb(baseURL: server.baseURL, credentials: .bearer("bench"), cache: cache, limits: limits)
        let rateIDs = (titles + 1...titles + rateRequests).map { SampleCatalog.syntheticBase + $0 }
        _ = try await Self.fetchAll(rateIDs, polite)
        await polite.shutdown()
        let rateStats = server.statistics
        await server.stop()

        // 4. A rate limit of the bench's choosing, no latency: every request is sent the moment
        //    the limiter lets it go, so the server's count shows the limiter's spacing (plus the
        //    machine's jitter), on titles not cached.
        let pacedRequests = quick ? 50 : self.pacedRequests
        var bare = FakeTMDbServer.Options()
        bare.syntheticMovies = pacedRequests
        let plain = try await FakeTMDbServer.start(options: bare)
        var paced = CatalogLimits()
        paced.requestsPerSecond = pacedRate
        paced.maxConnections = connections
        note("fetching \(pacedRequests) titles at \(pacedRate)/s, no latency")
        let pacedClient = CatalogClient.tmdb(baseURL: plain.baseURL, credentials: .bearer("bench"), cache: nil, limits: paced)
        _ = try await Self.fetchAll((1...pacedRequests).map { SampleCatalog.syntheticBase + $0 }, pacedClient)
        await pacedClient.shutdown()
        let pacedStats = plain.statistics

        // 5. An answer 2 s away, a 400 ms timeout: the request is given up and asked again.
        plain.reset()
        var impatient = CatalogLimits()
        impatient.timeout = .milliseconds(400)
        impatient.retry = RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(20), maximumDelay: .milliseconds(200))
        note("a request whose answer is 2 s away, with a 400 ms timeout")
        let timeoutClient = CatalogClient.tmdb(baseURL: plain.baseURL, credentials: .bearer("bench"), cache: nil, limits: impatient)
        plain.inject(Fault(.latency(2_000)))
        let retried = try await Self.fetchAll([550], timeoutClient)
        let retriedCounts = timeoutClient.counts
        await timeoutClient.shutdown()
        let timeoutStats = plain.statistics
        await plain.stop()

        let deviation = (rateStats.meanRate - limits.requestsPerSecond) / limits.requestsPerSecond
        var table = Table(columns: ["benchmark", "Reel", "floor", "ratio", "target", "met"])
        table.row(["1. \(titles) details, \(latencyMs) ms, \(connections) conn. (s)", fixed(cold, 2), fixed(floor, 2), fixed(cold / floor, 2) + "×", "≤ 7 s", cold <= 7 ? "yes" : "NO"])
        table.row(["   requests the server saw", "\(coldRequests)", "\(titles)", "", "= \(titles)", coldRequests == titles ? "yes" : "NO"])
        table.row(["   max connections open / in flight at the server", "\(coldStats.maxConnectionsOpen) / \(coldStats.maxInFlight)", "", "", "≤ \(connections)", coldStats.maxInFlight <= connections ? "yes" : "NO"])
        table.row(["2. the same \(titles) again, from the cache (s)", fixed(warm, 3), "", "", "≤ 0.3 s", warm <= 0.3 ? "yes" : "NO"])
        table.row(["   requests the server saw / cache hits", "\(warmRequests) / \(hits)", "", "", "0 / \(titles)", warmRequests == 0 && hits == titles ? "yes" : "NO"])
        table.row(["3. rate at the default limit, server-measured (req/s)", fixed(rateStats.meanRate, 2), fixed(limits.requestsPerSecond, 0), String(format: "%+.1f%%", deviation * 100), "within 5%", abs(deviation) <= 0.05 ? "yes" : "NO"])
        table.row(["   most requests in any 1 s window", "\(rateStats.maxArrivals(within: 1))", "\(Int(limits.requestsPerSecond))", "", "≤ \(Int(limits.requestsPerSecond))", rateStats.maxArrivals(within: 1) <= Int(limits.requestsPerSecond) ? "yes" : "NO"])
        let pacedMost = pacedStats.maxArrivals(within: 1), pacedCeiling = Int(pacedRate.rounded(.down))
        table.row(["4. \(pacedRequests) requests at \(fixed(pacedRate, 0))/s, no latency, server-measured (req/s)", fixed(pacedStats.meanRate, 2), fixed(pacedRate, 0),
                   String(format: "%+.1f%%", (pacedStats.meanRate - pacedRate) / pacedRate * 100), "≤ \(fixed(pacedRate, 0))", pacedStats.meanRate <= pacedRate ? "yes" : "NO"])
        table.row(["   most requests in any 1 s window / requests the server saw", "\(pacedMost) / \(pacedStats.requests)", "\(pacedCeiling)", "", "≤ \(pacedCeiling) / \(pacedRequests)",
                   pacedMost <= pacedCeiling && pacedStats.requests == pacedRequests ? "yes" : "NO"])
        let retriedMs = retried * 1000, retriedMet = retriedMs < 1_900 && retriedCounts.retries == 1 && timeoutStats.requests == 2
        table.row(["5. an answer 2 s away, 400 ms timeout: answered after (ms)", fixed(retriedMs, 0), "400", fixed(retriedMs / 400, 2) + "×",
                   "< 1,900 ms, 1 retry", retriedMet ? "yes" : "NO (\(retriedCounts.retries) retries, \(timeoutStats.requests) requests)"])
        print()
        print(quick ? "reel-bench catalog --quick (smoke test; sizes too small to mean anything)"
            : "reel-bench catalog: \(ProcessInfo.processInfo.activeProcessorCount) cores; floor = titles × latency / connections; for 3 and 4 the configured rate; for 5 the timeout")
        table.print()
    }

    /// Fetches every id concurrently (the client's limits pace them); answers the wall time.
    static func fetchAll(_ ids: [Int], _ client: CatalogClient) async throws -> Double {
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in ids { group.addTask { _ = try await client.movie(id, language: "en-US") } }
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private func fixed(_ v: Double, _ d: Int) -> String { v.isFinite ? String(format: "%.\(d)f", v) : "–" }
    private func note(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data("… \(text)\n".utf8)) }
}
