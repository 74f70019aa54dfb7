import ArgumentParser
import Foundation
import Presentation
import Reel
import ReportJSON
import Stores

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
        subcommands: [Migrate.self, Status.self, Copy.self, Shard.self, Move.self]
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
            abstract: "Print the store's schema version, and each server's role and lag; change nothing.",
            discussion: """
                Every server the URL names is asked on its own: whether it is the primary or a \
                standby, how far a standby's replay is behind, and whether the primary has a \
                synchronous standby attached (without one, an acknowledged append is on one \
                machine only). A server that cannot be reached is named with why.
                """)

        @OptionGroup var global: StoreOptions

        func run() async throws {
            try await global.withApplication { app in
                let (report, servers) = try await app.storeStatus(try global.requiredStore())
                if global.json { return try printJSON(Self.json(report, servers)) }
                let store = TerminalText.field(report.store)
                switch report.to {
                case 0: Console.line("\(store): no Reel schema yet; run 'reel store migrate' (this Reel's version is \(report.latest))")
                case report.latest: Console.line("\(store): schema version \(report.to), up to date")
                case ..<report.latest: Console.line("\(store): schema version \(report.to), behind this Reel's \(report.latest); run 'reel store migrate'")
                default: Console.line("\(store): schema version \(report.to), newer than this Reel knows (\(report.latest)); use a newer reel")
                }
                for line in Self.describe(servers) { Console.line("  " + line) }
            }
        }

        /// `Schemas/cli/store-status.schema.json`: the schema report, then the servers.
        static func json(_ report: StoreSchemaReport, _ servers: [StoreServerStatus]) -> JSONValue {
            let schema = Output(report)
            return [
                "store": .string(schema.store), "from": .integer(Int64(schema.from)), "to": .integer(Int64(schema.to)),
                "latest": .integer(Int64(schema.latest)), "current": .bool(schema.current), "applied": .array([]),
                "servers": .array(servers.map(ReportJSON.server)),
                "synchronousStandbyAttached": .bool(ReportJSON.synchronousStandbyAttached(servers)),
            ]
        }

        /// A line per server, then what the operator should know: no synchronous standby
        /// attached, a primary whose commits wait for none, a standby whose feedback slows writes.
        static func describe(_ servers: [StoreServerStatus]) -> [String] {
            var lines = servers.map(describe)
            if servers.count > 1, !ReportJSON.synchronousStandbyAttached(servers) {
                lines.append("no synchronous standby is attached: an acknowledged append is on one server only until one is")
            }
            if let primary = servers.first(where: { $0.role == "primary" && ["off", "local"].contains($0.synchronousCommit ?? "") }),
                !primary.standbys.isEmpty
            {
                lines.append(
                    "synchronous_commit is \(TerminalText.field(primary.synchronousCommit ?? "")) on the primary: an acknowledged append waits for no standby (set it to on)")
            }
            for standby in servers.filter({ $0.role == "primary" }).flatMap(\.standbys) where standby.feedback {
                lines.append(
                    "standby \(TerminalText.field(standby.name)) sends feedback (hot_standby_feedback on): the primary keeps dead row versions "
                        + "every commit reads past, which slows writes; turn it off on each node (the handbook's PostgreSQL page)")
            }
            return lines
        }

        /// One server in a line: its role, and its lag or its standbys.
        static func describe(_ server: StoreServerStatus) -> String {
            let name = TerminalText.field(server.server)
            switch server.role {
            case "primary":
                let standbys = server.standbys.map { standby in
                    let kind = standby.synchronous ? "synchronous" : standby.syncState
                    return "\(TerminalText.field(standby.name)) \(TerminalText.field(standby.state)), \(TerminalText.field(kind)), "
                        + "\(GroupedDigits.of(Int(standby.lagBytes))) bytes / \(String(format: "%.1f", standby.lagSeconds)) s behind"
                }
                let commit = "synchronous_commit \(TerminalText.field(server.synchronousCommit ?? "?"))"
                return "\(name): primary; \(commit); " + (standbys.isEmpty ? "no standby streaming" : "standby " + standbys.joined(separator: "; standby "))
            case "standby":
                let streaming = server.streaming == true ? "streaming" : "not streaming"
                return "\(name): standby, \(streaming), replay \(GroupedDigits.of(Int(server.lagBytes ?? 0))) bytes / "
                    + "\(String(format: "%.1f", server.lagSeconds ?? 0)) s behind"
            default:
                return "\(name): unreachable (\(TerminalText.field(server.problem ?? "no answer")))"
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

            /// Every member present: `headHash` is null for an empty ledger (the schema requires it).
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(from, forKey: .from)
                try c.encode(to, forKey: .to)
                try c.encode(resumedAt, forKey: .resumedAt)
                try c.encode(copied, forKey: .copied)
                try c.encode(events, forKey: .events)
                try c.encode(headPosition, forKey: .headPosition)
                try c.encode(headHash, forKey: .headHash)
            }

            enum CodingKeys: String, CodingKey { case from, to, resumedAt, copied, events, headPosition, headHash }
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
            guard (stream == nil) != (handle == nil) else {
                throw ValidationError(stream == nil ? "give a stream, or --handle HANDLE" : "give a stream, or --handle HANDLE, not both")
            }
        }

        func run() async throws {
            try await global.withApplication { app in
                if let handle {
                    // (A usage failure, 64: a ValidationError thrown in here would read as a bug.)
                    let account = try AccountHandle(handle)
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

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract: "Move an account to its home shard, or every account not on its home (after shards were added to the map).",
            discussion: """
                --store names the shard map (a .json file, Schemas/postgres-shards.md). After shards are \
                added at the end of the map and 'reel store migrate' has recorded them, about one account \
                in N (of N shards) has a new home shard; commands still find it on its old one. --handle \
                moves one account home: its events are laid on the home shard's chain (keeping when each \
                was first recorded) with its key, both shards are checked to hold the same history, and \
                its key is destroyed on the shard it left. --all moves every such account, then records \
                that the shards are settled (from then on an account is looked for on its home alone). \
                A move cut short is finished by running the command again.
                """)

        @Option(help: ArgumentHelp("The account to move to its home shard.", valueName: "handle"))
        var handle: String?

        @Flag(help: "Move every account not on its home shard, then record the shards settled.")
        var all = false

        @OptionGroup var global: StoreOptions

        /// `--json` (`Schemas/cli/store-move.schema.json`): every member present, null when empty.
        static func json(_ report: ShardSettleReport) -> JSONValue {
            func optional<T>(_ value: T?, _ make: (T) -> JSONValue) -> JSONValue { value.map(make) ?? .null }
            let moves: [JSONValue] = report.moves.map { move in
                .object([
                    "handle": .string(move.handle.value), "stream": optional(move.stream) { .string($0.rawValue) },
                    "from": optional(move.from, JSONValue.string), "to": .string(move.to), "events": .integer(Int64(move.events)),
                    "digest": optional(move.digest, JSONValue.string),
                    "movedOutPosition": optional(move.movedOutPosition) { .integer(Int64($0)) },
                    "movedInPosition": optional(move.movedInPosition) { .integer(Int64($0)) }, "resumed": .bool(move.resumed),
                    "alreadyHome": .bool(move.alreadyHome), "keyPurged": .bool(move.keyPurged),
                    "purgeProblem": optional(move.purgeProblem, JSONValue.string),
                ])
            }
            return .object(["moves": .array(moves), "settled": .array(report.settled.map(JSONValue.string))])
        }

        func validate() throws {
            guard (handle == nil) != !all else {
                throw ValidationError(handle == nil ? "give --handle HANDLE, or --all" : "give --handle HANDLE, or --all, not both")
            }
        }

        func run() async throws {
            try await global.withApplication { app in
                guard app.storeIsShardMap else {
                    throw Failure(.usage, "accounts move between the shards of a shard map: give --store FILE.json (Schemas/postgres-shards.md)")
                }
                let step: (AccountMoveStep) -> Void = { Failpoint.reach("move:\($0)") }
                let report: ShardSettleReport
                if let handle {
                    // (A usage failure, 64: a ValidationError thrown in here would read as a bug.)
                    let account = try AccountHandle(handle)
                    report = ShardSettleReport(moves: [try app.moveAccount(account, step: step)], settled: [])
                } else {
                    report = try app.settleShards(
                        moving: { handle, from, to in
                            if !global.json { Console.error("moving '\(handle)' from shard \(TerminalText.field(from)) to \(TerminalText.field(to))") }
                        }, step: step)
                }
                if global.json { return try printJSON(Self.json(report)) }
                Self.render(report, all: all)
            }
        }

        static func render(_ report: ShardSettleReport, all: Bool) {
            for move in report.moves {
                Console.line(line(move))
                if !move.keyPurged {
                    Terminal.notice("the purge after destroying the key of '\(move.handle)' on \(move.from ?? "?") did not run: \(move.purgeProblem ?? "unknown")")
                }
            }
            guard all else { return }
            if report.moves.isEmpty { Console.line("every account is on its home shard") }
            if !report.settled.isEmpty {
                Console.line("recorded settled: \(report.settled.map(TerminalText.field).joined(separator: ", ")); accounts are looked for on their home shard alone")
            }
        }

        static func line(_ move: AccountMoveReport) -> String {
            let handle = move.handle.value
            guard let from = move.from else { return "'\(handle)' is on its home shard \(TerminalText.field(move.to)) already; nothing to move" }
            let resumed = move.resumed ? " (finishing a move begun before)" : ""
            return "moved '\(handle)' from shard \(TerminalText.field(from)) to \(TerminalText.field(move.to))\(resumed): \(Counted.of(Int(move.events), "event")), digest \(move.digest ?? ""), verified on both; closed at position \(move.movedOutPosition ?? 0) on \(TerminalText.field(from)), arrived at position \(move.movedInPosition ?? 0); its key on \(TerminalText.field(from)) is destroyed"
        }
    }
}
