import EventLog
import PostgresStore

extension Application {
    /// Where the data lives and how it is sealed. Opens nothing and makes nothing: `reel about`
    /// must answer on a machine that has no ledger yet, or one it cannot read.
    public func about() -> AboutReport {
        let directory = configuration.dataDirectory
        return AboutReport(
            dataDirectory: directory, ledgerDirectory: directory + "/ledger", keysDirectory: directory + "/keys",
            ledgerExists: AccountService.ledgerExists(at: directory), bulkCipher: EventLog.bulkCipher, store: storeName)
    }

    /// The configured PostgreSQL store as it may be shown: its URL without the password, a shard
    /// map's path, or a note that the URL does not parse (never the text itself, which may hold one).
    private var storeName: String? {
        guard let url = configuration.storeURL else { return nil }
        if ShardMap.isShardMap(url) { return url }
        return (try? storeLocation(url))?.description ?? "(a store URL that does not parse)"
    }
}
