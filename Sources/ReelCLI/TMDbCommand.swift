import ArgumentParser
import Foundation
import Reel

/// `reel tmdb status|login|logout`: the TMDb credentials Reel uses.
struct TMDbCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tmdb",
        abstract: "Configure and check TMDb credentials.",
        discussion: """
            Reel reads TMDB_API_TOKEN (the API Read Access Token, sent as a bearer token) or \
            TMDB_API_KEY (the v3 key) from the environment, else from credentials.json in \
            $XDG_CONFIG_HOME/reel (mode 0600). Without either, the bundled sample catalog serves.

            REEL_TMDB_BASE_URL points Reel at another TMDb-compatible server (such as fake-tmdb).
            """,
        subcommands: [Status.self, Login.self, Logout.self],
        defaultSubcommand: Status.self
    )

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Which credentials are configured, and whether TMDb accepts them.")

        @OptionGroup var global: CatalogOptions

        func run() async throws {
            try await global.withApplication { app in
                let status = try await app.credentialStatus()
                try global.json ? printJSON(json(status)) : render(status)
                if status.accepted == false { throw ExitCode(ExitStatus.credentials.rawValue) }
                if status.checked && status.accepted == nil { throw ExitCode(ExitStatus(status.failure ?? .unavailable).rawValue) }
            }
        }

        private func json(_ status: CredentialStatus) -> JSONValue {
            let found = status.found
            return [
                "catalog": .string(found == nil ? "sample" : "tmdb"), "credential": .init(found.map { .string($0.credentials.isAPIKey ? "apiKey" : "token") }),
                "source": .init(found.map { .string($0.source.description) }), "baseURL": .string(status.baseURL),
                "configFile": .string(status.configFile), "checked": .bool(status.checked), "accepted": .init(status.accepted.map(JSONValue.bool)),
                "problem": .init(status.problem.map(JSONValue.string)),
            ]
        }

        private func render(_ status: CredentialStatus) {
            guard let found = status.found else {
                Console.line(Terminal.fit("catalog: the bundled sample catalog (no TMDb credentials)"))
                Console.line(Terminal.fit("to use TMDb: export TMDB_API_TOKEN=… or run 'reel tmdb login' (writes \(status.configFile), mode 0600)"))
                return
            }
            Console.line(Terminal.fit("catalog: TMDb at \(status.baseURL)"))
            Console.line(Terminal.fit("credential: \(found.credentials) from \(found.source)"))
            if !status.checked {
                Console.line("not checked (offline)")
            } else if status.accepted == true {
                Console.line(Terminal.fit(status.problem.map { "TMDb accepts it (\($0))" } ?? "TMDb accepts it"))
            } else if let problem = status.problem {
                Console.error(problem)
            }
        }
    }

    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Save a TMDb credential read from standard input (never from the command line).",
            discussion: "Example: reel tmdb login < token.txt. A 32-character hexadecimal value is a v3 API key; anything else is taken as the API Read Access Token."
        )

        @OptionGroup var global: CredentialOptions

        @Flag(name: .customLong("api-key"), help: "The value is a v3 API key (default: guessed from its shape).")
        var apiKey = false

        @Flag(name: .customLong("no-check"), help: "Save without asking TMDb whether it accepts the credential.")
        var noCheck = false

        func run() async throws {
            try await global.withApplication { app in
                let secret = try Self.secret(Self.readSecret(prompt: "TMDb API Read Access Token (or v3 key): "))
                let credentials: Credentials = apiKey || Credentials.bearer(secret).looksLikeV3KeyUsedAsToken ? .apiKey(secret) : .bearer(secret)
                if !apiKey, case .apiKey = credentials {
                    Terminal.notice("that looks like a v3 API key (32 hex characters), so it is saved as a v3 key (sent as api_key), not as a token")
                }
                let (path, checked) = try await app.login(credentials, check: !noCheck)
                Console.changed("the credential was saved")
                if global.json {
                    try printJSON(["saved": .string(path), "credential": .string(credentials.isAPIKey ? "apiKey" : "token"), "checked": .bool(checked)] as JSONValue)
                } else {
                    Console.line("saved \(credentials) to \(path)" + (checked ? "; TMDb accepts it" : ""))
                }
            }
        }

        /// The credential in what was read, or a usage failure saying why there is none.
        static func secret(_ input: String, service: String = "TMDb", example: String = "reel tmdb login < token.txt") throws -> String {
            switch Credentials.given(input) {
            case .empty:
                throw ReelFailure(message: "no credential on standard input (try: \(example))", status: .usage)
            case .malformed:
                throw ReelFailure(message: Application.malformedCredential("on standard input", service: service), status: .usage)
            case .secret(let given):
                return given
            }
        }

        /// All of stdin, not its first line (`printf 'bad\ntoken'` must not save "bad"), at most 4 KiB
        /// (`InputLimit.credential`, so `< /dev/zero` is refused rather than read forever); on a
        /// terminal, asked for without echo. `Credentials.given` judges what it holds.
        static func readSecret(prompt: String) throws -> String {
            if isatty(STDIN_FILENO) == 1, let pointer = getpass(prompt) {
                return String(cString: pointer)
            }
            let bytes: [UInt8]
            do {
                bytes = try BoundedFile.read(descriptor: STDIN_FILENO, limit: InputLimit.credential, name: "standard input")
            } catch .tooLarge {
                throw ReelFailure(
                    message: "standard input holds more than the limit of \(InputLimit.words(InputLimit.credential)) for a credential; nothing saved",
                    status: .usage)
            } catch {
                throw ReelFailure(message: error.description, status: .unavailable)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "logout", abstract: "Remove the saved credential file (environment variables are not touched).")

        @OptionGroup var global: CredentialOptions

        func run() async throws {
            try await global.withApplication { app in
                let (removed, path) = try app.logout()
                if removed { Console.changed("the credential file was removed") }
                if global.json {
                    try printJSON(["removed": .bool(removed), "path": .string(path)] as JSONValue)
                } else {
                    Console.line(removed ? "removed \(path)" : "no saved credential at \(path)")
                }
                if ProcessInfo.processInfo.environment["TMDB_API_TOKEN"] != nil || ProcessInfo.processInfo.environment["TMDB_API_KEY"] != nil {
                    Terminal.notice("TMDB_API_TOKEN or TMDB_API_KEY is still set in the environment")
                }
            }
        }
    }
}
