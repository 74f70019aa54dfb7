import LMDB

/// The token store of a data directory as it was at one moment (`Application.tokenStoreMark`):
/// the file open and its last committed transaction. Two marks differ when any process committed
/// a change to the store between them (a token made, revoked or removed), or the store was
/// replaced or removed; equal marks mean no token changed.
public struct TokenStoreMark: Sendable, Equatable {
    let file: Environment.FileIdentity?
    let transaction: Int?

    /// Whether the store was there and read: a mark of no store (or of one that could not be
    /// read) vouches for no token.
    public var isRead: Bool { file != nil && transaction != nil }
}
