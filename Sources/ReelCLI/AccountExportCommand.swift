import ArgumentParser
import Foundation
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
            regular file; a directory, a device, a FIFO, a socket or a symbolic link is refused. \
            Without --out the document goes to stdout.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(
        help: ArgumentHelp("Write the export to this file (a new path or a regular file; made atomically, mode 0600).", valueName: "file"),
        completion: .file(), transform: PathArgument.parse)
    var out: String?
    @Flag(help: "Leave out catalog details of the saved titles (no catalog requests).") var noDetails = false
    @Option(help: ArgumentHelp("reel (the whole account, default) or letterboxd (the saved movies as Letterboxd's import CSV).", valueName: "format"))
    var format: ExportFormat = .reel

    func validate() throws {
        if format == .letterboxd, noDetails { throw ValidationError("--no-details does not apply to --format letterboxd") }
        if format == .letterboxd, global.json, out == nil {
            throw ValidationError("--json with --format letterboxd needs --out (the CSV itself would go to stdout)")
        }
    }

    func run() async throws {
        try await global.withApplication { app in
            if let out { try AtomicFile.check(out) }
            let progress = ProgressLine(label: "fetching details", threshold: 20)
            let report = try await app.export(
                try global.handle(), format: format, details: !noDetails, generator: "reel \(ReelCommand.configuration.version)"
            ) { progress.update(UInt64($0), of: UInt64($1)) }
            progress.finish()
            for notice in report.notices { Terminal.notice(notice) }
            guard let out else {
                // Exact to a pipe or a file. On a terminal, the CSV's titles (raw text, where JSON
                // escapes control characters) are made safe first.
                if format == .letterboxd && isatty(STDOUT_FILENO) == 1 {
                    Console.text(String(decoding: report.document, as: UTF8.self))
                } else {
                    Console.write(report.document)
                }
                return
            }
            try await write(report, to: out)
        }
    }

    /// Writes the export to `out` and says what was written.
    private func write(_ report: ExportReport, to out: String) async throws {
        // The digest the summary shows is taken on another core while the file is written.
        let document = report.document
        let digesting = Task.detached { ContentDigest.sha256Hex(document) }
        try AtomicFile.write(document, to: out, dataDirectory: global.resolvedDataDirectory, stream: report.stream.rawValue)
        Console.changed("the export was written to \(out)")
        let digest = await digesting.value
        let handle = report.handle
        if global.json {
            try printJSON([
                "user": .string(handle.value), "file": .string(out), "bytes": .integer(Int64(document.count)),
                "sha256": .string(digest), "events": .integer(Int64(report.events)),
                "format": .string(format.rawValue), "saved": .integer(Int64(report.saved)), "headPosition": .integer(Int64(report.headPosition)),
            ] as JSONValue)
            return
        }
        if format == .letterboxd {
            Console.line("exported '\(handle)': \(report.listed) saved movies as Letterboxd's import CSV → \(out)")
            Console.line(Terminal.dim("  import it at letterboxd.com/import (or into a list); \(Counted.of(document.count, "byte"))"))
            return
        }
        Console.line("exported '\(handle)': \(report.events) events, \(report.saved) saved titles → \(out)")
        Console.line(Terminal.dim("  \(Counted.of(document.count, "byte")), sha256 \(digest); check it with 'reel account verify-export \(out)'"))
    }
}
