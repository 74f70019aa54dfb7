public import Reel

/// I/O for the screens over the tabs: a title's details (with similar titles), a person's
/// filmography (saving or removing a title is `SavedEffect.change`, from every place).
public enum DetailsEffect: Sendable, Equatable {
    case loadTitle(MediaKey)
    /// A person by TMDb id.
    case loadPerson(id: Int)
    /// A link (a trailer, the poster) opened in the person's browser (`BrowserOpener`), when they
    /// have one.
    case openLink(String)
}
