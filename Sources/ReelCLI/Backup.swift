import Stores
import Reel
import ArgumentParser
import Foundation

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a compacted, consistent copy of the ledger and its keys to a new directory.",
        discussion: """
            The copy holds the stream keys wrapped under the data directory's keyring, which it does \
            not carry: it is readable only with that keyring (where the data directory recorded it, \
            else REEL_KEYRING). Back the keyring file up apart from the copies, and keep only its \
            latest version. Every account deletion retires the keyring generation the copy's keys \
            are wrapped under: a copy made before a deletion is unreadable after it (refused as a \
            copy from before a deletion), unless an old copy of the keyring is kept too. Restore a \
            copy in place of the data directory, never beside it (a deletion in one would make the \
            other unreadable). Writers may go on meanwhile. (Schemas/ledger-layout.md, "The keyring")
            """
    )

    @OptionGroup var global: LedgerOptions

    @Argument(help: ArgumentHelp("A directory that does not exist yet (or is empty).", valueName: "target"), completion: .directory, transform: PathArgument.parse)
    var target: String

    func run() async throws {
        try await global.withApplication { app in
            let report = try app.backup(to: target)
            Console.changed("the backup was written")
            let head = report.head?.hash.hex
            if global.json {
                // Schemas/cli/backup.schema.json
                let document: JSONValue = ["target": .string(target), "events": .integer(Int64(report.eventsChecked)), "headHash": .init(head.map(JSONValue.string))]
                try printJSON(document)
            } else {
                Console.line("backed up \(Counted.of(Int(report.eventsChecked), "event")) to \(target) (verified, head \(head ?? "none"))")
            }
        }
    }
}
