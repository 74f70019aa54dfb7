public import Reel

/// What came back for the screens over the tabs.
public enum DetailsMessage: Sendable, Equatable {
    case titleLoaded(TitleDetails)
    case titleFailed(MediaKey, message: String)
    case personLoaded(PersonPage)
    case personFailed(id: Int, message: String)
    /// A link was given to `browser` (`$BROWSER`'s command, `xdg-open`).
    case linkOpened(String, browser: String)
    /// No browser to open a link with here (or it could not be started): the status line shows it.
    case linkNotOpened(String, why: String)
}
