import ArgumentParser
import Foundation
import JSONKit
import Ledger
import Reel

/// `reel history`: the account's events, oldest first, in words, naming the titles saved and
/// removed (from the catalog, in the account's language).
struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
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
            let context = try AccountContext.load(global)
            let keys = entries.compactMap(\.mediaKey)
            let (lookups, isSample): ([MediaKey: TitleLookup], Bool) = keys.isEmpty ? ([:], false) : try await CatalogLocation.withClient(global) { client in
                let progress = ProgressLine(label: "fetching details", threshold: 20)
                defer { progress.finish() }
                let found = try await Hydrator(client: client, language: context.language).lookUp(keys) {
                    progress.update(UInt64($0), of: UInt64($1))
                }
                return (found, client.source == .sample)
            }
            for notice in TitleList.notices(for: Array(lookups.values), sample: isSample) where !global.json { Terminal.notice(notice) }
            func title(_ entry: HistoryEntry) -> String? { entry.mediaKey.flatMap { lookups[$0]?.summary?.label } }
            if global.json {
                let deletedAt = try service.deletedAccount(handle).flatMap { $0.stream == stream ? $0.deletedAt : nil }
                let document: JSONValue = [
                    "user": .string(handle.value), "stream": .string(stream.rawValue), "asOf": JSONForm.asOf(asOf?.value),
                    "deletedAt": JSONForm.time(deletedAt),
                    "events": .array(entries.map { entry in
                        JSONForm.entry(entry).merging(["summary": .string(entry.summary(title: title(entry))), "title": .init(title(entry).map(JSONValue.string))])
                    }),
                ]
                try printJSON(document)
                return
            }
            if let asOf = asOf?.value { Console.line(Terminal.dim("as of \(asOf)")) }
            if let deleted = try service.deletedAccount(handle), deleted.stream == stream {
                Console.line(Terminal.dim("the account '\(handle)' was deleted on \(Timestamp.short(deleted.deletedAt)) UTC: its events are shredded (type, position and time only)"))
            }
            var table = TextTable(["POSITION", "VERSION", "TIME (UTC)", "WHAT HAPPENED"], alignments: [.right, .right, .left, .left])
            for entry in entries {
                table.add(["\(entry.position)", "v\(entry.streamVersion)", Timestamp.short(entry.recordedAt), entry.summary(title: title(entry))])
            }
            Console.line(entries.isEmpty ? "no events" : table.render(width: Terminal.width, flexible: [.init(3, minimum: 16)], droppable: [1, 0]))
        }
    }
}
