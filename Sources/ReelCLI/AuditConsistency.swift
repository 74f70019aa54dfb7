import ArgumentParser
import Foundation
import Reel

/// `reel audit consistency OLD-CHECKPOINT [--out FILE]`: proves the ledger only grew since a checkpoint.
struct AuditConsistency: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consistency",
        abstract: "Prove the ledger only grew since an older checkpoint of it (one `reel audit checkpoint` printed).",
        discussion: """
            Exit 0 when the ledger's first events are the ones the older checkpoint signed: `consistent: N → M events`. \
            Exit 65 when they are not (the ledger was rewritten or rolled back since), or the checkpoint is not \
            signed by this ledger's key. --out writes the proof (both checkpoints and the Merkle consistency \
            path) for anyone to check offline with `reel audit check-proof FILE --key KEY`.
            """)

    @OptionGroup var global: LedgerOptions
    @OptionGroup var shards: ShardOption
    @Argument(help: ArgumentHelp("The older checkpoint's file (- for stdin).", valueName: "old-checkpoint"), completion: .file()) var checkpoint: String
    @Option(help: ArgumentHelp("Write the proof to this file (written whole; a file there is replaced).", valueName: "file"), completion: .file(), transform: PathArgument.parse)
    var out: String?

    func run() async throws {
        try await global.withApplication { app in
            // Refused before any work (from run(), so the path's own exit status: 64, 69).
            if let out { try AtomicFile.check(out) }
            let text = String(decoding: try InputFile.read(checkpoint, limit: 64 << 10, what: "a checkpoint"), as: UTF8.self)
            let (proof, older, newer) = try app.consistency(since: text, shard: shards.shard)
            if let out { try AtomicFile.write(Array(proof.text.utf8), to: out) }
            if global.json {
                try printJSON(
                    [
                        "ok": true, "origin": .string(newer.origin), "oldSize": .integer(Int64(older.size)), "size": .integer(Int64(newer.size)),
                        "file": out.map(JSONValue.string) ?? .null,
                    ] as JSONValue)
            } else {
                Console.line("consistent: \(older.size) → \(newer.size) events" + (out.map { "; the proof is in \($0)" } ?? ""))
            }
        }
    }
}
