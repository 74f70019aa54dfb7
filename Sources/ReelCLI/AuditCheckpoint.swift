import ArgumentParser
import Foundation
import Presentation
import Reel

/// `reel audit checkpoint`: the latest signed checkpoint of the ledger's tree.
struct AuditCheckpoint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkpoint",
        abstract: "Print the latest checkpoint of the ledger's Merkle tree, signed with the ledger's key.",
        discussion: """
            A C2SP signed note (tlog-checkpoint): the log's origin, its number of events and its tree's hash, \
            then the signature. Keep it: `reel audit check-proof` and any C2SP tlog client check proofs \
            against it, with the key `reel audit key` prints. The signing key is made on first use and kept \
            beside the keyrings (REEL_KEYRING), never in the ledger or an export. Cosignatures kept from \
            witnesses for this very checkpoint (`reel audit witness`) follow the ledger's signature.
            """)

    @OptionGroup var global: LedgerOptions
    @OptionGroup var shards: ShardOption

    func run() async throws {
        try await global.withApplication { app in
            let (note, checkpoint, held) = try app.checkpointWithCosignatures(shard: shards.shard)
            if global.json {
                let cosignatures = held.map { held -> JSONValue in
                    ["witness": .string(held.witness), "size": .integer(Int64(held.size)), "time": .string(Timestamp.iso(seconds: held.time)), "current": .bool(held.current)]
                }
                try printJSON(
                    [
                        "origin": .string(checkpoint.origin), "size": .integer(Int64(checkpoint.size)), "root": .string(checkpoint.root.base64), "note": .string(note),
                        "cosignatures": .array(cosignatures),
                    ] as JSONValue)
            } else {
                Console.text(note)
                for older in held where !older.current {
                    Terminal.notice("\(TerminalText.field(older.witness)) last cosigned this log at \(older.size) events (`reel audit witness` has it cosign this checkpoint)")
                }
            }
        }
    }
}
