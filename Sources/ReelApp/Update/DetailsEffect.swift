public import Reel

/// I/O for the screens over the tabs: a title's details (with similar titles), a person's
/// filmography, and saving or removing a title through the application core.
public enum DetailsEffect: Sendable, Equatable {
    case loadTitle(MediaKey)
    /// A person by TMDb id.
    case loadPerson(id: Int)
    /// Save (`true`) or remove (`false`): the application core appends the event, then the
    /// answer flips ★.
    case setSaved(MediaKey, Bool)
}
