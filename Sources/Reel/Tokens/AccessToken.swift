import EventLog
import Ledger

/// One account token as the store records it: who it is for and when it was made and revoked,
/// never its secret (which only its bearer has; see `IssuedToken`).
public struct AccessToken: Sendable, Hashable {
    /// The token's public id: 12 lowercase hex digits, random. It names the token (to list and
    /// revoke it); it gives no access.
    public let id: String
    /// What the token is: an app's bearer token, a one-time sign-in link, or a browser's session.
    public let kind: TokenKind
    /// The account the token acts for.
    public let handle: AccountHandle
    /// The account's stream when the token was made. A handle freed by a deletion and opened
    /// again is another account, on another stream: a token of the old one must not reach it
    /// (the deletion removes its tokens; a face that reads the account can compare streams too).
    public let stream: StreamID
    /// When the token was made, in microseconds since 1970 (UTC).
    public let createdAt: Int64
    /// When the token was revoked, in microseconds since 1970 (UTC); `nil` while it is live.
    public let revokedAt: Int64?

    public var isRevoked: Bool { revokedAt != nil }

    /// When the token stops being accepted, in microseconds since 1970 (UTC); `nil` for an app's
    /// token, accepted until revoked.
    public var expiresAt: Int64? { kind.lifetime.map { createdAt + $0 } }

    /// The account the token is bound to, for the use cases: its changes (and reads) reach that
    /// stream only, never an account opened again under the same handle (`BoundAccount`).
    public var account: BoundAccount { BoundAccount(handle, stream: stream) }
}
