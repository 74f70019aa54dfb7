import EventLog

extension Application {
    /// Where the data lives and how it is sealed. Opens nothing and makes nothing: `reel about`
    /// must answer on a machine that has no ledger yet, or one it cannot read.
    public func about() -> AboutReport {
        let directory = configuration.dataDirectory
        return AboutReport(
            dataDirectory: directory, ledgerDirectory: directory + "/ledger", keysDirectory: directory + "/keys",
            ledgerExists: router.dataDirectoryHoldsLedger, bulkCipher: BulkCipher.name, store: storeName)
    }

    private var storeName: String? { router.storeName }
}
