import ArgumentParser
import Foundation
import Presentation
import Reel
import ReportJSON
import Stores

/// `reel projections rebuild [--check]`
struct Projections: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projections",
        abstract: "Maintain the projections (saved lists, settings) derived from the log.",
        subcommands: [Rebuild.self]
    )

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rebuild",
            abstract: "Replay the whole log into fresh projections, report drift from the live ones, then swap them in.",
            discussion: """
                The swap is one transaction: a rebuild that fails leaves the live projections as they were. \
                With --check nothing is written, and the exit status is 65 when the live projections drifted. \
                With --store SHARDS.json every shard of the map is rebuilt (or checked), one after another.
                """
        )

        @OptionGroup var global: LedgerOptions
        @Flag(help: "Compare only; exit 65 on drift.") var check = false

        func run() async throws {
            try await global.withApplication { app in
                if app.storeIsShardMap { return try rebuildShards(app) }
                let progress = ProgressLine(label: check ? "checking" : "rebuilding")
                let report = try app.rebuildProjections(checkOnly: check) { done, total in progress.update(done, of: total) }
                progress.finish()
                if report.swapped { Console.changed("the projections were rebuilt") }
                try global.json ? printJSON(ReportJSON.rebuild(report, check: check)) : render(report)
                if check && !report.drift.isEmpty { throw ExitCode(ExitStatus.integrityFailure.rawValue) }
            }
        }

        /// Every shard of a shard map, one after another.
        private func rebuildShards(_ app: Application) throws {
            let progress = ProgressLine(label: check ? "checking" : "rebuilding")
            let shards = try app.rebuildShards(checkOnly: check) { _, done, total in progress.update(done, of: total) }
            progress.finish()
            if !check { Console.changed("the projections of \(Counted.of(shards.count, "shard")) were rebuilt") }
            let drifted = shards.filter { !$0.report.drift.isEmpty }
            let events = shards.reduce(0) { $0 + Int($1.report.events) }, accounts = shards.reduce(0) { $0 + $1.report.accounts }
            if global.json {
                try printJSON(ReportJSON.shardRebuild(shards, check: check))
            } else {
                for shard in shards {
                    Console.line("shard \(TerminalText.field(shard.name)) (\(TerminalText.field(shard.store))): \(summary(shard.report))")
                    for d in shard.report.drift {
                        Console.line(Terminal.yellow(TerminalText.field("  drift: \(d.kind.rawValue): \(d.subject): \(d.detail)")))
                    }
                }
                let what = drifted.isEmpty ? "no drift" : "drift on \(Counted.of(drifted.count, "shard"))"
                Console.line("all \(shards.count) shards \(check ? "checked" : "rebuilt"): \(Counted.of(events, "event")), \(Counted.of(accounts, "account")), \(what)")
            }
            if check && !drifted.isEmpty { throw ExitCode(ExitStatus.integrityFailure.rawValue) }
        }

        private func render(_ report: RebuildReport) {
            for d in report.drift { Console.line(Terminal.yellow(TerminalText.field("drift: \(d.kind.rawValue): \(d.subject): \(d.detail)"))) }
            Console.line(summary(report))
        }

        /// `checked: 12 events, 1 account, no drift (0.01 s, 1200 events/s)`.
        private func summary(_ report: RebuildReport) -> String {
            let what = report.drift.isEmpty ? "no drift" : "\(report.drift.count) drift(s)"
            let done = check ? "checked" : (report.drift.isEmpty ? "rebuilt" : "rebuilt and repaired")
            return "\(done): \(Counted.of(Int(report.events), "event")), \(Counted.of(Int(report.accounts), "account")), \(what) (\(String(format: "%.2f", report.seconds)) s, \(Int(report.eventsPerSecond)) events/s)"
        }
    }
}
