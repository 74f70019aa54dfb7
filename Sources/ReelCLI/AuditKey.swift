import ArgumentParser
import Foundation
import Reel

/// `reel audit key`: the public key the ledger's checkpoints verify under.
struct AuditKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print the public key the ledger's checkpoints are signed with (name+hash+base64).",
        discussion: "Give it to whoever checks proofs: `reel audit check-proof FILE --key KEY`, or any C2SP signed-note verifier.")

    @OptionGroup var global: LedgerOptions
    @OptionGroup var shards: ShardOption

    func run() async throws {
        try await global.withApplication { app in
            let key = try app.checkpointKey(shard: shards.shard)
            try global.json ? printJSON(["key": .string(key)] as JSONValue) : Console.line(key)
        }
    }
}
