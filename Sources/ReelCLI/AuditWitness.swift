import ArgumentParser
import Foundation
import Presentation
import Reel

/// `reel audit witness URL --key KEY`: has a witness cosign the latest checkpoint.
struct AuditWitness: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "witness",
        abstract: "Have a witness cosign the ledger's latest checkpoint (C2SP tlog-witness), and keep its cosignature.",
        discussion: """
            URL is the witness's submission prefix: another Reel's `reel serve --witness FILE` (its address), or \
            any C2SP witness that knows this ledger's key (`reel audit key`). The witness checks that the \
            checkpoint only grew from the last one it cosigned (a consistency proof is sent) and cosigns it; \
            the cosignature, checked under --key, is kept in the data directory and shown by `reel audit \
            checkpoint`, and proofs made while the ledger has not grown carry it. Exit 65 when the witness \
            finds the ledger inconsistent with what it saw before, 69 when it cannot be reached.
            """)

    @OptionGroup var global: LedgerOptions
    @OptionGroup var shards: ShardOption
    @Argument(help: ArgumentHelp("The witness's URL (its submission prefix).", valueName: "url")) var url: String
    @Option(help: ArgumentHelp("The witness's public key, as `reel audit witness-key` prints it on the witness.", valueName: "key")) var key: String

    func run() async throws {
        try await global.withApplication { app in
            let cosignature = try await app.requestCosignature(from: url, witnessKey: key, shard: shards.shard)
            if global.json {
                try printJSON(
                    [
                        "witness": .string(cosignature.witness), "origin": .string(cosignature.origin), "size": .integer(Int64(cosignature.size)),
                        "time": .string(Timestamp.iso(seconds: cosignature.time)),
                    ] as JSONValue)
            } else {
                Console.line(
                    "cosigned by \(TerminalText.field(cosignature.witness)): \(TerminalText.field(cosignature.origin)) at \(cosignature.size) events, \(Timestamp.iso(seconds: cosignature.time))")
            }
        }
    }
}
