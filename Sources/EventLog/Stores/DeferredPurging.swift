/// A store whose deletions destroy keys in their commit and purge them in a step after it
/// (PostgreSQL: the key table rewritten and the keyring rotated, so no copy of the database opens
/// them), which may fail and is then finished by the next process that opens the store.
@_spi(Stores) public protocol DeferredPurging: LedgerCopying {
    /// Why the last purge did not run (`nil` after one that did).
    var purgeProblem: String? { get }

    /// The deletions whose purge an earlier process left pending and this one's open finished.
    var purgesFinishedAtOpen: [StreamID] { get }

    /// How the store is named in messages (a URL without its password).
    var name: String { get }

    /// Runs `body` with the purge after each key's destruction left pending, then purges once for
    /// all of them; returns what `body` returns and whether the purge ran.
    func deferPurges<T>(_ body: () throws -> T) throws -> (T, purged: Bool)
}
