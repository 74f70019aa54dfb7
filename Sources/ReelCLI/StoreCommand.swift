import ArgumentParser
import Foundation
import Reel

/// `reel store migrate|status`: the schema of a PostgreSQL store (`Schemas/postgres-layout.md`).
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Create, upgrade and inspect the schema of a PostgreSQL store.",
        discussion: """
            The store is named by --store or REEL_STORE: postgres://USER:PASSWORD@HOST:PORT/DATABASE \
            (?sslmode=disable|prefer|require|verify-full; ?host=/socket/directory for a Unix socket). \
            A URL without a password takes PGPASSWORD, which keeps it off the command line. The URL's \
            password is never printed. The LMDB store in the data directory needs no migration.
            """,
        subcommands: [Migrate.self, Status.self, Copy.self, Shard.self]
    )

    /// A report as `--json` shows it (`Schemas/cli/store-migrate.schema.json`, `store-status`).
    struct Output: Encodable {
        let store: String
        let from: Int
        let to: Int
        let latest: Int
        let current: Bool
        let applied: [Step]
        struct Step: Encodable {
            let version: Int
            let name: String
        }

        init(_ report: StoreSchemaReport) {
            store = report.store
            from = report.from
            to = report.to
            latest = report.latest
            current = report.isCurrent
            applied = report.applied.map { Step(version: $0.version, name: $0.name) }
        }
    }

    /// `reel store migrate --json` for a shard map (`Schemas/cli/store-migrate-shards.schema.json`).
    struct ShardsOutput: Encodable {
        let shards: [Shard]
        struct Shard: Encodable {
            let shard: String
            let report: Output
            /// Whether this run recorded the shard's place in the map (`Schemas/postgres-shards.md`).
            let recorded: Bool
            enum CodingKeys: String, CodingKey { case shard, report, recorded }
        }
    }

    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Create or upgrade the store's schema to this Reel's version (idempotent).",
            discussion: """
                Runs every step the database has not had, in one transaction: all of them or none. \
                Running it again changes nothing. Two at once take turns. A database whose schema is \
                newer than this Reel knows is refused (exit 69) and left as it is.
                """)

        @OptionGroup var global: StoreOptions

        func run() async throws {
            try await global.withApplication { app in
                if app.storeIsShardMap {
                    let reports = try await app.migrateShards()
                    if global.json {
                        return try printJSON(ShardsOutput(shards: reports.map { .init(shard: $0.shard, report: Output($0.report), recorded: $0.recorded) }))
                    }
                    for (index, (shard, report, recorded)) in reports.enumerated() {
                        let store = TerminalText.field(report.store)
                        let schema = report.applied.isEmpty ? "schema version \(report.to), up to date" : "schema version \(report.from) → \(report.to)"
                        let place = recorded ? "; recorded as shard \(index + 1) of \(reports.count)" : report.applied.isEmpty ? "; nothing to do" : ""
                        Console.line("shard \(shard) (\(store)): \(schema)\(place)")
                    }
                    return
                }
                let report = try await app.migrateStore(try global.requiredStore())
                if global.json { return try printJSON(Output(report)) }
                let store = TerminalText.field(report.store)
                guard !report.applied.isEmpty else {
                    return Console.line("\(store): schema version \(report.to), up to date; nothing to do")
                }
                Console.line("\(store): schema version \(report.from) → \(report.to)")
                for step in report.applied { Console.line("  applied \(step.version): \(step.name)") }
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Print the store's schema version beside the one this Reel knows; change nothing.")

        @OptionGroup var global: StoreOptions

        func run() async throws {
            try await global.withApplication { app in
                let report = try await app.storeStatus(try global.requiredStore())
                if global.json { return try printJSON(Output(report)) }
                let store = TerminalText.field(report.store)
                switch report.to {
                case 0: Console.line("\(store): no Reel schema yet; run 'reel store migrate' (this Reel's version is \(report.latest))")
                case report.latest: Console.line("\(store): schema version \(report.to), up to date")
                case ..<report.latest: Console.line("\(store): schema version \(report.to), behind this Reel's \(report.latest); run 'reel store migrate'")
                default: Console.line("\(store): schema version \(report.to), newer than this Reel knows (\(report.latest)); use a newer reel")
                }
            }
        }
    }

    struct Copy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy a whole ledger between stores: a data directory's LMDB store and a PostgreSQL store, either way.",
            discussion: """
                FROM and TO are each a data directory or a postgres:// URL (migrated first: 'reel store migrate'). \
                The source is verified, its envelopes go over as they are (positions, hashes and seals unchanged) with \
                their streams' keys, and the copy is verified to the source's head hash. An interrupted copy is \
                continued by running it again; a target holding another ledger is refused, nothing changed.
                """)

        @Option(name: .long, help: ArgumentHelp("The ledger to copy: a data directory or a postgres:// URL.", valueName: "dir|url"))
        var from: String

        @Option(name: .long, help: ArgumentHelp("Where to copy it: an empty (or partly copied) data directory or PostgreSQL store.", valueName: "dir|url"))
        var to: String

        @Option(name: .long, help: ArgumentHelp("Events per transaction.", visibility: .hidden))
        var batch = 5_000

        @OptionGroup var global: StoreOptions

        /// `--json` (`Schemas/cli/store-copy.schema.json`).
        struct Output: Encodable {
            let from: String
            let to: String
            let resumedAt: UInt64
            let copied: UInt64
            let events: UInt64
            let headPosition: UInt64
            let headHash: String?
        }

        func validate() throws {
            guard batch > 0 else { throw ValidationError("--batch must be at least 1") }
        }

        func run() async throws {
            try await global.withApplication { app in
                let progress = ProgressLine(label: "copying")
                let report = try app.copyLedger(from: from, to: to, batch: batch) { done, total in
                    progress.update(done, of: total)
                    Failpoint.reach("copy:\(done)")
                }
                progress.finish()
                if global.json {
                    return try printJSON(
                        Output(
                            from: report.from, to: report.to, resumedAt: report.resumedAt, copied: report.copied, events: report.events,
                            headPosition: report.headPosition, headHash: report.headHash?.hex))
                }
                let from = TerminalText.field(report.from), to = TerminalText.field(report.to)
                if report.resumedAt > 0 {
                    Console.line("resumed a copy from \(from) to \(to) that held \(Counted.of(Int(report.resumedAt), "event")) already")
                }
                Console.line("copied \(Counted.of(Int(report.copied), "event")) from \(from) to \(to)")
                Console.line("both verify: \(Counted.of(Int(report.events), "event")), head position \(report.headPosition), hash \(report.headHash?.hex ?? "none")")
            }
        }
    }

    struct Shard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "shard",
            abstract: "Print the shard a shard map places a stream on, or a handle's home shard (where its account is).",
            discussion: """
                --store names the shard map (a .json file, Schemas/postgres-shards.md). A stream is an \
                account's, as 'reel accounts' shows it; a handle's home shard is where its account is \
                looked for and a new one is made.
                """)

        @Argument(help: ArgumentHelp("The stream id, e.g. account-01a2….", valueName: "stream"))
        var stream: String?

        @Option(help: ArgumentHelp("An account handle: print its home shard instead.", valueName: "handle"))
        var handle: String?

        @OptionGroup var global: StoreOptions

        func validate() throws {
            guard (stream == nil) != (handle == nil) else { throw ValidationError("give a stream, or --handle HANDLE, not both") }
        }

        func run() async throws {
            try await global.withApplication { app in
                if let handle {
                    let account: AccountHandle
                    do { account = try AccountHandle(handle) } catch { throw ValidationError(refusing: error) }
                    let shard = try app.homeShard(of: account)
                    if global.json { return try printJSON(["handle": account.value, "shard": shard.name, "store": shard.store]) }
                    return Console.line("\(TerminalText.field(shard.name)) \(TerminalText.field(shard.store))")
                }
                let stream = stream ?? ""
                let shard = try app.shard(of: stream)
                if global.json { return try printJSON(["stream": stream, "shard": shard.name, "store": shard.store]) }
                Console.line("\(TerminalText.field(shard.name)) \(TerminalText.field(shard.store))")
            }
        }
    }
}
