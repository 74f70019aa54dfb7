import ArgumentParser
import Foundation
import Presentation
import Reel
import ReportJSON

/// `reel account import FILE [--as HANDLE] [--format F] [--dry-run]`.
struct AccountImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a Reel export as a new account, or another app's list into an account.",
        discussion: """
            The format is recognised from the content, or given with --format: \
            reel (a 'reel account export' file: verified, then restored as a new account with a new \
            stream and key, in one transaction; --as names the handle, default the exported one), \
            letterboxd (its export CSVs, or the CSV 'reel account export --format letterboxd' writes), \
            imdb (a list or watchlist CSV), trakt (a watchlist JSON). Other apps' titles are matched to \
            TMDb ids (directly, through IMDb ids, or by title and year) and saved into the account \
            (--as, else --user), keeping when they were first saved there; titles already saved are \
            left alone, so running an import again adds nothing twice. Rows that cannot be matched \
            are listed, never dropped silently. A file that does not verify or parse is refused \
            with where the problem is, and nothing is written. --dry-run shows what would happen.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The file to import.", valueName: "file"), completion: .file(), transform: PathArgument.parse) var file: String
    @Option(name: .customLong("as"), help: ArgumentHelp("The handle to import into (default: the export's, or --user).", valueName: "handle"))
    var handle: String?
    @Option(help: ArgumentHelp("reel, letterboxd, imdb or trakt (default: recognised from the content).", valueName: "format"))
    var format: InterchangeFormat?
    @Flag(help: "Show what would be imported; write nothing.") var dryRun = false

    func validate() throws { _ = try importHandle() }

    func run() async throws {
        try await global.withApplication { app in
            let bytes = try InputFile.read(file, limit: InputLimit.export, what: "an import")
            let progress = ProgressLine(label: "matching titles", threshold: 20)
            let report = try await app.importFile(
                bytes, file: file, format: format, as: try importHandle(), defaultHandle: try global.handle(),
                dryRun: dryRun, progress: { progress.update(UInt64($0), of: UInt64($1)) }, step: { Failpoint.reach("import:\($0.rawValue)") })
            progress.finish()
            switch report {
            case .restored(let restored, let source, let sourceStream): try render(restored, source: source, sourceStream: sourceStream)
            case .list(let list): try render(list)
            }
        }
    }

    /// `--as`, checked: `validate()` refuses a malformed handle as a usage mistake (exit 64).
    private func importHandle() throws -> AccountHandle? {
        do { return try handle.map { try AccountHandle($0) } } catch { throw ValidationError(refusing: error) }
    }

    private func render(_ report: ListImportReport) throws {
        if report.changed { Console.changed("the import was saved") }
        if global.json {
            try printJSON(ReportJSON.imported(.list(report), dryRun: dryRun))
            return
        }
        let verb = dryRun ? "would add" : "added"
        Console.line(
            "\(file) (\(report.format)): \(report.rows) \(report.rows == 1 ? "row" : "rows"), \(verb) \(report.added) to '\(report.handle)', \(report.alreadySaved) already saved, \(report.repeated) repeated, \(report.unmatched.count) unmatched")
        for u in report.unmatched {
            // The title is the file's own text, the reason may quote TMDb: one safe line each.
            Console.line(Terminal.yellow("  unmatched \(u.title.location): \(TerminalText.field(u.title.label)): \(TerminalText.field(u.reason))"))
        }
        if dryRun { Console.line(Terminal.dim("dry run: nothing was written")) }
    }

    private func render(_ report: RestoreReport, source: AccountHandle, sourceStream: String) throws {
        if !dryRun, report.stream != nil { Console.changed("the account was restored") }
        if global.json {
            try printJSON(ReportJSON.imported(.restored(report, sourceHandle: source, sourceStream: sourceStream), dryRun: dryRun))
            return
        }
        let verb = dryRun ? "would restore" : "restored"
        Console.line("\(verb) '\(source)' as '\(report.handle)': \(report.events) events, \(report.saved) saved titles" + (report.stream.map { " (new stream \($0))" } ?? ""))
        if report.skipped > 0 { Terminal.notice("\(report.skipped) events of types this Reel does not know were not carried over") }
        if dryRun { Console.line(Terminal.dim("dry run: nothing was written")) }
    }
}
