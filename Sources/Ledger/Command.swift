/// What a person asks of their account; `Decider` turns it into events.
public enum Command: Sendable, Hashable {
    case addFavorites([MediaKey])
    case removeFavorites([MediaKey])
    case rename(ProfileName)
    case changePhoto(PhotoReference)
    case removePhoto
    case switchLanguage(LanguageTag)
    case deleteAccount
}
