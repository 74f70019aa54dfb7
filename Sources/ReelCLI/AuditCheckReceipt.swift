import ArgumentParser
import Foundation
import Presentation
import Reel

/// `reel audit check-receipt FILE [--key KEY]`: proves an account's deletion from its receipt.
struct AuditCheckReceipt: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-receipt",
        abstract: "Check an erasure receipt (the file `account delete` leaves): the account's deletion is in the ledger.",
        discussion: """
            Without --key, against this ledger: the receipt's checkpoint is signed by the ledger's key, the deletion \
            event is in it, and the ledger only grew since (a consistency proof to the latest checkpoint), so the \
            deletion is still on record. With --key, offline: the signature and the inclusion only. Exit 0 when the \
            receipt holds; 65 when it does not (or is a proof of another kind of event); 66 when it names another log.
            """)

    @OptionGroup var global: LedgerOptions
    @Argument(help: ArgumentHelp("The receipt file (- for stdin).", valueName: "file"), completion: .file()) var file: String
    @Option(help: ArgumentHelp("Check offline under this public key (as `reel audit key` prints it).", valueName: "key")) var key: String?

    func run() async throws {
        try await global.withApplication { app in
            let text = String(decoding: try InputFile.read(file, limit: 1 << 20, what: "a receipt"), as: UTF8.self)
            let (deletion, later) = try app.checkReceipt(text, key: key)
            if global.json {
                try printJSON(
                    [
                        "ok": true, "origin": .string(deletion.checkpoint.origin), "stream": .string(deletion.stream.rawValue),
                        "position": .integer(Int64(deletion.position)), "size": .integer(Int64(deletion.checkpoint.size)),
                        "laterSize": later.map { .integer(Int64($0)) } ?? .null,
                    ] as JSONValue)
                return
            }
            Console.line(
                "receipt holds: stream \(TerminalText.field(deletion.stream.rawValue)) was deleted at position \(deletion.position), in \(TerminalText.field(deletion.checkpoint.origin)) of \(deletion.checkpoint.size) events")
            if let later { Console.line("  the ledger only grew since: \(later) events now, the deletion still on record") }
        }
    }
}
