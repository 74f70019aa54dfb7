import ArgumentParser
import Catalog
import Foundation
import JSONKit
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
            data in the clear: it is written with mode 0600, atomically (an unnamed temporary file, then \
            a link or a rename), so a killed export leaves nothing behind. --out must be a new path or a \
            regular file; a directory, a device, a FIFO, a socket or a symbolic link is refused.
            Without --out the document goes to stdout.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(
        help: ArgumentHelp("Write the export to this file (a new path or a regular file; made atomically, mode 0600).", valueName: "file"),
        transform: PathArgument.parse)
    var out: String?
    @Flag(help: "Leave out catalog details of the saved titles (no catalog requests).") var noDetails = false
    @Option(help: ArgumentHelp("reel (the whole account, default) or letterboxd (the saved movies as Letterboxd's import CSV).", valueName: "format"))
    var format = "reel"

    func validate() throws {
        guard ["reel", "letterboxd"].contains(format) else { throw ValidationError("--format takes reel or letterboxd") }
        if format == "letterboxd", noDetails { throw ValidationError("--no-details does not apply to --format letterboxd") }
        if format == "letterboxd", global.json, out == nil {
            throw ValidationError("--json with --format letterboxd needs --out (the CSV itself would go to stdout)")
        }
    }

    func run() async throws {
        try await runReporting {
            let handle = try global.handle()
            if let out { try AtomicFile.check(out) }
            let service = try LedgerLocation.existingService(global)
            let export = try service.export(of: handle)
            var details: [MediaKey: JSONValue] = [:]
            var summaries: [MediaKey: TitleSummary] = [:]
            let keys = export.state.saved.items.map(\.key).filter { format == "reel" || $0.mediaType == .movie }
            if !noDetails, !keys.isEmpty {
                let language = export.state.settings.language
                let lookups = try await CatalogLocation.withClient(global) { client in
                    let progress = ProgressLine(label: "fetching details", threshold: 20)
                    defer { progress.finish() }
                    return try await Hydrator(client: client, language: language.value).lookUp(keys) { progress.update(UInt64($0), of: UInt64($1)) }
                }
                for (key, lookup) in lookups {
                    if let summary = lookup.summary {
                        details[key] = TitleList.detailsJSON(summary)
                        summaries[key] = summary
                    }
                }
            }
            let document: [UInt8]
            if format == "letterboxd" {
                let series = export.state.saved.items.count - keys.count
                if series > 0 { Terminal.notice("Letterboxd lists films only: \(series) saved series left out") }
                document = LetterboxdCSV.write(keys.map { LetterboxdCSV.Row(tmdbID: $0.id, title: summaries[$0]?.title ?? "", year: summaries[$0]?.year) })
            } else {
                document = try export.document(details: details, generator: "reel \(Reel.configuration.version)")
            }
            guard let out else {
                // Exact to a pipe or a file. On a terminal, the CSV's titles (raw text, where JSON
                // escapes control characters) are made safe first.
                if format == "letterboxd" && isatty(STDOUT_FILENO) == 1 {
                    Console.text(String(decoding: document, as: UTF8.self))
                } else {
                    Console.write(document)
                }
                return
            }
            // The digest the summary shows is taken on another core while the file is written.
            let digesting = Task.detached { document.withUnsafeBytes { ChainHash.sha256($0).hex } }
            try AtomicFile.write(document, to: out, dataDirectory: global.resolvedDataDirectory, stream: export.stream.rawValue)
            Console.changed("the export was written to \(out)")
            let digest = await digesting.value
            if global.json {
                try printJSON([
                    "user": .string(handle.value), "file": .string(out), "bytes": .integer(Int64(document.count)),
                    "sha256": .string(digest), "events": .integer(Int64(export.events.count)),
                    "format": .string(format), "saved": .integer(Int64(export.state.saved.count)), "headPosition": .integer(Int64(export.head.position)),
                ] as JSONValue)
                return
            }
            if format == "letterboxd" {
                Console.line("exported '\(handle)': \(keys.count) saved movies as Letterboxd's import CSV → \(out)")
                Console.line(Terminal.dim("  import it at letterboxd.com/import (or into a list); \(document.count) bytes"))
                return
            }
            Console.line("exported '\(handle)': \(export.events.count) events, \(export.state.saved.count) saved titles → \(out)")
            Console.line(Terminal.dim("  \(document.count) bytes, sha256 \(digest); check it with 'reel account verify-export \(out)'"))
        }
    }
}
