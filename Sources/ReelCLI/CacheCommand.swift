import ArgumentParser
import Foundation
import Presentation
import Reel

/// `reel cache stats|clear`: the TMDb response cache in `<data-dir>/cache` and the image cache in
/// `<data-dir>/images`.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect or clear the TMDb response cache and the image cache.",
        subcommands: [Stats.self, Clear.self],
        defaultSubcommand: Stats.self
    )

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "How many answers are cached, how fresh, how big.")

        @OptionGroup var global: TimedLedgerOptions

        func run() async throws {
            try await global.withApplication { app in
                let stats = try app.cacheStatistics()
                let images: ImageCacheStatistics
                do {
                    images = try app.imageCacheStatistics()
                } catch {
                    // The answers' figures still, then what is wrong with the images (65).
                    if !global.json { render(stats) }
                    throw error
                }
                if global.json {
                    var document = json(stats).objectValue ?? [:]
                    document["images"] = Self.json(images)
                    try printJSON(JSONValue.object(document))
                } else {
                    render(stats)
                    Self.render(images)
                }
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

        static func json(_ images: ImageCacheStatistics) -> JSONValue {
            [
                "path": .string(images.path), "images": .integer(Int64(images.images)), "bytes": .integer(Int64(images.bytes)),
                "capBytes": .integer(Int64(images.capBytes)), "fileBytes": .integer(Int64(images.fileBytes)),
                "expired": .integer(Int64(images.expired)),
                "oldest": .init(images.oldestStoredAt.map { .string(UTCTime.iso($0)) }),
                "newest": .init(images.newestStoredAt.map { .string(UTCTime.iso($0)) }),
                "lastUsed": .init(images.lastUsedAt.map { .string(UTCTime.iso($0)) }),
            ]
        }

        static func render(_ images: ImageCacheStatistics) {
            Console.line("")
            Console.line("images: \(images.path)")
            guard images.images > 0 else {
                Console.line("empty (cap \(size(images.capBytes)), REEL_IMAGE_CACHE_MB)")
                return
            }
            Console.line("\(Counted.of(images.images, "image")), \(size(images.bytes)) of a \(size(images.capBytes)) cap, \(size(images.fileBytes)) on disk")
            if let oldest = images.oldestStoredAt, let newest = images.newestStoredAt {
                Console.line("fetched between \(Timestamp.labelled(oldest)) and \(Timestamp.labelled(newest)); kept at most 6 months")
            }
            if images.expired > 0 { Console.line("\(Counted.of(images.expired, "image")) older than 6 months, removed by the next fetch") }
        }

        static func size(_ bytes: Int) -> String {
            if bytes < 1024 { return "\(bytes) B" }
            if bytes < 1 << 20 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
            return String(format: "%.1f MiB", Double(bytes) / 1_048_576)
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Forget every cached answer, or with --images every cached image (the ledger is not touched).")

        @OptionGroup var global: LedgerOptions
        @Flag(help: "Clear the image cache instead of the answers.") var images = false
        @Flag(help: "Clear both the answers and the images.") var all = false

        func validate() throws {
            if images && all { throw ValidationError("--images and --all: give one (--all clears the images too)") }
        }

        func run() async throws {
            try await global.withApplication { app in
                var document: [String: JSONValue] = [:]
                if !images { document = try clearAnswers(app) }
                if images || all {
                    let count = try app.clearImageCache()
                    document["images"] = ["path": .string(app.configuration.imageCacheDirectory), "cleared": .integer(Int64(count))]
                    Console.changed("the image cache was cleared")
                    if !global.json { Console.line("cleared \(Counted.of(count, "cached image")) from \(app.configuration.imageCacheDirectory)") }
                }
                if global.json { try printJSON(JSONValue.object(document)) }
            }
        }

        private func clearAnswers(_ app: Application) throws -> [String: JSONValue] {
            let directory = app.configuration.cacheDirectory
            let cleared = try app.clearCache()
            Console.changed("the cache was cleared")
            var document: [String: JSONValue] = ["path": .string(directory), "cleared": .integer(Int64(cleared.answers))]
            if let damage = cleared.damage { document["damaged"] = .string(damage) }
            if global.json { return document }
            if let damage = cleared.damage {
                Console.line("the cache in \(directory) was damaged (\(TerminalText.field(damage))): removed it and made an empty one")
            } else {
                Console.line("cleared \(cleared.answers) cached answers from \(directory)")
            }
            return document
        }
    }
}
