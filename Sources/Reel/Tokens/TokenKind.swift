/// What a token is for, which decides where its secret is accepted.
public enum TokenKind: String, Sendable, Hashable, CaseIterable {
    /// An app's token, sent as `Authorization: Bearer reel_…` (`reel token create`).
    case token
    /// A one-time sign-in link for a browser (`reel token create --link`): accepted once, within
    /// `TokenKind.linkLifetime` of its making, by `POST /v1/session`, which spends it and makes a
    /// session. Never a bearer token.
    case link
    /// A browser's session, made by spending a link: its secret lives only in an `HttpOnly`
    /// cookie, accepted for `TokenKind.sessionLifetime`. Never a bearer token.
    case session

    /// How long a sign-in link may wait to be opened: 15 minutes, in microseconds.
    public static let linkLifetime: Int64 = 15 * 60 * 1_000_000
    /// How long a browser session lasts: 30 days, in microseconds (the cookie's `Max-Age` too).
    public static let sessionLifetime: Int64 = 30 * 24 * 3600 * 1_000_000

    /// The record's byte for the kind (`Schemas/token-store-layout.md`).
    var byte: UInt8 {
        switch self {
        case .token: 0
        case .link: 1
        case .session: 2
        }
    }

    init?(byte: UInt8) {
        switch byte {
        case 0: self = .token
        case 1: self = .link
        case 2: self = .session
        default: return nil
        }
    }

    /// How long a secret of this kind is accepted after its making; `nil`: until revoked.
    var lifetime: Int64? {
        switch self {
        case .token: nil
        case .link: Self.linkLifetime
        case .session: Self.sessionLifetime
        }
    }
}
