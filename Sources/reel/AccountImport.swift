import ArgumentParser
import Foundation
import Ledger
import Reel

/// `reel account import FILE [--as HANDLE] [--format F] [--dry-run]`.
struct AccountImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a Reel export as a new account, or another app's list into an account.",
        discussion: """
            The format is recognised from the content, or given with --format: \
            reel (a 'reel account export' file: verified, then restored as a new account with a new \
            stream and key, in one transaction; --as names the handle, default the exported one), \
            letterboxd (its export CSVs, or the import CSV 'reel account export-letterboxd' writes), \
            imdb (a list or watchlist CSV), trakt (a watchlist JSON). Other apps' titles are matched to \
            TMDb ids (directly, through IMDb ids, or by title and year) and saved into the account \
            (--as, else --user), keeping when they were first saved there; titles already saved are \
            left alone, so running an import again adds nothing twice. Rows that cannot be matched \
            are listed, never dropped silently. A file that does not verify or parse is refused \
            with where the problem is, and nothing is written. --dry-run shows what would happen.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The file to import.", valueName: "file")) var file: String
    @Option(name: .customLong("as"), help: ArgumentHelp("The handle to import into (default: the export's, or --user).", valueName: "handle"))
    var handle: String?
    @Option(help: ArgumentHelp("reel, letterboxd, imdb or trakt (default: recognised from the content).", valueName: "format"))
    var format: String?
    @Flag(help: "Show what would be imported; write nothing.") var dryRun = false

    func validate() throws {
        if let format, !["reel", "letterboxd", "imdb", "trakt"].contains(format) {
            throw ValidationError("--format takes reel, letterboxd, imdb or trakt")
        }
        if let handle { _ = try AccountHandle(handle) }
    }

    func run() async throws {
        try await runReporting {
            let bytes = try InputFile.read(file)
            let kind = format ?? Self.recognise(bytes)
            guard let kind else {
                throw ReelFailure(message: "\(file): not a file Reel can import (a Reel export, Letterboxd or IMDb CSV, or Trakt JSON); name it with --format", status: .usage)
            }
            switch kind {
            case "reel": try restore(bytes)
            default: throw ReelFailure(message: "\(file): importing \(kind) files is not available yet", status: .usage)
            }
        }
    }

    static func recognise(_ bytes: [UInt8]) -> String? {
        let head = String(decoding: bytes.prefix(4_096), as: UTF8.self)
        let trimmed = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("{"), head.contains("\"format\""), head.contains("reel-export/") { return "reel" }
        return nil
    }

    private func restore(_ bytes: [UInt8]) throws {
        let document = try ExportFile.verified(bytes, file: file, suffix: "; nothing imported")
        let target = try handle.map { try AccountHandle($0) } ?? document.handle
        let service = try dryRun ? LedgerLocation.existingServiceIfAny(global) : LedgerLocation.service(global)
        let report: RestoreReport
        if let service {
            report = try service.restore(document, as: target, dryRun: dryRun)
        } else {
            report = RestoreReport(handle: target, stream: nil, events: document.events.count, saved: document.state.saved.count, skipped: 0, state: document.state)
        }
        if global.json {
            try printJSON([
                "file": .string(file), "format": "reel", "dryRun": .bool(dryRun), "user": .string(target.value),
                "stream": JSONForm.stream(report.stream), "sourceStream": .string(document.sourceStream),
                "events": .integer(Int64(report.events)), "saved": .integer(Int64(report.saved)), "skipped": .integer(Int64(report.skipped)),
                "settings": JSONForm.settings(report.state.settings),
            ] as JSONValue)
            return
        }
        let verb = dryRun ? "would restore" : "restored"
        print("\(verb) '\(document.handle)' as '\(target)': \(report.events) events, \(report.saved) saved titles" + (report.stream.map { " (new stream \($0))" } ?? ""))
        if report.skipped > 0 { Terminal.notice("\(report.skipped) events of types this Reel does not know were not carried over") }
        if dryRun { print(Terminal.dim("dry run: nothing was written")) }
    }
}
