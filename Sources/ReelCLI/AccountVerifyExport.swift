import ArgumentParser
import Foundation
import Presentation
import Reel

/// `reel account verify-export FILE`: checks a Reel export without changing anything.
struct AccountVerifyExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-export",
        abstract: "Check an export: envelopes, hashes, payload digests, and that its history replays to its saved list and settings.",
        discussion: "Exit 0 when the file verifies; 65 with the first problem (and where) otherwise. Schemas/export.md gives the procedure; Tools/verify_export.py is an independent implementation.")

    @OptionGroup var global: TimedLedgerOptions
    @Argument(help: ArgumentHelp("The export file.", valueName: "file"), completion: .file(), transform: PathArgument.parse) var file: String
    @Option(
        help: ArgumentHelp(
            "The operator's checkpoint key (`reel audit key`): the export's proofs must be signed by it.", valueName: "key"))
    var key: String?

    func run() async throws {
        try await global.withApplication { app in
            let bytes = try InputFile.read(file, limit: InputLimit.export, what: "a Reel export")
            let document: ExportDocument
            do {
                document = try app.verifyExport(bytes, file: file, key: key)
            } catch let failure as Failure {
                if global.json { try printJSON(json(problem: failure)) }
                throw failure
            }
            try global.json ? printJSON(json(document)) : render(document)
        }
    }

    /// The same keys as a verified file's document, `null` where nothing could be read, so a
    /// script sees one shape either way.
    private func json(problem failure: Failure) -> JSONValue {
        [
            "file": .string(file), "ok": false, "problem": .string(failure.summary), "handle": .null, "stream": .null,
            "events": .null, "saved": .null, "firstPosition": .null, "lastPosition": .null, "headPosition": .null,
            "headHash": .null, "exportedAt": .null, "provedIn": .null,
        ]
    }

    private func json(_ document: ExportDocument) -> JSONValue {
        let (first, last) = Self.positions(document)
        return [
            "file": .string(file), "ok": true, "problem": .null, "handle": .string(document.handle.value),
            "stream": .string(document.sourceStream), "events": .integer(Int64(document.events.count)),
            "saved": .integer(Int64(document.state.saved.count)), "firstPosition": .integer(Int64(first)),
            "lastPosition": .integer(Int64(last)), "headPosition": .integer(Int64(document.headPosition)),
            "headHash": .string(document.headHash), "exportedAt": .string(UTCTime.iso(document.exportedAt)),
            "provedIn": document.provedIn.map { ["origin": .string($0.checkpoint.origin), "size": .integer(Int64($0.checkpoint.size)), "key": .string($0.key)] } ?? .null,
        ]
    }

    private func render(_ document: ExportDocument) {
        let (first, last) = Self.positions(document)
        Console.line("\(file): verified: account '\(document.handle)', \(document.events.count) events (positions \(first)–\(last)), \(document.state.saved.count) saved")
        Console.line(Terminal.dim("  exported \(Timestamp.labelled(document.exportedAt)) at head position \(document.headPosition), hash \(document.headHash)"))
        if let (checkpoint, key) = document.provedIn {
            Console.line("  every event proved in \(TerminalText.field(checkpoint.origin)) of \(checkpoint.size) events, signed by \(TerminalText.field(key))")
        } else {
            Console.line(Terminal.dim("  no proofs in the ledger's tree (an export made before them)"))
        }
    }

    /// The log positions of the first and last exported events (0 for an export without events).
    private static func positions(_ document: ExportDocument) -> (first: UInt64, last: UInt64) {
        (document.events.first?.position ?? 0, document.events.last?.position ?? 0)
    }
}
