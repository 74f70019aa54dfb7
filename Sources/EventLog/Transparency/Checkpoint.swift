/// A checkpoint of the tree (C2SP tlog-checkpoint): the log's origin, how many leaves, the tree's
/// hash, as the body of a signed note (`NoteKey.sign`).
public struct Checkpoint: Sendable, Equatable {
    /// The log's name: `reel.ledger/` and 32 hex digits of its first leaf's hash.
    public let origin: String
    public let size: UInt64
    public let root: TreeHash

    public init(origin: String, size: UInt64, root: TreeHash) {
        self.origin = origin
        self.size = size
        self.root = root
    }

    /// The note's body: three lines, each ending in a newline.
    public var body: String { "\(origin)\n\(size)\n\(root.base64)\n" }

    /// The checkpoint a note's body (`NoteVerifier.open`) holds; extension lines after the hash
    /// are allowed and ignored. `nil` for anything else.
    public init?(body: String) {
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        // Sizes as Go's tlog reads them: an int64.
        guard lines.count >= 4, lines.last == "", !lines[0].isEmpty, let size = UInt64(lines[1]), String(size) == lines[1], size <= UInt64(Int64.max),
            let root = TreeHash(base64: lines[2])
        else { return nil }
        self.init(origin: String(lines[0]), size: size, root: root)
    }

    /// The origin of a log whose first leaf hashes to `first`.
    public static func origin(firstLeaf first: TreeHash) -> String {
        "reel.ledger/" + NoteVerifier.hex(Array(first.bytes.prefix(16)))
    }
}
