import ArgumentParser
import Foundation
import Reel
import Stores

#if canImport(Glibc)
    import Glibc
#endif

/// A tour of Reel in a scratch directory, made of the real commands (run in this process, each
/// shown as you would type it): browsing and searching the catalog, saving, details, settings,
/// the saved list in another language, time travel, history in words, a rebuild check and the
/// chain verify. Without TMDb credentials the bundled sample catalog answers.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Tour Reel in a scratch directory: browse, search, save, details, language, saved list, history, rebuild, verify.",
        discussion:
            "With --json, the tour runs quietly and the ledger's envelopes are printed as one JSON array."
    )

    @OptionGroup var global: CommandOptions<DemoScope>

    func run() async throws {
        try await runReporting {
            // The tour makes its accounts in its own data directory's LMDB store, never in the
            // PostgreSQL store or shard map REEL_STORE names (the commands it runs read it).
            unsetenv("REEL_STORE")
            let directory =
                global.chosenDataDirectory
                ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                    "reel-demo-\(UUID().uuidString.prefix(8))"
                ).path
            let suffix = UUID().uuidString.prefix(4).lowercased()
            let ann = "ann-\(suffix)"
            let steps = Self.steps(ann: ann, ben: "ben-\(suffix)")
            let passed = [(global.offline, "--offline"), (global.utc, "--utc"), (global.quiet, "--quiet"), (global.verbose, "--verbose")]
            let tour = { try await Self.tour(steps, in: directory, as: ann, passing: passed.filter(\.0).map(\.1)) }
            guard global.json else { return try await tour() }
            try await Self.withoutStandardOutput(tour)
            try printJSON(try Application(Application.Configuration(dataDirectory: directory)).envelopes())
        }
    }

    /// The tour: a caption (empty to run on under the previous one) and the command's arguments,
    /// run as `ann` unless they name `--user`, and with `--offline`, `--utc`, `--quiet` and
    /// `--verbose` when the demo was given them (`passing`).
    private static func steps(ann: String, ben: String) -> [(String, [String])] {
        [
            (
                "Browse: 1999's dramas, best rated first",
                ["movies", "--genre", "Drama", "--year", "1999", "--sort", "rating"]
            ),
            ("Search movies, series and people at once", ["search", "matrix"]),
            (
                "Save two movies (the first change opens the account)",
                ["fav", "add", "movie", "550", "603"]
            ),
            ("Save a series", ["fav", "add", "tv", "1399"]),
            (
                "Save one again: the domain is idempotent, nothing is appended",
                ["fav", "add", "movie", "550"]
            ),
            ("A title's details", ["show", "movie", "603"]),
            ("Profile settings", ["settings", "name", "Ann Example"]),
            ("", ["settings", "language", "de-DE"]),
            (
                "The saved list, now in German, best rated first",
                ["saved", "--sort", "rating", "--desc"]
            ),
            ("Remove one", ["fav", "remove", "movie", "603"]),
            ("Time travel: the list as it was at stream version 4", ["saved", "--as-of", "v4"]),
            ("The history, in words", ["history"]),
            ("A second account", ["fav", "add", "tv", "94605", "--user", ben]),
            ("", ["accounts"]),
            (
                "Replay the whole log and compare with the live projections",
                ["projections", "rebuild", "--check"]
            ),
            ("Walk the hash chain", ["audit", "verify"]),
        ]
    }

    private static func tour(_ steps: [(String, [String])], in directory: String, as ann: String, passing flags: [String]) async throws {
        Console.line(Terminal.bold("Reel demo") + " in \(directory) as '\(ann)'")
        for (caption, arguments) in steps {
            let shown = arguments.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ")
            Console.line("")
            if !caption.isEmpty { Console.line(Terminal.dim("# " + caption)) }
            Console.line(Terminal.bold("$ reel \(shown)"))
            var full = arguments + ["--data-dir", directory]
            if !arguments.contains("--user") { full += ["--user", ann] }
            full += flags
            var command = try ReelCommand.parseAsRoot(full)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            fflush(nil)
        }
        Console.line("")
        Console.line(Terminal.dim("# Try it yourself: reel saved --user \(ann) --data-dir \(directory)"))
        Console.line(Terminal.dim("# Verify without Reel: python3 Tools/verify_ledger.py \(directory)/ledger"))
        fflush(nil)
    }

    /// Runs `body` with stdout pointed at /dev/null (what was written before is flushed first),
    /// and restores it either way: with --json, only the envelopes are printed.
    private static func withoutStandardOutput(_ body: () async throws -> Void) async throws {
        fflush(nil)
        let saved = silenceStandardOutput()
        do {
            try await body()
        } catch {
            restoreStandardOutput(saved)
            throw error
        }
        restoreStandardOutput(saved)
    }

    /// Points stdout at /dev/null; answers the descriptor to restore.
    private static func silenceStandardOutput() -> Int32 {
        let saved = dup(STDOUT_FILENO)
        let null = open("/dev/null", O_WRONLY)
        dup2(null, STDOUT_FILENO)
        close(null)
        return saved
    }

    private static func restoreStandardOutput(_ saved: Int32) {
        guard saved >= 0 else { return }
        fflush(nil)
        dup2(saved, STDOUT_FILENO)
        close(saved)
    }
}
