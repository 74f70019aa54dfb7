public import Reel

/// What came back for the screens over the tabs.
public enum DetailsMessage: Sendable, Equatable {
    case titleLoaded(TitleDetails)
    case titleFailed(MediaKey, message: String)
    case personLoaded(PersonPage)
    case personFailed(id: Int, message: String)
    /// The event is appended: `saved` says which way; `note` is what the status line says
    /// (`saved The Matrix (1999)`).
    case savedChanged(MediaKey, saved: Bool, note: String)
    case saveFailed(MediaKey, message: String)
}
