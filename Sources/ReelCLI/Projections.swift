import ArgumentParser
import Foundation
import Reel

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
                With --check nothing is written, and the exit status is 65 when the live projections drifted.
                """
        )

        @OptionGroup var global: LedgerOptions
        @Flag(help: "Compare only; exit 65 on drift.") var check = false

        func run() async throws {
            try await global.withApplication { app in
                let progress = ProgressLine(label: check ? "checking" : "rebuilding")
                let report = try app.rebuildProjections(checkOnly: check) { done, total in progress.update(done, of: total) }
                progress.finish()
                if report.swapped { Console.changed("the projections were rebuilt") }
                try global.json ? printJSON(json(report)) : render(report)
                if check && !report.drift.isEmpty { throw ExitCode(ExitStatus.integrityFailure.rawValue) }
            }
        }

        private func json(_ report: RebuildReport) -> JSONValue {
            [
                "ok": .bool(report.drift.isEmpty), "check": .bool(check), "swapped": .bool(report.swapped),
                "events": .integer(Int64(report.events)), "accounts": .integer(Int64(report.accounts)),
                "checkpoint": .integer(Int64(report.checkpoint)), "seconds": .double(report.seconds),
                "eventsPerSecond": .integer(Int64(Self.rate(report))),
                "drift": .array(
                    report.drift.map { ["kind": .string($0.kind.rawValue), "subject": .string($0.subject), "detail": .string($0.detail)] }),
            ]
        }

        private func render(_ report: RebuildReport) {
            for d in report.drift { Console.line(Terminal.yellow(TerminalText.field("drift: \(d.kind.rawValue): \(d.subject): \(d.detail)"))) }
            let what = report.drift.isEmpty ? "no drift" : "\(report.drift.count) drift(s)"
            let done = check ? "checked" : (report.drift.isEmpty ? "rebuilt" : "rebuilt and repaired")
            Console.line("\(done): \(Counted.of(Int(report.events), "event")), \(Counted.of(Int(report.accounts), "account")), \(what) (\(String(format: "%.2f", report.seconds)) s, \(Int(Self.rate(report))) events/s)")
        }

        /// Events replayed per second (0 when the replay took no measurable time).
        private static func rate(_ report: RebuildReport) -> Double {
            report.seconds > 0 ? Double(report.events) / report.seconds : 0
        }
    }
}
