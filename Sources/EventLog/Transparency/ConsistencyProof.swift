import Foundation

/// An offline-checkable proof that the log only grew between two of its checkpoints: the
/// RFC 6962 consistency proof from the older tree to the newer, and both signed checkpoints.
/// Reel's own text form (C2SP has none for consistency):
///
///     reel-consistency-proof/1
///     <one base64 hash per line>
///     <blank line>
///     <the older signed checkpoint>
///     <blank line>
///     <the newer signed checkpoint>
public struct ConsistencyProof: Sendable {
    public let hashes: [TreeHash]
    /// The signed checkpoints, verbatim.
    public let older: String
    public let newer: String

    public init(hashes: [TreeHash], older: String, newer: String) {
        self.hashes = hashes
        self.older = older
        self.newer = newer
    }

    /// The first line of every consistency proof.
    public static let header = "reel-consistency-proof/1"

    /// The proof as text.
    public var text: String {
        ([Self.header] + hashes.map(\.base64)).joined(separator: "\n") + "\n\n" + older + "\n" + newer
    }

    /// The proof `text` holds, or why it is not one.
    public static func parse(_ text: String) -> Result<ConsistencyProof, ProofFormatError> {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.popFirst() == Substring(header) else { return .failure(ProofFormatError("the first line is not \(header)")) }
        var hashes: [TreeHash] = []
        while let line = lines.first, !line.isEmpty {
            guard let hash = TreeHash(base64: line) else { return .failure(ProofFormatError("'\(line.prefix(60))' is not a hash in base64")) }
            hashes.append(hash)
            lines.removeFirst()
        }
        guard lines.popFirst() == "" else { return .failure(ProofFormatError("no blank line before the checkpoints")) }
        /// One signed note: body lines, a blank line, signature lines (`— …`).
        func note() -> String? {
            var out: [Substring] = []
            while let line = lines.first, !line.isEmpty {
                out.append(line)
                lines.removeFirst()
            }
            guard !out.isEmpty, lines.popFirst() == "" else { return nil }
            out.append("")
            var signed = false
            while let line = lines.first, line.hasPrefix("\u{2014} ") {
                out.append(line)
                lines.removeFirst()
                signed = true
            }
            return signed ? out.joined(separator: "\n") + "\n" : nil
        }
        guard let older = note() else { return .failure(ProofFormatError("the older checkpoint is not a signed note")) }
        guard lines.popFirst() == "", let newer = note() else { return .failure(ProofFormatError("the newer checkpoint is not a signed note")) }
        guard lines.allSatisfy(\.isEmpty) else { return .failure(ProofFormatError("text after the newer checkpoint")) }
        return .success(ConsistencyProof(hashes: hashes, older: older, newer: newer))
    }
}
