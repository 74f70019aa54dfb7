import ArgumentParser
import EventLog
import Foundation

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a compacted, consistent copy of the ledger and its keys to a new directory.",
        discussion: "The copy holds the stream keys: keep it as safe as the original. Writers may go on meanwhile."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("A directory that does not exist yet (or is empty).", valueName: "target"), transform: PathArgument.parse)
    var target: String

    struct Output: Encodable {
        let target: String
        let events: UInt64
        let headHash: String?
    }

    func run() async throws {
        try await runReporting {
            let source = global.resolvedDataDirectory
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) {
                let contents = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? ["?"]
                guard isDirectory.boolValue, contents.isEmpty else {
                    throw ReelFailure(message: "\(target) exists and is not an empty directory", status: .usage)
                }
            }
            let log = try LedgerLocation.openExisting(source)
            try log.backup(to: target)
            Console.changed("the backup was written")
            let copy = try EventLog.open(at: target)
            let report = try copy.verify()
            guard report.isIntact else {
                throw ReelFailure(message: "the copy in \(target) does not verify: \(report.problem!)", status: .integrityFailure)
            }
            let output = Output(target: target, events: report.eventsChecked, headHash: report.head?.hash.hex)
            if global.json {
                try printJSON(output)
            } else {
                Console.line("backed up \(report.eventsChecked) events to \(target) (verified, head \(report.head?.hash.hex ?? "none"))")
            }
        }
    }
}
