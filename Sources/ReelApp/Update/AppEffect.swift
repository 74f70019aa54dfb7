public import Reel

/// I/O the app asks for; the driver runs each on a task, and its result comes back as an
/// `AppMessage`. The screen never waits for one.
public enum AppEffect: Sendable, Equatable {
    /// Page `page` of the discover list of `mediaType` (popularity, descending).
    case loadPage(MediaType, page: Int)
    /// The Saved tab's (`SavedEffect`).
    case saved(SavedEffect)
    /// The Settings tab's (`SettingsEffect`).
    case settings(SettingsEffect)
    /// The account's language and the catalog in use.
    case loadStatus
}
