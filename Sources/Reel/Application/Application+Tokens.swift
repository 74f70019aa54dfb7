import EventLog
import Failures
import Foundation
import Ledger

/// Account tokens, for the HTTP service (`reel serve`) and `reel token`: made for an account
/// (opened if new), listed, revoked, and checked on every request. A token's secret is shown once
/// and kept nowhere; the store (`TokenStore`, `DATA_DIR/tokens`) keeps its digest, and the
/// handle sealed under it, so no file holds a handle in the clear.
extension Application {
    /// Opens the account if new (one `accountOpened` event through the domain), then issues a token
    /// of `kind`: an app's bearer token, or a one-time sign-in link for a browser (`.link`; a
    /// session is made only by spending a link, `signIn(link:)`).
    public func createToken(for handle: AccountHandle, kind: TokenKind = .token) throws -> IssuedToken {
        guard kind != .session else { throw Failure(.usage, "a session is made by opening a sign-in link, not directly") }
        // The store first: a damaged one refuses before the account is opened.
        try Self.checkDataDirectory(configuration.dataDirectory)
        guard let store = try TokenStore.open(in: configuration.dataDirectory, create: true) else {
            throw Failure(.storage, "the token store of \(configuration.dataDirectory) could not be made; no token was made")
        }
        let report = try record(.openAccount, for: try bind(handle))
        guard let stream = report.stream else { throw Failure(.storage, "the account '\(handle)' was not opened; no token was made") }
        let (stored, secret) = try store.issue(kind, for: handle, stream: stream, at: Self.microsecondsNow())
        // A deletion that committed after the account was opened above may have looked for its
        // tokens before this one was stored: the token must not outlive the account.
        guard try ledger(for: handle).openStream(of: handle) == stream else {
            try store.remove(id: stored.id)
            throw Failure(.notFound, "the account '\(handle)' was deleted while its token was being made; no token was made")
        }
        return IssuedToken(token: stored.token(handle), secret: secret.text, openedAccount: report.outcomes.contains(.accountOpened(handle)))
    }

    /// The tokens of `handle`'s open account, or with `nil` of every open account; oldest first,
    /// revoked ones included. None without a token store or a ledger.
    public func tokens(of handle: AccountHandle?) throws -> [AccessToken] {
        try Self.checkDataDirectory(configuration.dataDirectory)
        guard let store = try TokenStore.open(in: configuration.dataDirectory, create: false) else { return [] }
        let records = try store.all()
        guard !records.isEmpty else { return [] }
        if let handle {
            guard let ledger = try ledgerOfTokens(for: handle), let stream = try ledger.openStream(of: handle) else { return [] }
            return records.filter { $0.stream == stream }.map { $0.token(handle) }
        }
        // A record whose account is not open belongs to a deletion stopped between its commit and
        // the removal of the tokens: revoked before it began, and nobody's now.
        let handles = try openHandles(of: Set(records.map(\.stream)))
        return records.compactMap { record in handles[record.stream].map { record.token($0) } }
    }

    /// Revokes the token `id` for good; revoking it again is no mistake and keeps the first time.
    /// An unknown id is `.notFound`; one not of an id's form `.usage`, without quoting it (it may
    /// be a secret pasted by mistake, which must not reach a terminal or a log).
    public func revokeToken(_ id: String) throws -> AccessToken {
        guard TokenID.isWellFormed(id) else {
            throw Failure(
                .usage,
                id.hasPrefix(TokenSecret.prefix)
                    ? "that is a token's secret, not its id: give the id 'reel token list' shows (12 hex digits)"
                    : "a token id is 12 lowercase hex digits (see 'reel token list')")
        }
        guard let store = try TokenStore.open(in: configuration.dataDirectory, create: false),
            let revoked = try store.revoke(id: id, at: Self.microsecondsNow()),
            let handle = try openHandles(of: [revoked.stream])[revoked.stream]
        else {
            throw Failure(.notFound, "there is no token '\(id)'")
        }
        return revoked.token(handle)
    }

    /// The live token a bearer secret names, else nil (unknown, malformed or revoked). Must be cheap
    /// (it runs on every HTTP request): at most one LMDB read transaction, no write; constant-time
    /// compare.
    ///
    /// A token found is answered again only while the token store has had no commit since, so a
    /// revocation (or a deletion of the account, which revokes first) committed by any process
    /// counts from the next call. A damaged store is a `.tampered` failure, never a token let
    /// through.
    public func authenticate(bearer secret: String) throws -> AccessToken? {
        try authenticate(secret, as: .token)
    }

    /// The live browser session a cookie's secret names, else nil (unknown, malformed, revoked,
    /// expired, or a secret of another kind): as cheap as `authenticate(bearer:)`.
    public func authenticate(session secret: String) throws -> AccessToken? {
        try authenticate(secret, as: .session)
    }

    private func authenticate(_ secret: String, as kind: TokenKind) throws -> AccessToken? {
        guard let parsed = TokenSecret(text: secret), let store = try TokenStore.open(in: configuration.dataDirectory, create: false),
            case let (record, handle)? = try store.record(for: parsed), record.kind == kind, record.isAccepted(at: Self.microsecondsNow())
        else { return nil }
        return record.token(handle)
    }

