import ArgumentParser
import Foundation
import Reel

/// `reel about`: what Reel is, where its data lives, and TMDb's attribution.
struct About: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "about", abstract: "What Reel is, where your data lives, and credits.")

    @OptionGroup var global: AccountOptions

    func run() async throws {
        try await global.withApplication { app in
            let report = app.about()
            let handle = try global.handle()
            try global.json ? printJSON(json(report, handle)) : render(report, handle)
        }
    }

    private func json(_ report: AboutReport, _ handle: AccountHandle) -> JSONValue {
        [
            "name": "reel", "version": .string(ReelCommand.configuration.version),
            "description": .string(ReelCommand.configuration.abstract), "dataDirectory": .string(report.dataDirectory),
            "ledger": .string(report.ledgerDirectory), "keys": .string(report.keysDirectory), "ledgerExists": .bool(report.ledgerExists),
            "user": .string(handle.value), "attribution": .string(AboutReport.attribution),
            "tmdb": "https://www.themoviedb.org", "omdb": "https://www.omdbapi.com", "omdbLicense": .string(AboutReport.omdbLicense),
            "bulkCipher": .string(report.bulkCipher), "store": report.store.map(JSONValue.string) ?? .null,
        ]
    }

    private func render(_ report: AboutReport, _ handle: AccountHandle) {
        let name = "Reel \(ReelCommand.configuration.version)"
        let heading = Terminal.fit(name + " — " + ReelCommand.configuration.abstract)
        Console.line(heading.hasPrefix(name) ? Terminal.bold(name) + heading.dropFirst(name.count) : heading)
        Console.line("")
        Console.line(Terminal.fit("""
            Every change you make (a favorite added or removed, your name, photo or language) is an \
            event appended to a tamper-evident log; your saved list and settings are computed from it. \
            Each account's events are sealed under the account's own key.
            """))
        Console.line("")
        var table = TextTable(["WHAT", "WHERE"])
        if let store = report.store {
            table.add(["ledger (events, projections, photos, keys)", "PostgreSQL " + store])
            table.add(["data directory (caches)", report.dataDirectory])
        } else {
            table.add(["data directory", report.dataDirectory + (report.ledgerExists ? "" : " (no ledger yet)")])
            table.add(["ledger (events, projections, photos)", report.ledgerDirectory])
            table.add(["account keys", report.keysDirectory])
        }
        table.add(["account", handle.value])
        table.add(["bulk sealing (AES-256-GCM)", report.usesLibcrypto ? "OpenSSL libcrypto" : "swift-crypto (libcrypto not in use)"])
        // Paths wrap (broken after a slash), so they are there whole to read, however narrow.
        Console.line(table.render(width: Terminal.width, flexible: [.init(1, minimum: 20), .init(0, minimum: 12)], wrapping: 1))
        Console.line("")
        Console.line(Terminal.fit(AboutReport.dataSource))
        Console.line(Terminal.fit(AboutReport.attribution))
        Console.line(Terminal.fit(AboutReport.omdbLicense))
    }
}
