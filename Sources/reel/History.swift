import ArgumentParser
import Ledger
import Reel

/// `reel history`: the account's events, oldest first.
struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the account's events, newest last: position, time and what happened.")

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("as-of"), help: AsOfArgument.help) var asOf: AsOfArgument?
    @Option(help: ArgumentHelp("Only the last N events.", valueName: "n")) var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit takes a positive number") }
    }

    func run() async throws {
        try await runReporting {
            let handle = try global.handle()
            let service = try LedgerLocation.existingService(global)
            let (stream, entries) = try service.history(of: handle, asOf: asOf?.value, limit: limit)
            if global.json {
                let document: JSONValue = [
                    "user": .string(handle.value), "stream": .string(stream.rawValue), "asOf": JSONForm.asOf(asOf?.value),
                    "events": .array(entries.map(JSONForm.entry)),
                ]
                try printJSON(document)
                return
            }
            if let asOf = asOf?.value { print(Terminal.dim("as of \(asOf)")) }
            var table = TextTable(["POSITION", "VERSION", "TIME (UTC)", "WHAT HAPPENED"], alignments: [.right, .right, .left, .left])
            for entry in entries {
                table.add(["\(entry.position)", "v\(entry.streamVersion)", Timestamp.short(entry.recordedAt), entry.summary])
            }
            print(entries.isEmpty ? "no events" : table.render())
        }
    }
}
