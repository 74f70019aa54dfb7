import ArgumentParser
import Files
import Foundation
import JSONKit
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
    @Argument(help: ArgumentHelp("The file to import.", valueName: "file"), transform: PathArgument.parse) var file: String
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
            let bytes = try InputFile.read(file, limit: InputLimit.export, what: "an import")
            let kind = format.flatMap(InterchangeFormat.init(name:)) ?? InterchangeFormat.detect(bytes)
            guard let kind else {
                throw ReelFailure(
                    message: "\(file): not a file Reel can import (a Reel export, a Letterboxd or IMDb CSV, or a Trakt JSON); name its format with --format",
                    status: .usage)
            }
            // Other apps' lists are far smaller than a whole account's export.
            if kind != .reelExport, bytes.count > InputLimit.list {
                throw InputFile.failure(.tooLarge(path: file, limit: InputLimit.list), what: kind.description)
            }
            if kind == .reelExport {
                try restore(bytes)
            } else {
                try await importList(bytes, kind)
            }
        }
    }

    /// Another app's list: rows matched to TMDb titles, saved into the account with their dates.
    private func importList(_ bytes: [UInt8], _ kind: InterchangeFormat) async throws {
        let titles = try Self.titles(in: bytes, kind, file: file)
        let target = try handle.map { try AccountHandle($0) } ?? global.handle()
        let existing = try LedgerLocation.existingServiceIfAny(global)
        let current = try existing.flatMap { service in try? service.view(of: target) }?.state
        let language = current?.settings.language.value ?? LanguageTag.default.value
        let matches = try await CatalogLocation.withClient(global) { client in
            let progress = ProgressLine(label: "matching titles", threshold: 20)
            defer { progress.finish() }
            return try await TitleMatcher(client: client, language: language).match(titles) { progress.update(UInt64($0), of: UInt64($1)) }
        }
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let favorites = zip(titles, matches).compactMap { title, match in match.key.map { ImportedFavorite(key: $0, addedAt: title.addedAt ?? now) } }
        let unmatched = zip(titles, matches).compactMap { title, match -> (ImportedTitle, String)? in
            if case .unmatched(let reason) = match { return (title, reason) }
            return nil
        }
        let command = Command.importFavorites(favorites, source: kind.name)
        let outcomes: [Outcome]
        var stream: String?
        if dryRun {
            outcomes = try Decider.decide(command, for: target, state: current).outcomes
        } else if favorites.isEmpty {
            outcomes = []
        } else {
            // The ledger is made only now, when there is something to write.
            let report = try (existing ?? LedgerLocation.service(global)).execute(command, for: target)
            Failpoint.reach("import:\(ImportStep.committed.rawValue)")
            outcomes = report.outcomes
            stream = report.stream?.rawValue
            if !report.appended.isEmpty { Console.changed("the import was saved") }
        }
        let added = outcomes.filter { if case .favoriteAdded = $0 { return true } else { return false } }.count
        let already = outcomes.filter { if case .alreadySaved = $0 { return true } else { return false } }.count
        if global.json {
            try printJSON([
                "file": .string(file), "format": .string(kind.name), "dryRun": .bool(dryRun), "user": .string(target.value),
                "stream": .init(stream.map(JSONValue.string)), "rows": .integer(Int64(titles.count)),
                "matched": .integer(Int64(favorites.count)), "added": .integer(Int64(added)), "alreadySaved": .integer(Int64(already)),
                "unmatched": .array(unmatched.map { title, reason in
                    ["location": .string(title.location.description), "title": .string(title.label), "reason": .string(reason)]
                }),
            ] as JSONValue)
            return
        }
        let verb = dryRun ? "would add" : "added"
        Console.line("\(file) (\(kind)): \(titles.count) \(titles.count == 1 ? "row" : "rows"), \(verb) \(added) to '\(target)', \(already) already saved, \(unmatched.count) unmatched")
        for (title, reason) in unmatched {
            // The title is the file's own text, the reason may quote TMDb: one safe line each.
            Console.line(Terminal.yellow("  unmatched \(title.location): \(TerminalText.field(title.label)): \(TerminalText.field(reason))"))
        }
        if dryRun { Console.line(Terminal.dim("dry run: nothing was written")) }
    }

    /// The rows of a list file; a file that does not parse is one line naming where.
    private static func titles(in bytes: [UInt8], _ kind: InterchangeFormat, file: String) throws -> [ImportedTitle] {
        do {
            return try kind.readTitles(bytes) ?? []
        } catch let error as InterchangeError {
            throw ReelFailure(message: "\(file): \(error.description); nothing imported", status: .integrityFailure)
        } catch {
            throw ReelFailure(message: "\(file): \(error); nothing imported", status: .integrityFailure)
        }
    }

    private func restore(_ bytes: [UInt8]) throws {
        let document = try ExportFile.verified(bytes, file: file, suffix: "; nothing imported")
        let target = try handle.map { try AccountHandle($0) } ?? document.handle
        let service = try dryRun ? LedgerLocation.existingServiceIfAny(global) : LedgerLocation.service(global)
        let report: RestoreReport
        if let service {
            report = try service.restore(document, as: target, dryRun: dryRun) { Failpoint.reach("import:\($0.rawValue)") }
            if !dryRun { Console.changed("the account was restored") }
        } else {
            let (events, skipped) = document.restoredEvents(as: target)
            report = RestoreReport(handle: target, stream: nil, events: events.count, saved: document.state.saved.count, skipped: skipped, state: document.state)
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
        Console.line("\(verb) '\(document.handle)' as '\(target)': \(report.events) events, \(report.saved) saved titles" + (report.stream.map { " (new stream \($0))" } ?? ""))
        if report.skipped > 0 { Terminal.notice("\(report.skipped) events of types this Reel does not know were not carried over") }
        if dryRun { Console.line(Terminal.dim("dry run: nothing was written")) }
    }
}
