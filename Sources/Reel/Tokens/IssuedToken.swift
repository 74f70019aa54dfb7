/// A token just made, with its secret: the only time the secret exists outside its bearer's
/// hands. Show it once and forget it; the store keeps only a digest.
public struct IssuedToken: Sendable {
    public let token: AccessToken
    /// `reel_` + 43 characters of base64url (256 random bits): what the bearer sends as
    /// `Authorization: Bearer …`.
    public let secret: String
    /// Whether making the token opened the account (the handle had none).
    public let openedAccount: Bool
}
