import EventLog
import Ledger

extension Application {
    /// The account's view, now or as of a point in the past. Now, an account that has made no
    /// change yet (no ledger, or no account by that handle) reads as nothing saved and the default
    /// settings (`AccountView.isUnopened`): a first run is not a failure. A deleted account, and a
    /// point in the past of an account that never was, are not found.
    public func account(_ handle: AccountHandle, asOf: AsOf? = nil) throws -> AccountView {
        guard let asOf else {
            guard try existingLedger(for: handle) != nil else { return .unopened(handle) }
            do { return try view(of: handle) } catch ReelError.noAccount { return .unopened(handle) }
        }
        return try requiredLedger(for: handle).view(of: handle, asOf: asOf)
    }

    /// True when `handle` has made no change yet: there is no ledger, or no account, open or
    /// deleted, by that handle.
    func isUnopened(_ handle: AccountHandle) throws -> Bool {
        guard let ledger = try existingLedger(for: handle) else { return true }
        do {
            _ = try ledger.resolve(handle)
            return false
        } catch ReelError.noAccount {
            return true
        }
    }

    /// Every account in the ledger (every shard's, with a shard map), deleted ones included;
    /// none without a ledger.
    public func accounts() throws -> [AccountSummary] {
        try everyLedger().flatMap { try $0.accounts() }.sorted(by: AccountSummary.listed)
    }
}

extension Application {
    /// The account's events, oldest first, the last `limit` of them, naming the titles saved and
    /// removed (from the catalog, in the account's language; `progress`: fetched, total).
    public func history(
        of handle: AccountHandle, asOf: AsOf? = nil, limit: Int? = nil, progress: ((Int, Int) -> Void)? = nil
    ) async throws -> HistoryReport {
        if asOf == nil, try isUnopened(handle) {
            // No change made yet: no events (a point in the past of such an account is not found).
            return HistoryReport(handle: handle, stream: nil, asOf: nil, entries: [], deletedAt: nil, titles: [:], notices: [])
        }
        let ledger = try requiredLedger(for: handle)
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
