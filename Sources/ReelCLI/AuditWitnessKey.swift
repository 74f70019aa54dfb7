import ArgumentParser
import Foundation
import Reel

/// `reel audit witness-key`: the public key this Reel cosigns other logs' checkpoints with.
struct AuditWitnessKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "witness-key",
        abstract: "Print the key this Reel cosigns other ledgers' checkpoints with as a witness (C2SP tlog-cosignature).",
        discussion: """
            Made on first use beside the keyrings (REEL_KEYRING), named reel.witness/<random hex>. Give it to \
            the logs this Reel witnesses (`reel serve --witness FILE`): they check its cosignatures with it \
            (`reel audit witness URL --key KEY`).
            """)

    @OptionGroup var global: LedgerOptions

    func run() async throws {
        try await global.withApplication { app in
            let key = try app.witnessKey()
            try global.json ? printJSON(["key": .string(key)] as JSONValue) : Console.line(key)
        }
    }
}
