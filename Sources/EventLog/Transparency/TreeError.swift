/// What goes wrong with the stored tree.
public enum TreeError: Error, Equatable, Sendable {
    /// A read of stored hashes gave another number of them than asked for.
    case missingHashes(wanted: Int, found: Int)
    /// The stored tree is not the tree of the stored envelopes: the hash at a stored index is not
    /// the one the envelopes make (`expected`), or is missing.
    case mismatch(storedIndex: UInt64, reason: String)
}
