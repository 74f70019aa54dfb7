import Foundation

/// An offline-checkable proof that an envelope is in the log (C2SP tlog-proof): the envelope's
/// bytes as stored (the `extra` line: what its leaf hash is made of), its index (position − 1),
/// the inclusion proof, and the signed checkpoint it proves against.
public struct InclusionProof: Sendable {
    public let envelope: [UInt8]
    public let index: UInt64
    public let hashes: [TreeHash]
    /// The signed checkpoint, verbatim.
    public let checkpoint: String

    public init(envelope: [UInt8], index: UInt64, hashes: [TreeHash], checkpoint: String) {
        self.envelope = envelope
        self.index = index
        self.hashes = hashes
        self.checkpoint = checkpoint
    }

    /// The first line of every proof.
    public static let header = "c2sp.org/tlog-proof@v1"

    /// The proof as text.
    public var text: String {
        var lines = [Self.header, "extra " + Data(envelope).base64EncodedString(), "index \(index)"]
        lines += hashes.map(\.base64)
        return lines.joined(separator: "\n") + "\n\n" + checkpoint
    }

    /// The proof `text` holds; `nil` with the reason for anything else.
    public static func parse(_ text: String) -> Result<InclusionProof, ProofFormatError> {
        guard let blank = text.range(of: "\n\n") else { return .failure(ProofFormatError("no blank line before the checkpoint")) }
        let lines = text[..<blank.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(header) else { return .failure(ProofFormatError("the first line is not \(header)")) }
        guard lines.count >= 3, lines[1].hasPrefix("extra "), let envelope = Data(base64Encoded: String(lines[1].dropFirst(6))) else {
            return .failure(ProofFormatError("no extra line with the envelope in base64"))
        }
        guard lines[2].hasPrefix("index "), let index = UInt64(lines[2].dropFirst(6)), String(index) == lines[2].dropFirst(6) else {
            return .failure(ProofFormatError("no index line"))
        }
        var hashes: [TreeHash] = []
        for (number, line) in lines.dropFirst(3).enumerated() {
            guard let hash = TreeHash(base64: line) else { return .failure(ProofFormatError("line \(number + 4) is not a hash in base64")) }
            hashes.append(hash)
        }
        return .success(InclusionProof(envelope: Array(envelope), index: index, hashes: hashes, checkpoint: String(text[blank.upperBound...])))
    }
}

/// Why text is not a proof.
public struct ProofFormatError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
