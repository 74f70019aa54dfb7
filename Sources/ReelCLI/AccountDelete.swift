import ArgumentParser
import Foundation
import Reel
import ReportJSON

#if canImport(Glibc)
import Glibc
#endif

/// `reel account delete`: appends `account deleted`, then destroys the account's key.
struct AccountDelete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the account for good (crypto-shredding): its history stays, unreadable.",
        discussion: """
            Appends 'account deleted', destroys the account's key (the key store is replaced by one it \
            was never written into) and removes the TMDb response cache and the image cache, so no \
            file in the data directory keeps the account's name, photo, saved list or key. The audit \
            chain still verifies; 'reel history' shows the events as shredded (type, position and \
            time only). The handle is free for a new account afterwards. Backups made earlier with \
            'reel backup' still hold the key: delete them too. On PostgreSQL (--store) the key \
            is kept wrapped under the store's keyring (REEL_KEYRING) and the deletion rotates it, \
            so no copy of the database (a standby, a backup, the WAL) opens the key again; a copy \
            made before stays readable only with a keyring file kept from before, so keep none.
            At a terminal, asks for the handle to be typed again; elsewhere, pass --yes.
            """)

    @OptionGroup var global: AccountOptions
    @Flag(help: "Do not ask for confirmation (needed when not run at a terminal).") var yes = false

    func run() async throws {
        try await global.withApplication { app in
            let handle = try global.handle()
            _ = try app.accountToDelete(handle)
            if !yes { try confirm(handle) }
            let report = try app.deleteAccount(handle) { Failpoint.reach("delete:\($0.rawValue)") }
            Console.changed("the account was deleted")
            if !report.keyPurged { Terminal.notice("the purge after the deletion did not run: \(report.purgeProblem ?? "unknown")") }
            if global.json {
                try printJSON(ReportJSON.deletion(report))
                return
            }
            Console.line(Terminal.green("deleted the account '\(handle)' for good"))
            Console.line("  \(report.events) events stay in the ledger (stream \(report.stream)), their payloads unreadable: the key is destroyed")
            if !report.keyPurged {
                Console.line("  the key's bytes stay in the PostgreSQL server's files until a purge runs (the next command that opens the store tries again)")
            }
            Console.line("  the audit chain still verifies; the handle '\(handle)' is free for a new account")
        }
    }

    /// At a terminal: the handle typed again, or nothing happens. Elsewhere: `--yes` is required.
    private func confirm(_ handle: AccountHandle) throws {
        guard isatty(0) == 1 else {
            throw ReelFailure(message: "deleting an account needs --yes when stdin is not a terminal", status: .usage)
        }
        Console.writeError(
            "This deletes the account '\(handle)' for good: its saved list, settings and history become unreadable.\nType the handle to confirm: ")
        guard let typed = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !typed.isEmpty else {
            Console.writeError("\n")
            throw ReelFailure(message: "cancelled; nothing deleted", status: .usage)
        }
        guard typed == handle.value else {
            throw ReelFailure(message: "the handle typed does not match '\(handle)'; nothing deleted", status: .usage)
        }
    }
}
