import Reel
import ArgumentParser
import Foundation

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a compacted, consistent copy of the ledger and its keys to a new directory.",
        discussion: "The copy holds the stream keys: keep it as safe as the original. Writers may go on meanwhile."
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
