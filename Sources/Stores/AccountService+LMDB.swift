public import Reel
import LMDBStore

extension AccountService {
    /// Opens the LMDB store in `directory` (made when missing) and brings the projections up to
    /// date.
    public static func open(at directory: String) throws -> AccountService {
        try AccountService(log: EventLog.open(at: directory))
    }

    /// Whether `directory` holds an LMDB store, or a key store (which is refused when its ledger
    /// is missing), or cannot be looked into (so that opening it reports the permission problem
    /// instead of "no ledger").
    public static func ledgerExists(at directory: String) -> Bool {
        EventLog.exists(in: directory)
    }
}
