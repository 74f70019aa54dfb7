import Stores
import Reel
import ReelApp
import ArgumentParser
import Foundation

@main
struct ReelCommand: AsyncParsableCommand {
    // Every command names itself (`commandName`): without it, ArgumentParser derives each name
    // with `String(describing:)`, whose protocol-conformance lookups scan the whole binary's
    // conformance records, about 3 ms of every run (`fav add` 21.6-22.2 -> 18.5-18.9 ms).
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "An event-sourced ledger of your movie and series favorites.",
        version: "0.1.0",
        subcommands: [
            Movies.self, Series.self, Search.self, Show.self, PosterCommand.self, Person.self, Genres.self,
            Fav.self, Saved.self, SettingsCommand.self, Languages.self, History.self, Accounts.self, Audit.self, Projections.self,
            Account.self, TokenCommand.self, Backup.self, CacheCommand.self, TMDbCommand.self, OMDbCommand.self, About.self, Demo.self, UICommand.self,
            ServeCommand.self, StoreCommand.self,
        ]
    )

    /// Parses and runs the command; a usage mistake is one line on stderr and exit 64, not
    /// ArgumentParser's multi-line help (`--help` still prints the full help). Output goes through
    /// `Console`, so a command whose output cannot be written exits 74 (`Console.finish`).
    static func main() async {
        Console.prepare()
        // LMDB's assertions and faults in a damaged file: one line and 65, not a backtrace.
        Application.reportDamagedFilesInOneLine(prefix: "reel: ", exitStatus: ExitStatus.integrityFailure.rawValue)
        do {
            var arguments = Array(CommandLine.arguments.dropFirst())
            // `reel` alone at a terminal opens the terminal app; elsewhere (a pipe, a script) it
            // prints the help as before.
            if arguments.isEmpty && TerminalApp.canRun { arguments = ["ui"] }
            var command = try parseAsRoot(prepared(arguments))
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if error is ExitCode {
                // The command said what failed already (`runReporting`), or chose its status.
                Foundation.exit(code == .success ? Console.finish() : code.rawValue)
            }
            if code == .success || error is CleanExit {
                // --help, --version: written like any other output, so a failed write is seen.
                let text = fullMessage(for: error)
                if !text.isEmpty { Console.write(Array((text + "\n").utf8)) }
                Foundation.exit(Console.finish())
            }
            let message = fullMessage(for: error).split(separator: "\n").first.map(String.init) ?? "invalid usage"
            let text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
            Console.error("\(text) (see 'reel help')")
            Foundation.exit(code == .validationFailure ? ExitStatus.usage.rawValue : code.rawValue)
        }
        Foundation.exit(Console.finish())
    }

    /// The words as ArgumentParser should see them: global options moved behind the subcommand,
    /// a mistyped subcommand refused (`UnknownCommand`), negative numbers kept as values
    /// (`NegativeNumbers`). A shell's completion request (`---completion`) is passed on untouched.
    static func prepared(_ arguments: [String]) throws -> [String] {
        guard arguments.first != "---completion" else { return arguments }
        let hoisted = hoistingGlobalOptions(arguments)
        try UnknownCommand.check(hoisted)
        return NegativeNumbers.protecting(hoisted)
    }

    /// Global options (`--json`, `--offline`, `--utc`, `--quiet`, `--verbose`, `--data-dir D`, `--user U`) may come before the
    /// subcommand (`reel --json about`); each subcommand parses them, so they are moved behind it.
    static func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if ["--json", "--offline", "--utc", "--quiet", "-q", "--verbose"].contains(argument) || argument.hasPrefix("--data-dir=") || argument.hasPrefix("--user=") {
                leading.append(argument)
                index += 1
            } else if (argument == "--data-dir" || argument == "--user") && index + 1 < arguments.count {
                leading.append(contentsOf: arguments[index...index + 1])
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        var rest = Array(arguments[index...])
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: leading, at: end)
        return rest
    }
}
