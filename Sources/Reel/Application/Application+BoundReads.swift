import Ledger

/// Reads of an account as its caller was bound to it (`BoundAccount`: a token's account): what is
/// read is that stream's, or the read is refused (`ReelError.accountGone`). A handle freed by a
/// deletion and opened again names another account, whose list, settings, history or export a
/// caller bound to the old one must not see, even when its read began before the deletion.
extension Application {
    /// `savedList(of:_:progress:omdbProgress:)` of the account `account` is bound to.
    public func savedList(
        of account: BoundAccount, _ query: SavedListQuery, progress: ((Int, Int) -> Void)? = nil, omdbProgress: ((Int, Int) -> Void)? = nil
    ) async throws -> SavedListReport {
        let report = try await savedList(of: account.handle, query, progress: progress, omdbProgress: omdbProgress)
        try Self.check(account, read: report.stream)
        return report
    }

    /// `savedPage(of:_:limit:after:)` of the account `account` is bound to.
    public func savedPage(
        of account: BoundAccount, _ query: SavedListQuery, limit: Int, after cursor: (key: MediaKey, index: Int)?
    ) async throws -> SavedListPage {
        let page = try await savedPage(of: account.handle, query, limit: limit, after: cursor)
        try Self.check(account, read: page.report.stream)
        return page
    }

    /// `account(_:asOf:)` of the account `bound` is bound to.
    public func account(_ bound: BoundAccount, asOf: AsOf? = nil) throws -> AccountView {
        let view = try account(bound.handle, asOf: asOf)
        try Self.check(bound, read: view.stream)
        return view
    }

    /// `history(of:asOf:limit:progress:)` of the account `account` is bound to (a deleted one's
    /// shredded history included: it is still that stream's).
    public func history(of account: BoundAccount, asOf: AsOf? = nil, limit: Int? = nil, progress: ((Int, Int) -> Void)? = nil) async throws
        -> HistoryReport
    {
        let report = try await history(of: account.handle, asOf: asOf, limit: limit, progress: progress)
        try Self.check(account, read: report.stream)
        return report
    }

    /// `export(_:format:details:generator:progress:)` of the account `account` is bound to.
    public func export(
        _ account: BoundAccount, format: ExportFormat, details: Bool = true, generator: String, progress: ((Int, Int) -> Void)? = nil
    ) async throws -> ExportReport {
        let report = try await export(account.handle, format: format, details: details, generator: generator, progress: progress)
        try Self.check(account, read: report.stream)
        return report
    }

    /// Refuses what was read of `stream` for a caller bound to another stream.
    static func check(_ account: BoundAccount, read stream: StreamID?) throws {
        guard let bound = account.stream, stream != bound else { return }
        throw ReelError.accountGone(account.handle.value)
    }
}
