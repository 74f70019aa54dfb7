import ArgumentParser
import Foundation
import Presentation
import Reel

/// `reel audit check-proof FILE --key KEY`: checks an inclusion proof offline.
struct AuditCheckProof: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-proof",
        abstract: "Check a proof offline: an inclusion proof (`audit prove`) or a consistency proof (`audit consistency`).",
        discussion: """
            Needs no ledger: the checkpoints' signatures under KEY, and the Merkle path from the event to the tree \
            (inclusion) or from the older tree to the newer (consistency). Exit 0 when the proof holds; 65 with what \
            is wrong when it does not; 64 for a key that is not one. FILE may be - for standard input.
            """)

    @OptionGroup var global: TimedLedgerOptions
    @Argument(help: ArgumentHelp("The proof file (- for stdin).", valueName: "file"), completion: .file()) var file: String
    @Option(help: ArgumentHelp("The ledger's public key, as `reel audit key` prints it.", valueName: "key")) var key: String
    @Option(help: ArgumentHelp("A witness's key (`reel audit witness-key`): the checkpoint must carry its cosignature. Repeatable.", valueName: "key"))
    var witness: [String] = []

    func run() async throws {
        try await global.withApplication { _ in
            let text = String(decoding: try InputFile.read(file, limit: 1 << 20, what: "a proof"), as: UTF8.self)
            if Application.isConsistencyProof(text) { return try consistency(text) }
            let check = try Application.checkProof(text, key: key, witnesses: witnesses)
            if global.json {
                try printJSON(
                    [
                        "ok": true, "origin": .string(check.checkpoint.origin), "size": .integer(Int64(check.checkpoint.size)),
                        "position": .integer(Int64(check.position)), "eventId": .string(check.eventID.uuidString.lowercased()),
                        "stream": .string(check.stream.rawValue), "type": .string(check.type), "witnesses": .integer(Int64(witnesses.count)),
                    ] as JSONValue)
            } else {
                Console.line(
                    "proof holds: position \(check.position) (\(TerminalText.field(check.type)), stream \(TerminalText.field(check.stream.rawValue))) is in \(TerminalText.field(check.checkpoint.origin)) of \(check.checkpoint.size) events" + Self.witnessed(witnesses.count))
            }
        }
    }

    /// A consistency proof's check and report.
    private func consistency(_ text: String) throws {
        let (older, newer) = try Application.checkConsistency(text, key: key, witnesses: witnesses)
        if global.json {
            try printJSON(
                ["ok": true, "origin": .string(newer.origin), "oldSize": .integer(Int64(older.size)), "size": .integer(Int64(newer.size))] as JSONValue)
        } else {
            Console.line("proof holds: \(TerminalText.field(newer.origin)) only grew from \(older.size) to \(newer.size) events" + Self.witnessed(witnesses.count))
        }
    }

    /// The witnesses' keys, each once.
    var witnesses: [String] { witness.reduce(into: []) { keys, key in if !keys.contains(key) { keys.append(key) } } }

    /// What the text report adds when witnesses were asked for.
    static func witnessed(_ count: Int) -> String { count == 0 ? "" : ", cosigned by \(count == 1 ? "the witness" : "all \(count) witnesses")" }
}
