import ArgumentParser
import FakeTMDb
import Foundation

/// `fake-tmdb`: serves the bundled sample catalog on TMDb's paths until interrupted.
@main
struct FakeTMDbCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fake-tmdb",
        abstract: "A TMDb-compatible HTTP server over Reel's sample catalog, with fault injection.",
        discussion: """
            Point Reel at it with REEL_TMDB_BASE_URL=http://127.0.0.1:PORT/3 and any TMDB_API_TOKEN
            (or the one given with --token). Images are served as on TMDb's image host, below /t/p/SIZE/FILE
            (generated sample art, JPEG, no credentials), and /3/configuration names this server as that host.
            Control endpoints: POST /__fault?kind=status&status=429&retry_after=1
            (also kind=malformed, wrong-type, truncate, half, reset, latency&ms=N, hostile, formula, wide; count=N; path=PREFIX),
            GET /__stats, POST /__reset.
            """
    )

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 picks a free one).") var port = 8750
    @Option(help: "Accept only this bearer token (default: any non-empty credential).") var token: String?
    @Option(name: .customLong("api-key"), help: "Accept only this v3 api_key.") var apiKey: String?
    @Option(name: .customLong("latency-ms"), help: "Delay every API answer and image by this many milliseconds.") var latencyMs = 0
    @Option(name: .customLong("max-age"), help: "Cache-Control max-age of answers, in seconds.") var maxAge = 300
    @Option(name: .customLong("synthetic-movies"), help: "Also serve N generated movies, ids 90000001 and up.") var syntheticMovies = 0

    func run() async throws {
        var options = FakeTMDbServer.Options()
        options.token = token
        options.apiKey = apiKey
        options.latency = .milliseconds(latencyMs)
        options.maxAge = maxAge
        options.syntheticMovies = syntheticMovies
        let server: FakeTMDbServer
        do {
            server = try await FakeTMDbServer.start(host: host, port: port, options: options)
        } catch {
            try? FileHandle.standardError.write(contentsOf: Data("fake-tmdb: cannot listen on \(host):\(port): \(error)\n".utf8))
            throw ExitCode(69)
        }
        try? FileHandle.standardOutput.write(contentsOf: Data("fake-tmdb listening on \(server.baseURL)\n".utf8))
        let signals = AsyncStream<Int32> { continuation in
            for sig in [SIGINT, SIGTERM] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig)
                source.setEventHandler { continuation.yield(sig) }
                source.resume()
                nonisolated(unsafe) let keep = source
                continuation.onTermination = { _ in keep.cancel() }
            }
        }
        for await _ in signals { break }
        await server.stop()
    }
}
