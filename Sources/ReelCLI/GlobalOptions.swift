import Reel
import ArgumentParser
import Foundation

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Where the ledger lives (env REEL_DATA_DIR; default $XDG_DATA_HOME/reel).", valueName: "dir"),
            transform: PathArgument.parse)
    var dataDir: String?

    @Option(name: .long, help: ArgumentHelp("The account to act on (env REEL_USER; default 'default').", valueName: "handle"))
    var user: String?

    @Flag(name: .long, help: "Print one JSON document instead of text.")
    var json = false

    @Flag(name: .long, help: "Answer catalog requests from the cache only (env REEL_OFFLINE=1).")
    var offline = false

    /// `--offline`, or `REEL_OFFLINE` set to 1/true/yes.
    var isOffline: Bool {
        if offline { return true }
        let value = (ProcessInfo.processInfo.environment["REEL_OFFLINE"] ?? "").lowercased()
        return ["1", "true", "yes"].contains(value)
    }

    /// `REEL_DATA_DIR` set to "" is a mistake like `--data-dir ""`, not a request for the
    /// default; `~` in it is expanded as in `--data-dir` (see `PathArgument`). A malformed
    /// `--user` is a usage mistake whatever the command; `REEL_USER` is checked by `handle()`
    /// only where a command acts on the account, since a shell may set it for every command.
    func validate() throws {
        if let user {
            do { _ = try AccountHandle(user) } catch { throw ValidationError(refusing: error) }
        }
        guard dataDir == nil, let value = ProcessInfo.processInfo.environment["REEL_DATA_DIR"] else { return }
        do {
            _ = try PathArgument.parse(value)
        } catch {
            throw ValidationError("REEL_DATA_DIR: \(error)")
        }
    }

    /// The directory named by `--data-dir` or `REEL_DATA_DIR` (both checked by parsing and
    /// `validate()`), or nil when neither is given.
    var chosenDataDirectory: String? {
        if let dataDir { return dataDir }
        return ProcessInfo.processInfo.environment["REEL_DATA_DIR"].flatMap { try? PathArgument.parse($0) }
    }

    /// `--data-dir`, else `REEL_DATA_DIR`, else `$XDG_DATA_HOME/reel`, else `~/.local/share/reel`.
    var resolvedDataDirectory: String {
        if let chosen = chosenDataDirectory { return chosen }
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/reel" }
        return (env["HOME"] ?? NSHomeDirectory()) + "/.local/share/reel"
    }

    /// `--user`, else `REEL_USER`, else `default`; a malformed handle is a usage error.
    func handle() throws -> AccountHandle {
        let raw = user ?? ProcessInfo.processInfo.environment["REEL_USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        do {
            return try AccountHandle(raw)
        } catch {
            throw ReelFailure(message: error.description, status: .usage)
        }
    }
}
