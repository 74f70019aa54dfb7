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
            Leaves an erasure receipt (DATA_DIR/receipts/STREAM.tlog-proof, or --receipt FILE): the \
            signed proof that the deletion is in the ledger, with no personal data in it; keep it, and \
            check it any time later with 'reel audit check-receipt FILE'.
            At a terminal, asks for the handle to be typed again; elsewhere, pass --yes.
            """)

    @OptionGroup var global: AccountOptions
    @Flag(help: "Do not ask for confirmation (needed when not run at a terminal).") var yes = false
    @Option(help: ArgumentHelp("Write the erasure receipt here (default DATA_DIR/receipts/STREAM.tlog-proof).", valueName: "file"),
        completion: .file(), transform: PathArgument.parse)
    var receipt: String?

    func run() async throws {
        try await global.withApplication { app in
            // Refused before any work (from run(), so the path's own exit status: 64, 69).
            if let receipt { try AtomicFile.check(receipt) }
            let handle = try global.handle()
            _ = try app.accountToDelete(handle)
            if !yes { try confirm(handle) }
            let report = try app.deleteAccount(handle) { Failpoint.reach("delete:\($0.rawValue)") }
            Console.changed("the account was deleted")
            if !report.keyPurged { Terminal.notice("the purge after the deletion did not run: \(report.purgeProblem ?? "unknown")") }
            let receiptFile = try keepReceipt(report, dataDirectory: app.configuration.dataDirectory)
            if global.json {
                guard case .object(var document) = ReportJSON.deletion(report) else { return }
                document["receiptFile"] = receiptFile.map(JSONValue.string) ?? .null
                try printJSON(JSONValue.object(document))
                return
            }
            Console.line(Terminal.green("deleted the account '\(handle)' for good"))
            if let receiptFile { Console.line("  your erasure receipt: \(receiptFile) (check it any time: reel audit check-receipt \(receiptFile))") }
            Console.line("  \(report.events) events stay in the ledger (stream \(report.stream)), their payloads unreadable: the key is destroyed")
            if !report.keyPurged {
                Console.line("  the key's bytes stay in the PostgreSQL server's files until a purge runs (the next command that opens the store tries again)")
            }
            Console.line("  the audit chain still verifies; the handle '\(handle)' is free for a new account")
        }
    }

    /// Writes the deletion's receipt (mode 0600, whole or not at all) and names its file; `nil`
    /// with a notice when there is none, or it could not be written (the deletion stands).
    private func keepReceipt(_ report: DeletionReport, dataDirectory: String) throws -> String? {
        guard let text = report.receipt else {
            Terminal.notice("no erasure receipt: \(report.receiptProblem ?? "unknown")")
            return nil
        }
        let path = receipt ?? dataDirectory + "/receipts/" + report.stream.rawValue + ".tlog-proof"
        do {
            if receipt == nil { try FileManager.default.createDirectory(atPath: dataDirectory + "/receipts", withIntermediateDirectories: true) }
            try AtomicFile.write(Array(text.utf8), to: path)
            return path
        } catch {
            Terminal.notice("the erasure receipt could not be written to \(path): \(error)")
            return nil
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
