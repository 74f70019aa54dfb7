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

    struct Output: Encodable {
        let target: String
        let events: UInt64
        let headHash: String?
    }

    func run() async throws {
        try await global.withApplication { app in
            let report = try app.backup(to: target)
            Console.changed("the backup was written")
            let output = Output(target: target, events: report.eventsChecked, headHash: report.head?.hash.hex)
            if global.json {
                try printJSON(output)
            } else {
                Console.line("backed up \(report.eventsChecked) events to \(target) (verified, head \(report.head?.hash.hex ?? "none"))")
            }
        }
    }
}
