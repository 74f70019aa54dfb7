import Foundation
import ReelTestSupport
import Testing

/// A data directory, a config directory and a way to run `reel` with them and nothing else
/// from the outer environment that would change which catalog answers.
package struct Home {
    package let data = temporaryDirectory("catalog-data")
    package let config = temporaryDirectory("catalog-config")
    /// Added to every run (TMDB_API_TOKEN, REEL_TMDB_BASE_URL, …).
    package var environment: [String: String] = [:]

    package init(environment: [String: String] = [:]) { self.environment = environment }

    /// Against `server`, with `token` (any token is accepted unless the server has `--token`).
    package init(server: FakeTMDbProcess, token: String = "any-token") {
        environment = ["REEL_TMDB_BASE_URL": server.baseURL, "TMDB_API_TOKEN": token]
    }

    package static let inherited: Set<String> = [
        "TMDB_API_TOKEN", "TMDB_API_KEY", "REEL_TMDB_BASE_URL", "REEL_OFFLINE", "REEL_USER", "REEL_DATA_DIR",
        "XDG_CONFIG_HOME", "XDG_DATA_HOME", "REEL_TMDB_RATE", "REEL_TMDB_CONNECTIONS", "NO_COLOR",
        "OMDB_API_KEY", "REEL_OMDB_BASE_URL", "REEL_OMDB_DAILY", "REEL_OMDB_CONNECTIONS",
    ]

    package var credentialsFile: String { config + "/reel/credentials.json" }

    /// Runs `reel ARGUMENTS`, with `stdin` as its standard input (else /dev/null).
    @discardableResult
    package func reel(_ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil) async throws -> Harness.Output {
        var env = ProcessInfo.processInfo.environment.filter { !Self.inherited.contains($0.key) }
        env["NO_COLOR"] = "1"
        env["REEL_DATA_DIR"] = data
        env["XDG_CONFIG_HOME"] = config
        env["REEL_KEYRING"] = Harness.keyring
        for (k, v) in environment { env[k] = v }
        for (k, v) in extra { env[k] = v }
        var input: String?
        if let stdin {
            input = temporaryDirectory("reel-stdin") + "/stdin"
            try Data(stdin.utf8).write(to: URL(fileURLWithPath: input!))
        }
        return try await Harness.complete([Harness.binaries + "/reel"] + arguments, environment: env, stdin: input)
    }

    /// Runs a `--json` command, checks exit `status`, validates the document against `schema`
    /// (in `Schemas/cli/`) and parses it.
    @discardableResult
    package func json(_ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil,
              status: Int32 = 0, schema: String) async throws -> [String: Any] {
        let out = try await reel(arguments + ["--json"], environment: extra, stdin: stdin)
        #expect(out.status == status, "\(arguments): exit \(out.status), stderr \(out.stderr)")
        let checked = try Harness.validate(out.stdout, against: "cli/" + schema)
        #expect(checked.status == 0, "\(arguments) against \(schema): \(checked.stderr)")
        return try Harness.json(out.stdout)
    }

    /// Expects a failure: exit `status`, nothing on stdout, exactly one line on stderr that
    /// starts `reel: ` and contains every one of `messages`.
    @discardableResult
    package func fails(_ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil,
               status: Int32, _ messages: String...) async throws -> Harness.Output {
        let out = try await reel(arguments, environment: extra, stdin: stdin)
        #expect(out.status == status, "\(arguments): exit \(out.status), stderr \(out.stderr)")
        #expect(out.stdout.isEmpty, "\(arguments): \(out.stdout)")
        #expect(out.stderr.split(separator: "\n", omittingEmptySubsequences: true).count == 1, "\(arguments): \(out.stderr)")
        #expect(out.stderr.hasPrefix("reel: "), "\(arguments): \(out.stderr)")
        for message in messages { #expect(out.stderr.contains(message), "\(arguments): '\(message)' not in \(out.stderr)") }
        return out
    }
}
