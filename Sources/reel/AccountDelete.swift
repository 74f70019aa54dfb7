import ArgumentParser
import Files
import Foundation
import JSONKit
import Ledger
import Reel

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
            was never written into) and removes the TMDb response cache, so no \
            file in the data directory keeps the account's name, photo, saved list or key. The audit \
            chain still verifies; 'reel history' shows the events as shredded (type, position and \
            time only). The handle is free for a new account afterwards. Backups made earlier with \
            'reel backup' still hold the key: delete them too.
            At a terminal, asks for the handle to be typed again; elsewhere, pass --yes.
            """)

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Do not ask for confirmation (needed when not run at a terminal).") var yes = false

    func run() async throws {
        try await runReporting {
            let handle = try global.handle()
            let service = try LedgerLocation.existingService(global)
            let view: AccountView
            do {
                view = try service.view(of: handle)
            } catch ReelError.noAccount {
                throw ReelFailure(message: "there is no account '\(handle)'", status: .notFound)
            } catch ReelError.accountDeleted(_, let time) {
                throw ReelFailure(message: "the account '\(handle)' is deleted already (on \(UTCTime.iso(time)))", status: .notFound)
            }
            if !yes { try confirm(handle) }
            // Exports of this account killed while they were being written: their plaintext goes first.
            PendingExports(dataDirectory: global.resolvedDataDirectory).sweep(stream: view.stream.rawValue)
            let started = ContinuousClock.now
            let report = try service.execute(.deleteAccount, for: handle) { step in
                Failpoint.reach("delete:\(step.rawValue)")
            }
            Console.changed("the account was deleted")
            let elapsed = (ContinuousClock.now - started).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            guard let deleted = report.appended.last else {
                throw ReelFailure(message: "the account '\(handle)' was not deleted", status: .failure)
            }
            let events = deleted.streamVersion
            if global.json {
                let document: JSONValue = [
                    "user": .string(handle.value), "stream": .string(view.stream.rawValue),
                    "deletedAt": JSONForm.time(deleted.recordedAt), "position": .integer(Int64(deleted.position)),
                    "events": .integer(Int64(events)), "keyDestroyed": true,
                    "seconds": .double(seconds),
                ]
                try printJSON(document)
                return
            }
            Console.line(Terminal.green("deleted the account '\(handle)' for good"))
            Console.line("  \(events) events stay in the ledger (stream \(view.stream)), their payloads unreadable: the key is destroyed")
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
        let typed = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces)
        guard typed == handle.value else {
            throw ReelFailure(message: "the handle typed does not match '\(handle)'; nothing deleted", status: .failure)
        }
    }
}
