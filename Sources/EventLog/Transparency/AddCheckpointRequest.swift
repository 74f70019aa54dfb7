import Foundation

/// What a log sends a witness to have a checkpoint cosigned (C2SP tlog-witness, `add-checkpoint`):
///
///     old <the size the witness last cosigned, 0 for none>
///     <the consistency proof from that size, one base64 hash per line, at most 63>
///     <blank line>
///     <the signed checkpoint>
public struct AddCheckpointRequest: Sendable {
    public let oldSize: UInt64
    public let proof: [TreeHash]
    /// The signed checkpoint, verbatim (the log's signature, maybe others).
    public let checkpoint: String

    public init(oldSize: UInt64, proof: [TreeHash], checkpoint: String) {
        self.oldSize = oldSize
        self.proof = proof
        self.checkpoint = checkpoint
    }

    /// The request as sent.
    public var text: String {
        "old \(oldSize)\n" + proof.map { $0.base64 + "\n" }.joined() + "\n" + checkpoint
    }

    /// The request `text` holds, or why it is not one.
    public static func parse(_ text: String) -> Result<AddCheckpointRequest, ProofFormatError> {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard let first = lines.popFirst(), first.hasPrefix("old "), let size = Self.decimal(first.dropFirst(4)) else {
            return .failure(ProofFormatError("the first line is not 'old <size>'"))
        }
        var proof: [TreeHash] = []
        while let line = lines.first, !line.isEmpty {
            guard let hash = TreeHash(base64: line) else { return .failure(ProofFormatError("'\(line.prefix(60))' is not a hash in base64")) }
            guard proof.count < 63 else { return .failure(ProofFormatError("more than 63 consistency proof lines")) }
            proof.append(hash)
            lines.removeFirst()
        }
        guard lines.popFirst() == "" else { return .failure(ProofFormatError("no blank line before the checkpoint")) }
        let checkpoint = lines.joined(separator: "\n")
        guard checkpoint.hasSuffix("\n"), NoteVerifier.split(checkpoint) != nil else {
            return .failure(ProofFormatError("the checkpoint is not a signed note"))
        }
        return .success(AddCheckpointRequest(oldSize: size, proof: proof, checkpoint: checkpoint))
    }

    /// An ASCII decimal without leading zeroes (`0` alone), at most 2⁶³ − 1.
    static func decimal(_ text: Substring) -> UInt64? {
        guard !text.isEmpty, text.count <= 19, text.allSatisfy({ $0 >= "0" && $0 <= "9" }), text == "0" || text.first != "0",
            let value = UInt64(text), value <= UInt64(Int64.max)
        else { return nil }
        return value
    }
}
