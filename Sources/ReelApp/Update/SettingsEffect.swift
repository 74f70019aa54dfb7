/// I/O the Settings tab asks for (`AppEffect.settings`), on the use cases `reel settings`,
/// `reel accounts`, `reel about` and `reel account delete` call.
public enum SettingsEffect: Sendable, Equatable {
    /// The settings, the languages, the accounts and where the data lives.
    case load
    case rename(String)
    /// A photo from a JPEG or PNG file; `nil` removes it.
    case photo(path: String?)
    case language(String)
    /// The app's account from now on (made by its first change when new).
    case switchAccount(String)
    /// Deletes the account for good (its handle was typed again).
    case deleteAccount(String)
}
