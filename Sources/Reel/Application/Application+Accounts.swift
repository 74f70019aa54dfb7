import EventLog
import Ledger

extension Application {
    /// The account's view, now or as of a point in the past (read from the ledger, which must
    /// exist; no account is not found).
    public func account(_ handle: AccountHandle, asOf: AsOf? = nil) throws -> AccountView {
        guard let asOf else { return try view(of: handle) }
        return try requiredLedger().view(of: handle, asOf: asOf)
    }

    /// The account's events, newest last, as of a point if given, the last `limit` of them.
    public func history(of handle: AccountHandle, asOf: AsOf? = nil, limit: Int? = nil) throws -> (StreamID, [HistoryEntry]) {
        try requiredLedger().history(of: handle, asOf: asOf, limit: limit)
    }

    /// Every account in the ledger, deleted ones included.
    public func accounts() throws -> [AccountSummary] {
        try requiredLedger().accounts()
    }
}
