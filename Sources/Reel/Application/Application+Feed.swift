import Ledger

extension Application {
    /// The account's events after stream version `version` (0: all of them), then each new one as
    /// it is appended by this process or another, until the stream is ended: `AccountFeed`'s
    /// rules (each version once, in order). The stream ends with an error when the account has
    /// no ledger, or the listener falls far behind (it resumes from its last version).
    public func accountEvents(of handle: AccountHandle, after version: UInt64) throws -> AsyncThrowingStream<HistoryEntry, any Error> {
        try feed(for: handle).listen(to: handle, after: version)
    }

    /// The same for `account` as its caller was bound to it (a token's account): the events of
    /// that stream only. When the handle no longer names it (deleted, and perhaps opened again)
    /// the stream ends at once (`ReelError.accountGone`).
    public func accountEvents(of account: BoundAccount, after version: UInt64) throws -> AsyncThrowingStream<HistoryEntry, any Error> {
        try feed(for: account.handle).listen(to: account.handle, after: version, bound: account.stream)
    }

    /// How many listeners `accountEvents` has now.
    public var eventListeners: Int { startedFeeds().reduce(0) { $0 + $1.listeners } }

    /// Ends every `accountEvents` stream (a shutdown).
    public func finishEventStreams() { for feed in startedFeeds() { feed.finishAll() } }
}
