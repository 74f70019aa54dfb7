import ArgumentParser
import Files
import Foundation
import JSONKit
import Ledger
import Failures
import Reel

/// `reel account verify-export FILE`: checks a Reel export without changing anything.
struct AccountVerifyExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-export",
        abstract: "Check an export: envelopes, hashes, payload digests, and that its history replays to its saved list and settings.",
        discussion: "Exit 0 when the file verifies; 65 with the first problem (and where) otherwise. Schemas/export.md gives the procedure; Tools/verify_export.py is an independent implementation.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The export file.", valueName: "file"), transform: PathArgument.parse) var file: String

    func run() async throws {
        try await global.withApplication { app in
            let bytes = try InputFile.read(file, limit: InputLimit.export, what: "a Reel export")
            let document: ExportDocument
            do {
                document = try app.verifyExport(bytes, file: file)
            } catch let failure as Failure {
                if global.json {
                    try printJSON([
                        "file": .string(file), "ok": false, "problem": .string(failure.summary), "handle": .null, "stream": .null,
                        "events": .null, "saved": .null, "firstPosition": .null, "lastPosition": .null, "headPosition": .null,
                        "headHash": .null, "exportedAt": .null,
                    ] as JSONValue)
                }
                throw failure
            }
            let first = document.events.first?.position ?? 0, last = document.events.last?.position ?? 0
            if global.json {
                try printJSON([
                    "file": .string(file), "ok": true, "problem": .null, "handle": .string(document.handle.value),
                    "stream": .string(document.sourceStream), "events": .integer(Int64(document.events.count)),
                    "saved": .integer(Int64(document.state.saved.count)), "firstPosition": .integer(Int64(first)),
                    "lastPosition": .integer(Int64(last)), "headPosition": .integer(Int64(document.headPosition)),
                    "headHash": .string(document.headHash), "exportedAt": .string(UTCTime.iso(document.exportedAt)),
                ] as JSONValue)
                return
            }
            Console.line("\(file): verified: account '\(document.handle)', \(document.events.count) events (positions \(first)–\(last)), \(document.state.saved.count) saved")
            Console.line(Terminal.dim("  exported \(Timestamp.short(document.exportedAt)) UTC at head position \(document.headPosition), hash \(document.headHash)"))
        }
    }
}
