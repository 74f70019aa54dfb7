import ArgumentParser
import Foundation
import Reel
import ReportJSON

/// `reel history`: the account's events, oldest first, in words, naming the titles saved and
/// removed (from the catalog, in the account's language).
struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the account's events, newest last: position, time and what happened.")

    @OptionGroup var global: TimedGlobalOptions
    @Option(name: .customLong("as-of"), help: AsOfArgument.help, transform: AsOfArgument.parse) var asOf: AsOfArgument?
    @Option(help: ArgumentHelp("Only the last N events.", valueName: "n")) var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit takes a positive number") }
    }

    func run() async throws {
        try await global.withApplication { app in
            let progress = ProgressLine(label: "fetching details", threshold: 20)
            let report = try await app.history(of: try global.handle(), asOf: asOf?.value, limit: limit) {
                progress.update(UInt64($0), of: UInt64($1))
            }
            progress.finish()
            try global.json ? printJSON(ReportJSON.history(report)) : render(report)
        }
    }

    private func render(_ report: HistoryReport) {
        for notice in report.notices { Terminal.notice(notice) }
        if let asOf = report.asOf { Console.line(Terminal.dim("as of \(Timestamp.point(asOf))")) }
        if let deletedAt = report.deletedAt {
            Console.line(Terminal.dim("the account '\(report.handle)' was deleted on \(Timestamp.labelled(deletedAt)): its events are shredded (type, position and time only)"))
        }
        let zone = Timestamp.zone(of: report.entries.lazy.map(\.recordedAt))
        var table = TextTable(["POSITION", "VERSION", "TIME (\(zone))", "WHAT HAPPENED"], alignments: [.right, .right, .left, .left])
        for entry in report.entries {
            table.add(["\(entry.position)", "v\(entry.streamVersion)", Timestamp.short(entry.recordedAt), entry.summary(title: report.title(entry))])
        }
        guard !report.entries.isEmpty else {
            Console.line(report.stream == nil ? "no events yet: \(FirstRun.hint)" : "no events")
            return
        }
        // What happened wraps, indented to its column, rather than losing the end of a title; below
        // 24 columns for it, the version goes, then the position.
        Console.line(table.render(width: Terminal.width, flexible: [.init(3, minimum: 24)], droppable: [1, 0], wrapping: 3))
    }
}
