/// What comes back to the Settings tab (`AppMessage.settings`).
public enum SettingsMessage: Sendable, Equatable {
    case loaded(SettingsInfo, account: String)
    case failed(String)
    /// A setting changed (name, photo): what the core said.
    case changed(String, account: String)
    /// The language switched: every list is read again in it.
    case languageSwitched(String, message: String, account: String)
    /// The app's account is `account` now.
    case switched(account: String)
    /// The account was deleted; the lines say what was destroyed.
    case deleted([String], account: String)
}
