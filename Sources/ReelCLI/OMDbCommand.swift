import ArgumentParser
import Foundation
import Reel

/// `reel omdb status|login|logout`: the OMDb key, the day's budget, and how far the saved list
/// has been filled in with OMDb's scores.
struct OMDbCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "omdb",
        abstract: "Configure OMDb (critics' scores and awards) and see its daily budget.",
        discussion: """
            Reel reads OMDB_API_KEY from the environment, else omdb.json in $XDG_CONFIG_HOME/reel \
            (mode 0600, written by 'reel omdb login'). With a key, 'reel show', 'reel saved' and the \
            terminal app add OMDb's IMDb rating and votes, Rotten Tomatoes, Metacritic, awards, box \
            office, certificate, director and writer. Without TMDb credentials and without an OMDb \
            key, the sample catalog's own OMDb facts are shown.

            A free key allows 1,000 requests a day, reset at midnight UTC: Reel counts them per key \
            per UTC day, for all its processes together, and stops at REEL_OMDB_DAILY (default 1000). \
            Filling a saved list uses at most nine tenths of the day, the most recently saved first; \
            the rest is kept for the titles you open. Answers are kept a week. \
            REEL_OMDB_BASE_URL points Reel at another OMDb-compatible server (such as fake-tmdb's /omdb/).

            OMDb's data is licensed CC BY-NC 4.0 (non-commercial use, with attribution).
            """,
        subcommands: [Status.self, Login.self, Logout.self],
        defaultSubcommand: Status.self
    )

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Where OMDb's facts come from, the day's budget, and how far the saved list has them.")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Also ask OMDb whether it accepts the key (one request of the day's budget).") var check = false

        func run() async throws {
            try await global.withApplication { app in
                let status = try await app.omdbStatus(of: try global.handle(), check: check)
                try global.json ? printJSON(OMDbStatusText.json(status)) : OMDbStatusText.render(status)
                if case .unavailable(let failure)? = status.check {
                    if case .keyRefused = failure { throw ExitCode(ExitStatus.credentials.rawValue) }
                    throw ExitCode(ExitStatus.unavailable.rawValue)
                }
            }
        }
    }

    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Save an OMDb API key read from standard input (never from the command line).",
            discussion: "Example: reel omdb login < omdb-key.txt. OMDb is asked once whether it accepts the key (one request of the day's budget) unless --no-check."
        )

        @OptionGroup var global: CredentialOptions
        @Flag(name: .customLong("no-check"), help: "Save without asking OMDb whether it accepts the key.") var noCheck = false

        func run() async throws {
            try await global.withApplication { app in
                let secret = try TMDbCommand.Login.secret(
                    TMDbCommand.Login.readSecret(prompt: "OMDb API key: "), service: "OMDb", example: "reel omdb login < omdb-key.txt")
                let (path, checked) = try await app.omdbLogin(secret, check: !noCheck)
                Console.changed("the OMDb key was saved")
                if global.json {
                    try printJSON(["saved": .string(path), "checked": .bool(checked)] as JSONValue)
                } else {
                    Console.line("saved the OMDb API key (hidden) to \(path)" + (checked ? "; OMDb accepts it" : ""))
                }
                if ProcessInfo.processInfo.environment["OMDB_API_KEY"].map({ !$0.isEmpty }) == true {
                    Terminal.notice("OMDB_API_KEY is set in the environment, and is used before the saved key")
                }
            }
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "logout", abstract: "Remove the saved OMDb key (OMDB_API_KEY is not touched).")

        @OptionGroup var global: CredentialOptions

        func run() async throws {
            try await global.withApplication { app in
                let (removed, path) = try app.omdbLogout()
                if removed { Console.changed("the OMDb key file was removed") }
                if global.json {
                    try printJSON(["removed": .bool(removed), "path": .string(path)] as JSONValue)
                } else {
                    Console.line(removed ? "removed \(path)" : "no saved OMDb key at \(path)")
                }
                if ProcessInfo.processInfo.environment["OMDB_API_KEY"].map({ !$0.isEmpty }) == true {
                    Terminal.notice("OMDB_API_KEY is still set in the environment")
                }
            }
        }
    }
}
