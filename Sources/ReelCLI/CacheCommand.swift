import ArgumentParser
import Foundation
import Reel

/// `reel cache stats|clear`: the TMDb response cache in `<data-dir>/cache`.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect or clear the TMDb response cache.",
        subcommands: [Stats.self, Clear.self],
        defaultSubcommand: Stats.self
    )

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "How many answers are cached, how fresh, how big.")

        @OptionGroup var global: TimedLedgerOptions

        func run() async throws {
            try await global.withApplication { app in
                let stats = try app.cacheStatistics()
                try global.json ? printJSON(json(stats)) : render(stats)
            }
        }

        private func json(_ stats: CacheStatistics) -> JSONValue {
            let groups = stats.byEndpoint.mapValues { g -> JSONValue in
                ["entries": .integer(Int64(g.entries)), "fresh": .integer(Int64(g.fresh)), "bytes": .integer(Int64(g.bytes))]
            }
            return [
                "path": .string(stats.path), "entries": .integer(Int64(stats.entries)),
                "fresh": .integer(Int64(stats.fresh)), "stale": .integer(Int64(stats.stale)),
                "bytes": .integer(Int64(stats.bytes)), "fileBytes": .integer(Int64(stats.fileBytes)),
                "oldest": .init(stats.oldestStoredAt.map { .string(UTCTime.iso($0)) }),
                "newest": .init(stats.newestStoredAt.map { .string(UTCTime.iso($0)) }),
                "byEndpoint": .object(groups),
            ]
        }

        private func render(_ stats: CacheStatistics) {
            Console.line("cache: \(stats.path)")
            if stats.entries == 0 {
                Console.line("empty")
                return
            }
            Console.line("\(stats.entries) answers (\(stats.fresh) fresh, \(stats.stale) stale), \(Self.size(stats.bytes)) of bodies, \(Self.size(stats.fileBytes)) on disk")
            if let oldest = stats.oldestStoredAt, let newest = stats.newestStoredAt {
                Console.line("stored between \(Timestamp.labelled(oldest)) and \(Timestamp.labelled(newest))")
            }
            var table = TextTable(["ENDPOINT", "ENTRIES", "FRESH", "SIZE"])
            for (name, group) in stats.byEndpoint.sorted(by: { $0.key < $1.key }) {
                table.add([name, String(group.entries), String(group.fresh), Self.size(group.bytes)])
            }
            Console.line(table.render())
        }

        static func size(_ bytes: Int) -> String {
            if bytes < 1024 { return "\(bytes) B" }
            if bytes < 1 << 20 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
            return String(format: "%.1f MiB", Double(bytes) / 1_048_576)
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Forget every cached answer (the ledger is not touched).")

        @OptionGroup var global: LedgerOptions

        func run() async throws {
            try await global.withApplication { app in
                let directory = app.configuration.cacheDirectory
                let cleared = try app.clearCache()
                Console.changed("the cache was cleared")
                if global.json {
                    var document: [String: JSONValue] = ["path": .string(directory), "cleared": .integer(Int64(cleared.answers))]
                    if let damage = cleared.damage { document["damaged"] = .string(damage) }
                    try printJSON(JSONValue.object(document))
                } else if let damage = cleared.damage {
                    Console.line("the cache in \(directory) was damaged (\(TerminalText.field(damage))): removed it and made an empty one")
                } else {
                    Console.line("cleared \(cleared.answers) cached answers from \(directory)")
                }
            }
        }
    }
}