    /// Spends the one-time sign-in link `secret` and makes a browser session for its account
    /// (its secret shown once, for the cookie); `nil` when the link is unknown, spent, revoked,
    /// expired (15 minutes), not a link, or its account was deleted since. The session the
    /// browser had (`replacing`, its secret), if live, is revoked once the new one is made: one
    /// browser, one session, so a link someone else sent does not leave the old one live.
    public func signIn(link secret: String, replacing previous: String? = nil) throws -> IssuedToken? {
        guard let parsed = TokenSecret(text: secret), let store = try TokenStore.open(in: configuration.dataDirectory, create: false),
            let (session, sessionSecret, handle) = try store.spend(link: parsed, at: Self.microsecondsNow())
        else { return nil }
        let token = session.token(handle)
        guard try reachesItsAccount(token) else {
            try store.remove(id: session.id)
            return nil
        }
        if let previous, let old = try authenticate(session: previous) { _ = try store.revoke(id: old.id, at: Self.microsecondsNow()) }
        return IssuedToken(token: token, secret: sessionSecret.text, openedAccount: false)
    }

    /// Whether `token` acts for the account its handle has open now: a handle freed by a deletion
    /// and opened again is another account, on another stream, which an old token must not
    /// reach. The account's kept view answers when it still holds (`keptView`: one read of a
    /// version), else one read of the handle directory.
    public func reachesItsAccount(_ token: AccessToken) throws -> Bool {
        guard let ledger = try existingLedger(for: token.handle) else { return false }
        if let kept = try ledger.keptView(of: token.handle) { return kept.stream == token.stream }
        if try ledger.openStream(token.handle) == token.stream { return true }
        // Not on the shard routed to: it may have moved to its home under a map grown since.
        guard let other = try router.rerouted(token.handle, from: ledger) else { return false }
        return try other.openStream(token.handle) == token.stream
    }

    /// Whether `token` is live now: still in the token store, not revoked (by any process), for
    /// the same account (a deletion revokes its account's tokens before it commits). One read
    /// transaction of the token store, by the token's id.
    ///
    /// `seen` is the token store as the answer read it: the answer holds while
    /// `tokenStoreMark()` is still `seen`. It may be older than the mark read just before the
    /// call (a commit is marked a moment before new reads see it), so a face that keeps an answer
    /// keeps it with `seen`, never with a mark it read itself, or it would keep a token revoked
    /// by that commit live for good.
    public func liveness(of token: AccessToken) throws -> (live: Bool, seen: TokenStoreMark) {
        guard let store = try TokenStore.open(in: configuration.dataDirectory, create: false) else {
            return (false, TokenStoreMark(file: nil, transaction: nil))
        }
        let (live, transaction) = try store.isLive(id: token.id, stream: token.stream, at: Self.microsecondsNow())
        return (live, TokenStoreMark(file: store.fileIdentity, transaction: transaction))
    }

    /// The token store as it is now (`TokenStoreMark`): it changes with every commit to the
    /// store, by any process, and when the store is replaced or removed. Cheap: a `stat` and a
    /// read of LMDB's shared lock file, no transaction. A long-lived face polls it to learn of a
    /// revocation at once (the service's event streams), and checks its tokens only when it moved.
    public func tokenStoreMark() -> TokenStoreMark {
        guard let store = try? TokenStore.open(in: configuration.dataDirectory, create: false) else { return TokenStoreMark(file: nil, transaction: nil) }
        return TokenStoreMark(file: store.fileIdentity, transaction: try? store.lastTransaction())
    }

    /// Revokes the live tokens of the account `stream`, which is about to be deleted; a data
    /// directory without tokens is left without a token store.
    func revokeTokens(of stream: StreamID) throws {
        try TokenStore.open(in: configuration.dataDirectory, create: false)?.revokeAll(of: stream, at: Self.microsecondsNow())
    }

    /// Removes the tokens of the accounts `streams`, which are deleted. The store is looked for
    /// again: one made since the deletion began may hold a token made meanwhile.
    func removeTokens(of streams: Set<StreamID>) throws {
        guard let store = try TokenStore.open(in: configuration.dataDirectory, create: false) else { return }
        for stream in streams { try store.removeAll(of: stream) }
    }

    /// The ledger the token of `handle` is in. A token is made only once its account is open,
    /// so there is one even when this process found none before (a service started on an empty
    /// data directory, before the first `reel token create`).
    private func ledgerOfTokens(for handle: AccountHandle) throws -> AccountService? {
        if let ledger = try existingLedger(for: handle) { return ledger }
        forgetMissingLedger()
        return try existingLedger(for: handle)
    }

    /// The handles of the accounts `streams` that are open, each looked for where the routing
    /// places it.
    private func openHandles(of streams: Set<StreamID>) throws -> [StreamID: AccountHandle] {
        try router.openHandles(of: streams)
    }

    static func microsecondsNow() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }
}
