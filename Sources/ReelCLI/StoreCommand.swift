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
        subcommands: [Migrate.self, Status.self]
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
}
