import Presentation
import Reel
import ArgumentParser
import Foundation

/// Options every command takes: `--data-dir` and `--json`, and `--user`, `--offline` and `--utc`
/// where they mean something (`OptionScope`). Where they do not, they are still taken, hidden from
/// `--help` and ignored, so `reel --offline backup D` or `REEL_USER` in a shell is no mistake;
/// a malformed `--user` is refused by every command all the same.
struct CommandOptions<Scope: OptionScope>: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(Scope.dataDirectoryHelp, valueName: "dir", visibility: Scope.usesDataDirectory ? .default : .hidden), completion: .directory, transform: PathArgument.parse)
    var dataDir: String?

    @Option(name: .long, help: ArgumentHelp(Scope.storeHelp, valueName: "postgres://…", visibility: Scope.usesStore ? .default : .hidden))
    var store: String?

    @Option(name: .long, help: ArgumentHelp(
        Scope.accountHelp, valueName: "handle", visibility: Scope.usesAccount ? .default : .hidden))
    var user: String?

    @Flag(name: .long, help: "Print one JSON document instead of text.")
    var json = false

    @Flag(name: .long, help: ArgumentHelp(
        "Answer catalog requests from the cache only (env REEL_OFFLINE=1).", visibility: Scope.usesCatalog ? .default : .hidden))
    var offline = false

    @Flag(name: .long, help: ArgumentHelp(
        "Print times in UTC instead of the local time zone (env REEL_UTC=1); --json is always UTC.",
        visibility: Scope.printsTimes ? .default : .hidden))
    var utc = false

    @Flag(name: [.customShort("q"), .long], help: "Print no notes and no progress, only errors (env REEL_QUIET=1).")
    var quiet = false

    @Flag(name: .long, help: "Print every note each time, also the ones shown once a day (the sample catalog's).")
    var verbose = false

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
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other; give one") }
        Notes.choose(quiet: quiet, verbose: verbose)
        DisplayZone.choose(utc: utc)
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

    /// `--store`, else `REEL_STORE`; a usage failure when neither names a store (`reel store`).
    func requiredStore() throws -> String {
        if let store, !store.isEmpty { return store }
        if let value = ProcessInfo.processInfo.environment["REEL_STORE"], !value.isEmpty { return value }
        throw ReelFailure(message: "no store named: give --store postgres://USER@HOST/DATABASE or set REEL_STORE", status: .usage)
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

/// The options of a command that acts on an account and reads the catalog (`fav add`, `saved`).
typealias GlobalOptions = CommandOptions<AccountAndCatalog>
/// The options of such a command that prints times (`saved`, `show`, `history`).
typealias TimedGlobalOptions = CommandOptions<PrintingTimes<AccountAndCatalog>>
/// The options of a command that acts on an account but never reads the catalog (`settings name`).
typealias AccountOptions = CommandOptions<AccountOnly>
/// The options of such a command that prints times (`settings`, as of a time).
typealias TimedAccountOptions = CommandOptions<PrintingTimes<AccountOnly>>
/// The options of a command that reads the catalog, or asks TMDb, for no account (`tmdb status`).
typealias CatalogOptions = CommandOptions<CatalogOnly>
/// The options of a command about TMDb credentials only (`tmdb login`, `tmdb logout`).
typealias CredentialOptions = CommandOptions<CredentialsOnly>
/// The options of a command about the whole ledger or its files (`backup`, `audit verify`).
typealias LedgerOptions = CommandOptions<LedgerOnly>
/// The options of a command about a PostgreSQL store named by URL (`store migrate`).
typealias StoreOptions = CommandOptions<StoreOnly>
/// The options of such a command that prints times (`accounts`, `cache stats`, `account verify-export`).
typealias TimedLedgerOptions = CommandOptions<PrintingTimes<LedgerOnly>>
