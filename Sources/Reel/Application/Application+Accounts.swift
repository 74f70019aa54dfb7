import EventLog
import Ledger

extension Application {
    /// The account's view, now or as of a point in the past (read from the ledger, which must
    /// exist; no account is not found).
    public func account(_ handle: AccountHandle, asOf: AsOf? = nil) throws -> AccountView {
        guard let asOf else { return try view(of: handle) }
        return try requiredLedger().view(of: handle, asOf: asOf)
    }

    /// Every account in the ledger, deleted ones included.
    public func accounts() throws -> [AccountSummary] {
        try requiredLedger().accounts()
    }
}

extension Application {
    /// The account's events, oldest first, the last `limit` of them, naming the titles saved and
    /// removed (from the catalog, in the account's language; `progress`: fetched, total).
    public func history(
        of handle: AccountHandle, asOf: AsOf? = nil, limit: Int? = nil, progress: ((Int, Int) -> Void)? = nil
    ) async throws -> HistoryReport {
        let ledger = try requiredLedger()
        let (stream, entries) = try ledger.history(of: handle, asOf: asOf, limit: limit)
        let language = try reader(handle).language
        let keys = entries.compactMap(\.mediaKey)
        let lookups = keys.isEmpty ? [:] : try await lookUp(keys, language: language, progress: progress)
        let notices = keys.isEmpty ? [] : TitleLookup.notices(for: Array(lookups.values), sample: try catalogIsSample())
        let deletedAt = try ledger.deletedAccount(handle).flatMap { $0.stream == stream ? $0.deletedAt : nil }
        return HistoryReport(
            handle: handle, stream: stream, asOf: asOf, entries: entries, deletedAt: deletedAt,
            titles: lookups.compactMapValues { $0.summary?.label }, notices: notices)
    }
}
