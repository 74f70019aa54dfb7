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
            It answers OMDb's API too, at /omdb/: point Reel at it with
            REEL_OMDB_BASE_URL=http://127.0.0.1:PORT/omdb/ and any OMDB_API_KEY (or the one given with --omdb-key);
            after --omdb-daily requests it answers OMDb's 401 "Request limit reached!" until POST /__reset.
            Control endpoints: POST /__fault?kind=status&status=429&retry_after=1
            (also kind=malformed, wrong-type, truncate, half, reset, latency&ms=N, hostile, markup, formula, wide,
            and OMDb's omdb-error&message=TEXT, omdb-limit, omdb-invalid-key; count=N; path=PREFIX, where
            OMDb's requests are /omdb/IMDBID, so path=/omdb takes any of them),
            GET /__stats (OMDb's requests counted apart, under "omdb"), POST /__reset.
            """
    )

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 picks a free one).") var port = 8750
    @Option(help: "Accept only this bearer token (default: any non-empty credential).") var token: String?
    @Option(name: .customLong("api-key"), help: "Accept only this v3 api_key.") var apiKey: String?
    @Option(name: .customLong("latency-ms"), help: "Delay every answer (TMDb's API, images, OMDb) by this many milliseconds.") var latencyMs = 0
    @Option(name: .customLong("max-age"), help: "Cache-Control max-age of answers, in seconds.") var maxAge = 300
    @Option(name: .customLong("synthetic-movies"), help: "Also serve N generated movies, ids 90000001 and up (IMDb ids tt90000001 and up).") var syntheticMovies = 0
    @Option(name: .customLong("omdb-key"), help: "Accept only this OMDb apikey (default: any non-empty one).") var omdbKey: String?
    @Option(name: .customLong("omdb-daily"), help: "OMDb's daily limit: refuse OMDb requests after this many.") var omdbDaily: Int?

    func validate() throws {
        if let omdbDaily, omdbDaily < 0 { throw ValidationError("--omdb-daily must be 0 or more requests.") }
    }

    /// The server's options, as the command line gives them.
    var options: FakeTMDbServer.Options {
        var options = FakeTMDbServer.Options()
        options.token = token
        options.apiKey = apiKey
        options.latency = .milliseconds(latencyMs)
        options.maxAge = maxAge
        options.syntheticMovies = syntheticMovies
        options.omdbKey = omdbKey
        options.omdbDaily = omdbDaily
        return options
    }

    func run() async throws {
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
