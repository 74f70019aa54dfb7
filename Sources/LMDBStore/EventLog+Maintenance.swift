@_spi(Stores) public import EventLog
import LMDB

/// Audit and maintenance: verification and backups.
extension EventLog {
    /// Walks the whole chain in one snapshot; see `LedgerVerifier`.
    public func verify(expectedHead: ChainHash? = nil, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> VerificationReport {
        try wrapped {
            let report = try LedgerVerifier(databases: databases).verify(environment, expectedHead: expectedHead, progress: progress)
            guard report.isIntact, let problem = try read({ try TreeVerification.problem(in: $0) }) else { return report }
            return VerificationReport(eventsChecked: report.eventsChecked, head: report.head, problem: problem)
        }
    }

    /// Writes a compacted, consistent copy of the ledger and its keys into `directory` (new or
    /// empty) as `ledger/` and `keys/`. The copy holds the keys wrapped under the keyring, which
    /// it does not carry: it reads only with the keyring, and only until the next deletion
    /// retires the generation its keys are wrapped under (`Schemas/ledger-layout.md`, "The keyring").
    public func backup(to directory: String) throws {
        try wrapped {
            // Both under the shared lock: no key is destroyed between the ledger's snapshot and
            // the key store's (an account open in the copy always has its key), and the keys are
            // copied from the file `keys/` holds now.
            try keyStore.lock.withLock(.shared) {
                try environment.copy(to: directory + "/ledger", compact: true)
                try keyStore.fresh(locked: true).environment.copy(to: directory + "/keys", compact: true)
            }
        }
    }
}
