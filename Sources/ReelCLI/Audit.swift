import ArgumentParser
import Foundation
import Presentation
import Reel
import ReportJSON
import Stores

struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check the ledger's integrity, and prove what it holds to anyone.",
        subcommands: [Verify.self, AuditCheckpoint.self, AuditKey.self, AuditProve.self, AuditConsistency.self, AuditCheckProof.self, AuditCheckReceipt.self, AuditWitness.self, AuditWitnessKey.self]
    )

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Walk the whole hash chain; exit 0 only when the ledger is intact.",
            discussion: """
                Checks every rule of Schemas/ledger-layout.md. On damage, prints the first bad position and \
                which rule failed, and exits 65. Record the printed head hash somewhere safe: passing it \
                back with --expect-head also catches a ledger rewritten from scratch.
                """
        )

        @OptionGroup var global: LedgerOptions

        @Option(help: ArgumentHelp("Fail unless the chain ends at this hash (64 hex digits).", valueName: "hash"))
        var expectHead: String?

        func validate() throws {
            if let expectHead, ChainHash(hex: expectHead) == nil {
                throw ValidationError("--expect-head takes a SHA-256 hash as 64 hex digits")
            }
        }

        /// Every shard of a shard map, and the checkpoint of all their heads.
        private func verifyShards(_ app: Application) throws {
            let progress = ProgressLine(label: "verifying")
            let report = try app.verifyShards(expectedCheckpoint: expectHead) { _, done, total in progress.update(done, of: total) }
            progress.finish()
            if global.json {
                try printJSON(ReportJSON.shardVerification(report))
            } else {
                for shard in report.shards {
                    let name = "shard \(TerminalText.field(shard.name)) (\(TerminalText.field(shard.store)))"
                    if let problem = shard.report.problem {
                        Console.line("\(name): DAMAGED at position \(problem.position): \(problem.rule.rawValue): \(TerminalText.field(problem.detail))")
                    } else if !shard.misplaced.isEmpty {
                        Console.line(
                            "\(name): MISPLACED: \(Counted.of(shard.misplaced.count, "stream")) the map places on another shard, first \(TerminalText.field(shard.misplaced[0]))")
                    } else {
                        Console.line(
                            "\(name): intact: \(Counted.of(Int(shard.report.eventsChecked), "event")), head position \(shard.report.head?.position ?? 0), hash \(shard.report.head?.hash.hex ?? "none")")
                    }
                }
                if let checkpoint = report.checkpoint, report.isIntact {
                    Console.line("all \(report.shards.count) shards intact: \(Counted.of(Int(report.events), "event")); checkpoint \(checkpoint)")
                } else if let expected = report.expectedCheckpoint {
                    Console.line("the shards verify, but their checkpoint is \(report.checkpoint ?? "?"), not the expected \(expected)")
                }
            }
            if !report.isIntact { throw ExitCode(ExitStatus.integrityFailure.rawValue) }
        }

        func run() async throws {
            try await global.withApplication { app in
                if app.storeIsShardMap { return try verifyShards(app) }
                let progress = ProgressLine(label: "verifying")
                let report = try app.verifyLedger(expectedHead: expectHead.flatMap(ChainHash.init(hex:))) { done, total in
                    progress.update(done, of: total)
                }
                progress.finish()
                try global.json ? printJSON(ReportJSON.verification(report)) : render(report)
                if !report.isIntact { throw ExitCode(ExitStatus.integrityFailure.rawValue) }
            }
        }

        private func render(_ report: VerificationReport) {
            if let problem = report.problem {
                Console.line("DAMAGED at position \(problem.position): \(problem.rule.rawValue): \(TerminalText.field(problem.detail))")
                Console.line("(\(report.eventsChecked) events before it are intact)")
            } else if let head = report.head {
                Console.line("intact: \(report.eventsChecked) events, head position \(head.position), hash \(head.hash.hex)")
            } else {
                Console.line("intact: the ledger is empty")
            }
        }
    }
}
