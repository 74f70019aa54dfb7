import ArgumentParser
import Catalog
import Crypto
import Foundation
import Ledger
import EventLog
import Reel

/// `reel account export [--out FILE]`: the account as one verifiable JSON document.
struct AccountExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the account: settings, saved list with details, and its whole history, verifiable.",
        discussion: """
            One JSON document (Schemas/export.schema.json): the account, its settings (photo included), \
            its saved list with catalog details when known, and its whole decrypted history with each \
            event's sealed envelope and hashes, so the file can be checked without Reel \
            (Tools/verify_export.py; the procedure is in Schemas/export.md). The file holds the account's \
            data in the clear: it is written with mode 0600, atomically (a temporary file, then a rename).
            Without --out the document goes to stdout.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Write the export to this file (made atomically, mode 0600).", valueName: "file")) var out: String?
    @Flag(help: "Leave out catalog details of the saved titles (no catalog requests).") var noDetails = false

    func run() async throws {
        try await runReporting {
            let handle = try global.handle()
            let service = try LedgerLocation.existingService(global)
            let export = try service.export(of: handle)
            var details: [MediaKey: JSONValue] = [:]
            let keys = export.state.saved.items.map(\.key)
            if !noDetails, !keys.isEmpty {
                let language = export.state.settings.language
                let lookups = try await CatalogLocation.withClient(global) { client in
                    let progress = ProgressLine(label: "fetching details", threshold: 20)
                    defer { progress.finish() }
                    return try await Hydrator(client: client, language: language.value).lookUp(keys) { progress.update(UInt64($0), of: UInt64($1)) }
                }
                for (key, lookup) in lookups {
                    if let summary = lookup.summary { details[key] = TitleList.detailsJSON(summary) }
                }
            }
            let document = export.document(details: details, generator: "reel \(Reel.configuration.version)")
            guard let out else {
                FileHandle.standardOutput.write(Data(document))
                return
            }
            try AtomicFile.write(document, to: out)
            let digest = ChainHash(bytes: Array(SHA256.hash(data: document))).hex
            if global.json {
                try printJSON([
                    "user": .string(handle.value), "file": .string(out), "bytes": .integer(Int64(document.count)),
                    "sha256": .string(digest), "events": .integer(Int64(export.events.count)),
                    "saved": .integer(Int64(export.state.saved.count)), "headPosition": .integer(Int64(export.head.position)),
                ] as JSONValue)
                return
            }
            print("exported '\(handle)': \(export.events.count) events, \(export.state.saved.count) saved titles → \(out)")
            print(Terminal.dim("  \(document.count) bytes, sha256 \(digest); check it with 'reel account verify-export \(out)'"))
        }
    }
}
