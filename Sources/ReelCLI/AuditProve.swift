import ArgumentParser
import Foundation
import Reel

/// `reel audit prove POSITION|EVENT-ID [--out FILE]`: an inclusion proof against the latest checkpoint.
struct AuditProve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prove",
        abstract: "Write the proof that one event is in the ledger (C2SP tlog-proof), against the latest checkpoint.",
        discussion: """
            The proof carries the event's envelope as stored (ciphertext: no personal data in clear), its \
            index, the Merkle path and the signed checkpoint. Anyone holding the ledger's key checks it \
            offline: `reel audit check-proof FILE --key KEY`. Without --out the proof goes to stdout.
            """)

    @OptionGroup var global: LedgerOptions
    @OptionGroup var shards: ShardOption
    @Argument(help: ArgumentHelp("The event: its log position, or its event id (a UUID).", valueName: "position|event-id")) var event: String
    @Option(help: ArgumentHelp("Write the proof to this file instead of stdout (written whole; a file there is replaced).", valueName: "file"), completion: .file(), transform: PathArgument.parse)
    var out: String?

    func validate() throws {
        guard UInt64(event) != nil || UUID(uuidString: event) != nil else {
            throw ValidationError("'\(event)' is neither a log position nor an event id (a UUID)")
        }
    }

    func run() async throws {
        try await global.withApplication { app in
            // Refused before any work (from run(), so the path's own exit status: 64, 69).
            if let out { try AtomicFile.check(out) }
            let proof = try UInt64(event).map { try app.inclusionProof(position: $0, shard: shards.shard) } ?? app.inclusionProof(eventID: UUID(uuidString: event)!, shard: shards.shard)
            if let out {
                try AtomicFile.write(Array(proof.text.utf8), to: out)
                if global.json {
                    try printJSON(["file": .string(out), "index": .integer(Int64(proof.index)), "position": .integer(Int64(proof.index + 1))] as JSONValue)
                } else {
                    Console.line("wrote the proof of position \(proof.index + 1) to \(out)")
                }
            } else {
                Console.text(proof.text)
            }
        }
    }
}
