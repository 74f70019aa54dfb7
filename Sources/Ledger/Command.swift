/// What a person asks of their account; `Decider` turns it into events.
public enum Command: Sendable, Hashable {
    case addFavorites([MediaKey])
    /// Titles from another app or ledger, each with when it was first saved there; `source` names it.
    case importFavorites([ImportedFavorite], source: String)
    case removeFavorites([MediaKey])
    case rename(ProfileName)
    case changePhoto(PhotoReference)
    case removePhoto
    case switchLanguage(LanguageTag)
    case deleteAccount
    /// Opens the account when the handle has none (a token is issued for it before it made any
    /// change); an open account is left as it is.
    case openAccount
}
