import Failures
import Foundation
import Ledger

extension Application {
    /// Saves `keys` (what is saved already is left as it is). Each id is checked with the catalog
    /// first: an id the catalog does not have (TMDb, or the bundled sample without credentials)
    /// fails the whole change (nothing saved). Ids that cannot be checked (offline, TMDb
    /// unreachable) are saved with a note.
    public func addFavorites(_ keys: [MediaKey], for handle: AccountHandle) async throws -> ChangeReport {
        try await addFavorites(keys, for: try bind(handle), requestKey: nil)
    }

    /// The same, committed with other callers' changes in one write transaction (group commit),
    /// under `requestKey` (an HTTP `Idempotency-Key`: 1 to 255 printable ASCII characters, else a
    /// usage failure) when one is given: a retry under the same key appends nothing and answers
    /// with the first request's report (`replayed`). The ids are checked with the catalog again
    /// first, as for any request.
    public func addFavorites(_ keys: [MediaKey], for handle: AccountHandle, requestKey: String?) async throws -> ChangeReport {
        try await addFavorites(keys, for: try bind(handle), requestKey: requestKey)
    }

    /// The same for `account` as its caller was bound to it (a token's account): saved only if
    /// the handle still names that account when the change is written (`BoundAccount`).
    public func addFavorites(_ keys: [MediaKey], for account: BoundAccount, requestKey: String?) async throws -> ChangeReport {
        let key = try requestKey.map(RequestKey.init)
        let language = try titleLanguage(of: account.handle)
        let lookups = try await lookUp(keys, language: language)
        let absent = keys.filter { lookups[$0] == .notFound }
        if !absent.isEmpty {
            let named = absent.prefix(5).map { String($0.id) }.joined(separator: ", ")
            let what = "\(absent[0].mediaType.noun) with id \(named)" + (absent.count > 5 ? " (and \(absent.count - 5) more)" : "")
            throw Failure(.notFound, try catalogs.catalog().source.hasNo(what) + "; nothing saved")
        }
        let notes: [FavoriteNote] = keys.compactMap { key in
            switch lookups[key] {
            case .notCached?: .savedOffline(key)
            case .failed(let reason)?: .unchecked(key, reason: reason)
            case .known?, .notFound?, nil: nil
            }
        }
        let report = try await submit(.addFavorites(keys), for: account, key: key)
        return ChangeReport(command: report, titles: lookups.compactMapValues(\.summary), notes: notes)
    }

    /// Removes `keys` (what is not saved is left as it is). Titles only name what was removed: a
    /// title TMDb lost can still be removed, and a catalog that cannot answer leaves names out.
    public func removeFavorites(_ keys: [MediaKey], for handle: AccountHandle) async throws -> ChangeReport {
        try await removeFavorites(keys, for: try bind(handle), requestKey: nil)
    }

    /// The same, by group commit and under `requestKey` (see `addFavorites(_:for:requestKey:)`).
    public func removeFavorites(_ keys: [MediaKey], for handle: AccountHandle, requestKey: String?) async throws -> ChangeReport {
        try await removeFavorites(keys, for: try bind(handle), requestKey: requestKey)
    }

    /// The same for `account` as its caller was bound to it (see `addFavorites(_:for:requestKey:)`).
    public func removeFavorites(_ keys: [MediaKey], for account: BoundAccount, requestKey: String?) async throws -> ChangeReport {
        let key = try requestKey.map(RequestKey.init)
        let language = try titleLanguage(of: account.handle)
        let lookups = (try? await lookUp(keys, language: language)) ?? [:]
        let report = try await submit(.removeFavorites(keys), for: account, key: key)
        return ChangeReport(command: report, titles: lookups.compactMapValues(\.summary), notes: [])
    }

    /// Any other change of the account (name, language, photo) by the domain's command, in a
    /// write transaction of its own.
    public func change(_ command: Command, for handle: AccountHandle, photo: [UInt8]? = nil) throws -> ChangeReport {
        try change(command, for: try bind(handle), photo: photo)
    }

    /// The same for `account` as its caller was bound to it (`BoundAccount`).
    public func change(_ command: Command, for account: BoundAccount, photo: [UInt8]? = nil) throws -> ChangeReport {
        ChangeReport(command: try record(command, for: account, photo: photo), titles: [:], notes: [])
    }

    /// The same by group commit, under `requestKey` (see `addFavorites(_:for:requestKey:)`).
    /// Deleting the account and setting a photo still take a write transaction of their own.
    public func change(_ command: Command, for handle: AccountHandle, requestKey: String?, photo: [UInt8]? = nil) async throws
        -> ChangeReport
    {
        try await change(command, for: try bind(handle), requestKey: requestKey, photo: photo)
    }

    /// The same for `account` as its caller was bound to it (`BoundAccount`).
    public func change(_ command: Command, for account: BoundAccount, requestKey: String?, photo: [UInt8]? = nil) async throws
        -> ChangeReport
    {
        let key = try requestKey.map(RequestKey.init)
        return ChangeReport(command: try await submit(command, for: account, key: key, photo: photo), titles: [:], notes: [])
    }
}
